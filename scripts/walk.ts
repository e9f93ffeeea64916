/**
 * `pnpm walk FILE:FUNCTION [--within DIR] [--depth N]` (issue #38): follows one write as a reader would, from a use
 * case's function, and counts the files it enters and how often it comes back to a file it left.
 *
 * The walk reads a function's body top to bottom and, at each call of a function defined in a file under
 * `--within` (default: the service's `src/` of FILE), opens that function (enters its file), reads it
 * the same way and comes back. A function is read once; calls into shared packages and libraries are not
 * followed (the walk stays in the service, like the reader of one service's write). A document kind
 * handed to `runDocument(kind, …)` is read as its object: its functions in the order they are written.
 * `--depth N` stops N calls below the start. Static, from the sources (parsed with swc): calls through a
 * value the code computes are not followed.
 *
 * Prints the walk (one line per file entered, indented by depth) and a last line:
 * `files entered: N in F folders; re-entered: R`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { parseSync } from '@swc/core';

type Node = Record<string, any>;

/** What a module defines and imports, by local name. */
interface ModuleInfo {
  file: string;
  functions: Map<string, Node>;
  objects: Map<string, Node>;
  imports: Map<string, { from: string; name: string | '*' }>;
  reexports: { from: string; names: Map<string, string> | '*' }[];
}

const modules = new Map<string, ModuleInfo | null>();

/** The `.ts` file a relative import names, or null (a package). */
function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec).replace(/\.js$/, '');
  for (const f of [`${base}.ts`, `${base}/index.ts`]) if (existsSync(f)) return f;
  return null;
}

function load(file: string): ModuleInfo | null {
  if (modules.has(file)) return modules.get(file)!;
  if (!existsSync(file)) return null;
  const ast = parseSync(readFileSync(file, 'utf8'), { syntax: 'typescript' }) as Node;
  const info: ModuleInfo = {
    file,
    functions: new Map(),
    objects: new Map(),
    imports: new Map(),
    reexports: [],
  };
  const declare = (d: Node) => {
    if (d.type === 'FunctionDeclaration') info.functions.set(d.identifier.value, d);
    if (d.type === 'VariableDeclaration')
      for (const v of d.declarations) {
        if (v.id?.type !== 'Identifier' || !v.init) continue;
        const init = v.init.type === 'TsSatisfiesExpression' ? v.init.expression : v.init;
        if (init.type === 'ArrowFunctionExpression' || init.type === 'FunctionExpression')
          info.functions.set(v.id.value, init);
        else if (init.type === 'ObjectExpression') info.objects.set(v.id.value, init);
        else if (init.type === 'CallExpression') info.functions.set(v.id.value, init);
      }
  };
  for (const item of ast.body) {
    if (item.type === 'ImportDeclaration') {
      const from = resolveImport(file, item.source.value);
      if (!from) continue;
      for (const s of item.specifiers)
        info.imports.set(s.local.value, {
          from,
          name: s.type === 'ImportNamespaceSpecifier' ? '*' : (s.imported?.value ?? s.local.value),
        });
    } else if (item.type === 'ExportDeclaration') declare(item.declaration);
    else if (item.type === 'ExportAllDeclaration') {
      const from = resolveImport(file, item.source.value);
      if (from) info.reexports.push({ from, names: '*' });
    } else if (item.type === 'ExportNamedDeclaration' && item.source) {
      const from = resolveImport(file, item.source.value);
      if (from)
        info.reexports.push({
          from,
          names: new Map(item.specifiers.map((s: Node) => [s.exported?.value ?? s.orig.value, s.orig.value])),
        });
    } else declare(item);
  }
  modules.set(file, info);
  return info;
}

/** Where `name` exported by `file` is defined (through barrels' re-exports). */
function exported(
  file: string,
  name: string,
  seen = new Set<string>(),
): { file: string; node: Node; object: boolean } | null {
  if (seen.has(file)) return null;
  seen.add(file);
  const m = load(file);
  if (!m) return null;
  const fn = m.functions.get(name);
  if (fn) return { file, node: fn, object: false };
  const obj = m.objects.get(name);
  if (obj) return { file, node: obj, object: true };
  const imp = m.imports.get(name);
  if (imp && imp.name !== '*') return exported(imp.from, imp.name, seen);
  for (const r of m.reexports) {
    const orig = r.names === '*' ? name : r.names.get(name);
    if (orig) {
      const hit = exported(r.from, orig, seen);
      if (hit) return hit;
    }
  }
  return null;
}

