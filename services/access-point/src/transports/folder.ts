/**
 * `PEPPOL_AP=folder` (issue #23), the way SFTP-drop providers work: an issued document is written to
 * `PEPPOL_OUTBOX_DIR` as `<transmission id>.xml` (a temporary file, then a rename, so the provider never
 * reads half a file); received documents are picked up from `PEPPOL_INBOX_DIR` (`*.xml`) and moved to
 * `done/` or to `failed/` with `<name>.json` beside them saying why. A folder provider reports no Message
 * Level Status: an issued document ends at `sent`.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Outbound, Outcome, Transport } from './transport.js';

export interface FolderOptions {
  outbox: string;
  inbox: string;
  /** How often the inbox is looked at, ms. */
  pollMs?: number;
  /** The company whose `peppolId` is `endpoint`, or null. */
  companyOf: (endpoint: string) => Promise<string | null>;
  onError?: (e: Error) => void;
}

export function folderTransport(o: FolderOptions): Transport {
  const fileOf = (id: string) => join(o.outbox, `${id}.xml`);
  return {
    name: 'folder',
    async submit(doc: Outbound): Promise<Outcome> {
      await mkdir(o.outbox, { recursive: true });
      const tmp = join(o.outbox, `.${doc.transmissionId}.xml.tmp`);
      await writeFile(tmp, doc.document);
      await rename(tmp, fileOf(doc.transmissionId));
      return { status: 'sent' };
    },
    async follow(doc) {
      return existsSync(fileOf(doc.transmissionId)) ? { status: 'sent' } : 'unknown';
    },
    async registered(peppolId) {
      return (await o.companyOf(peppolId)) !== null;
    },
    async startInbound(receive) {
      for (const d of [o.inbox, join(o.inbox, 'done'), join(o.inbox, 'failed')])
        await mkdir(d, { recursive: true });
      let stopped = false;
      let running: Promise<void> = Promise.resolve();
      const scan = async () => {
        const names = (await readdir(o.inbox))
          .filter((n) => n.toLowerCase().endsWith('.xml') && !n.startsWith('.'))
          .sort();
        for (const name of names) {
          if (stopped) return;
          const path = join(o.inbox, name);
          const bytes = await readFile(path);
          const r = await receive(bytes, `folder:${name}`);
          // A transient failure (the services are down) leaves the file for the next scan. The file moves
          // first and its reason appears whole after it (temporary name, then rename), so whoever sees the
          // reason finds the file beside it.
          await rename(path, join(o.inbox, r.ok ? 'done' : 'failed', name));
          if (!r.ok) {
            const reason = join(o.inbox, 'failed', `${name}.json`);
            await writeFile(
              `${reason}.tmp`,
              `${JSON.stringify({ file: name, code: r.code, reason: r.reason, at: new Date().toISOString() }, null, 2)}\n`,
            );
            await rename(`${reason}.tmp`, reason);
          }
        }
      };
      const timer = setInterval(() => {
        running = running.then(scan).catch((e: Error) => o.onError?.(e));
      }, o.pollMs ?? 1000);
      return async () => {
        stopped = true;
        clearInterval(timer);
        await running;
      };
    },
  };
}
