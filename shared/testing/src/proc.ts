/**
 * Process helpers of the local servers (DESIGN §8): a free port, waiting for a condition, a log's tail,
 * running a command with its own error output, and finding an executable.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

/** Whether this process runs as root (it may then install packages and run PostgreSQL as `postgres`). */
export const isRoot = () => process.getuid?.() === 0;

/** Binds `port` on loopback and lets it go; resolves to the port bound (0: any), or null when taken. */
function tryBind(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const s = createServer();
    s.unref();
    s.on('error', () => resolve(null));
    s.listen(port, '127.0.0.1', () => {
      const bound = (s.address() as { port: number }).port;
      s.close(() => resolve(bound));
    });
  });
}

/** The first port of the kernel's ephemeral range (the local ports of outgoing connections). */
function ephemeralStart(): number {
  try {
    const lo = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(lo) && lo > 12_000 ? lo : 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * A free TCP port on loopback, for a server started a moment later. Taken below the kernel's ephemeral
 * range where it can: a port of that range that is free now may become the local port of any outgoing
 * connection (a busy test suite opens thousands) before the server binds it (issue #43: a service's
 * metrics port was lost that way and every restart retried it). Falls back to a port the kernel picks.
 */
export async function freePort(): Promise<number> {
  const top = ephemeralStart();
  for (let i = 0; i < 40; i++) {
    const candidate = 10_000 + Math.floor(Math.random() * (top - 10_000));
    const bound = await tryBind(candidate);
    if (bound) return bound;
  }
  const any = await tryBind(0);
  if (!any) throw new Error('no free TCP port on 127.0.0.1');
  return any;
}

/** Polls `check` every 100 ms until it holds; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  check: () => Promise<boolean>,
  what: string,
  timeoutMs = 30_000,
): Promise<void> {
  const t0 = Date.now();
  while (Date.now() - t0 < timeoutMs) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not come up within ${timeoutMs} ms`);
}

/** The last `lines` lines of a log file, or '' when it cannot be read. */
export function tail(file: string, lines = 25): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/**
 * Runs a command and returns its stdout; on failure throws an Error that carries the command's own
 * stderr and stdout, so the user sees the reason (not `stdout: null, stderr: null`).
 */
export function run(cmd: string, args: string[], opts: { env?: NodeJS.ProcessEnv } = {}): string {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: opts.env });
  } catch (e) {
    const err = e as { status?: number; stderr?: string; stdout?: string; message: string };
    const output = [err.stderr, err.stdout]
      .map((s) => s?.trim())
      .filter(Boolean)
      .join('\n');
    throw new Error(
      `${[cmd, ...args].join(' ')} failed (exit ${err.status ?? '?'})${output ? `:\n${output}` : `: ${err.message}`}`,
    );
  }
}

const SBIN = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** An executable file named `name` on PATH or in the sbin folders (root's PATH has them, a user's may not). */
export function findOnPath(name: string, env: Record<string, string | undefined>): string | undefined {
  const dirs = [...(env.PATH ?? '').split(delimiter).filter(Boolean), ...SBIN];
  for (const d of dirs) {
    const p = join(d, name);
    try {
      if (statSync(p).isFile() && (statSync(p).mode & 0o111) !== 0) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** Where the Debian package `pkg` installed the executable `name`, asked of the package (`dpkg -L`). */
export function installedBy(pkg: string, name: string): string | undefined {
  try {
    return (
      run('dpkg', ['-L', pkg])
        .split('\n')
        .map((l) => l.trim())
        // In a bin folder: a package's init script has the same name (etcd-server ships /etc/init.d/etcd).
        .find(
          (p) =>
            p.endsWith(`/${name}`) &&
            /\/s?bin\//.test(p) &&
            statSync(p).isFile() &&
            (statSync(p).mode & 0o111) !== 0,
        )
    );
  } catch {
    return undefined;
  }
}

/**
 * The executable `name` of the Debian package `pkg`: on PATH or the sbin folders, else (as root) installed
 * from the OS packages; an ordinary user without it gets an Error saying what to install (`hint`: or what
 * to set instead).
 */
export function ensureOsBinary(pkg: string, name: string, log: (l: string) => void, hint: string): string {
  const found = findOnPath(name, process.env);
  if (found) return found;
  if (!isRoot())
    throw new Error(
      `${name} is not installed: install it (Debian/Ubuntu: sudo apt-get install ${pkg}) ${hint}`,
    );
  log(`installing ${pkg} from the OS packages`);
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    run('apt-get', ['install', '-y', '-qq', pkg], { env: aptEnv });
  } catch {
    run('apt-get', ['update', '-qq'], { env: aptEnv });
    run('apt-get', ['install', '-y', '-qq', pkg], { env: aptEnv });
  }
  const installed = findOnPath(name, process.env) ?? installedBy(pkg, name);
  if (!installed) throw new Error(`${pkg} was installed but ${name} was not found (dpkg -L ${pkg})`);
  return installed;
}