/** What a local name of `file` refers to. */
function binding(file: string, name: string) {
  const m = load(file)!;
  if (m.functions.has(name)) return { file, node: m.functions.get(name)!, object: false };
  if (m.objects.has(name)) return { file, node: m.objects.get(name)!, object: true };
  const imp = m.imports.get(name);
  return imp && imp.name !== '*' ? exported(imp.from, imp.name) : null;
}

/** Every call in `node`, in source order. */
function callsIn(node: Node): Node[] {
  const out: Node[] = [];
  const visit = (n: unknown) => {
    if (!n || typeof n !== 'object') return;
    if (Array.isArray(n)) return n.forEach(visit);
    const o = n as Node;
    if (o.type === 'CallExpression') out.push(o);
    for (const [k, v] of Object.entries(o)) if (k !== 'span') visit(v);
  };
  visit(node);
  return out.sort((a, b) => a.span.start - b.span.start);
}

const args = process.argv.slice(2);
const [startFile, startName] = (args[0] ?? '').split(':');
if (!startFile || !startName) {
  console.error('usage: pnpm walk FILE:FUNCTION [--within DIR]');
  process.exit(2);
}
const root = process.cwd();
const withinAt = args.indexOf('--within');
const within = resolve(
  withinAt >= 0 ? args[withinAt + 1] : (/^(.*?\/src)\//.exec(resolve(startFile))?.[1] ?? dirname(startFile)),
);
const depthAt = args.indexOf('--depth');
const maxDepth = depthAt >= 0 ? Number(args[depthAt + 1]) : Number.POSITIVE_INFINITY;
const read = new Set<Node>();
const sequence: string[] = [];
const lines: string[] = [];

/** Reads function (or kind object) `node` of `file` at `depth`: enters its file and follows its calls. */
function walk(file: string, node: Node, depth: number, name: string): void {
  if (read.has(node) || !file.startsWith(within) || depth > maxDepth) return;
  read.add(node);
  if (sequence.at(-1) !== file) sequence.push(file);
  lines.push(`${'  '.repeat(depth)}${relative(root, file)}: ${name}`);
  const parts =
    node.type === 'ObjectExpression'
      ? node.properties.filter((p: Node) => p.type === 'KeyValueProperty' || p.type === 'MethodProperty')
      : [node];
  for (const part of parts) {
    for (const call of callsIn(part)) {
      const callee = call.callee;
      let target: ReturnType<typeof binding> = null;
      if (callee.type === 'Identifier') target = binding(file, callee.value);
      else if (callee.type === 'MemberExpression' && callee.object.type === 'Identifier') {
        const imp = load(file)!.imports.get(callee.object.value);
        if (imp?.name === '*' && callee.property.type === 'Identifier')
          target = exported(imp.from, callee.property.value);
      }
      if (target && !target.object) {
        walk(target.file, target.node, depth + 1, callee.value ?? callee.property?.value);
        if (sequence.at(-1) !== file) sequence.push(file);
      }
      // A document kind handed to the engine is read as its object, top to bottom.
      for (const a of call.arguments ?? []) {
        if (a.expression?.type !== 'Identifier') continue;
        const kind = binding(file, a.expression.value);
        if (kind?.object) {
          walk(kind.file, kind.node, depth + 1, a.expression.value);
          if (sequence.at(-1) !== file) sequence.push(file);
        }
      }
    }
  }
}

const start = binding(resolve(startFile), startName);
if (!start) {
  console.error(`${startName} is not defined in ${startFile}`);
  process.exit(2);
}
walk(start.file, start.node, 0, startName);
const entered = new Set(sequence);
let reentered = 0;
const left = new Set<string>();
const perFile = new Map<string, number>();
for (const [i, f] of sequence.entries()) {
  if (i > 0) left.add(sequence[i - 1]);
  if (left.has(f)) {
    reentered++;
    perFile.set(f, (perFile.get(f) ?? 0) + 1);
  }
}
const folders = new Set([...entered].map((f) => dirname(relative(within, f))));
console.log(lines.join('\n'));
const most = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 3);
if (most.length)
  console.log(`most re-entered: ${most.map(([f, n]) => `${relative(within, f)} ${n}×`).join(', ')}`);
console.log(`files entered: ${entered.size} in ${folders.size} folders; re-entered: ${reentered}`);
