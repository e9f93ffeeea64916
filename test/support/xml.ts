/**
 * XPath over UBL documents in tests (issue #21): exact values read back from the XML, namespaces bound
 * to the usual prefixes (`ubl` for the Invoice or CreditNote root namespace, `cac`, `cbc`).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DOMParser } from '@xmldom/xmldom';
import * as xpath from 'xpath';

const NS = {
  inv: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cn: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};
const select = xpath.useNamespaces(NS);

export interface Xml {
  /** The text of every node `path` selects. */
  all(path: string): string[];
  /** The text of the one node `path` selects (throws when none or several). */
  one(path: string): string;
  count(path: string): number;
}

/** Parses `text`; when `EINVOICE_DUMP_DIR` is set, the document is also written there as `name`.xml (for the official validator). */
export function xml(text: string, name?: string): Xml {
  if (name && process.env.EINVOICE_DUMP_DIR)
    writeFileSync(join(process.env.EINVOICE_DUMP_DIR, `${name}.xml`), text);
  const doc = new DOMParser().parseFromString(text, 'application/xml') as unknown as Node;
  const nodes = (path: string) => select(path, doc) as Node[];
  const textOf = (n: Node) => (n.nodeType === 2 ? (n as Attr).value : (n.textContent ?? ''));
  return {
    all: (path) => nodes(path).map(textOf),
    one: (path) => {
      const found = nodes(path);
      if (found.length !== 1) throw new Error(`${path}: ${found.length} nodes`);
      return textOf(found[0]);
    },
    count: (path) => nodes(path).length,
  };
}
