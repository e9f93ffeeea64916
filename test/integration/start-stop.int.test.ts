/**
 * Stopping `pnpm start` is as reliable as starting it (issue #25, "Stopping is as reliable as starting"):
 * pnpm killed (the script is then orphaned: it watches the processes that launched it), SIGTERM twice in
 * a row to the script, and SIGINT to the process group during start-up each end every process the stack
 * started, the local PostgreSQL and nats-server included. Checked from outside: no process of the stack is
 * left, and nothing answers on the PostgreSQL and NATS ports it used. The tests wait for that condition
 * (issue #35: no fixed window; the script's own promise is "about 10 s", 5 s of grace then SIGKILL, and
 * the time it took is printed, with whether the grace was overrun).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@bm/testing/infra';
import { afterAll, describe, expect, it } from 'vitest';
import { removeStackFolder } from '../support/stack-folder.js';

const root = join(import.meta.dirname, '..', '..');

/** `pnpm start` as a user runs it (through pnpm), with its own data directory and port. */
async function pnpmStart(local: string): Promise<{ child: ChildProcess; output: () => string }> {
  const port = await freePort();
  const env: Record<string, string | undefined> = { ...process.env };
  for (const k of ['DATABASE_URL', 'HOST', 'NATS_URL', 'NATS_CREDENTIALS_FILE']) delete env[k];
  const pnpm = process.env.npm_execpath;
  const [cmd, args] = pnpm ? [process.execPath, [pnpm, 'start']] : ['pnpm', ['start']];
  const child = spawn(cmd, args as string[], {
    cwd: root,
    env: { ...env, PORT: String(port), LOCAL_DIR: local, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

/** Every descendant of `pid` (Linux `/proc`). */
function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      /* gone */
    }
  }
  const all: number[] = [];
  const walk = (p: number) => {
    for (const c of children.get(p) ?? []) {
      all.push(c);
      walk(c);
    }
  };
  walk(pid);
  return all;
}

const alive = (pid: number) =>
  existsSync(`/proc/${pid}`) && !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = createConnection({ host: '127.0.0.1', port }, () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

async function waitFor(
  what: string,
  cond: () => boolean | Promise<boolean>,
  ms: number,
  left: () => string = () => '',
): Promise<number> {
  const t0 = Date.now();
  while (!(await cond())) {
    if (Date.now() - t0 > ms) throw new Error(`${what}: not within ${ms} ms ${left()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - t0;
}

/** How long the stop may take before the test gives up: far above the script's promise, only against a hang. */
const STOP_BOUND_MS = 120_000;

/** What the stop took, with whether the processes outlived the grace (the script says so when it kills them). */
const stopReport = (what: string, ms: number, output: string) =>
  console.log(
    `${what}: everything stopped in ${ms} ms${output.includes('still running after') ? ' (the grace was overrun: processes were killed)' : ''}`,
  );

/** The ports of the local PostgreSQL and nats-server of a started stack (from its data directory and output). */
function serverPorts(local: string, out: string): number[] {
  const pg = Number(new URL(readFileSync(join(local, 'data', 'db-gateway.url'), 'utf8').trim()).port);
  const nats = Number(new URL(/NATS_URL='([^']+)'/.exec(out)![1]).port);
  return [pg, nats];
}

/** The process running `scripts/start.ts` itself (not tsx's CLI) among `pids`. */
const scriptOf = (pids: number[]) =>
  pids.find((p) => {
    try {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
      return cmd.includes('scripts/start.ts') && cmd.includes('loader');
    } catch {
      return false;
    }
  })!;

const started: number[][] = [];
/** The stacks' local folders (their PostgreSQL and NATS data): removed at the end. */
const locals: string[] = [];
const localFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'bm-stop-'));
  locals.push(dir);
  return dir;
};
afterAll(async () => {
  // A failed test must not leave a stack running: the script first (it stops its servers), then the rest.
  for (const pids of started) {
    const script = pids.length ? scriptOf(pids) : undefined;
    if (script && alive(script)) process.kill(script, 'SIGINT');
  }
  await new Promise((r) => setTimeout(r, 3000));
  for (const p of started.flat())
    if (alive(p))
      try {
        process.kill(p, 'SIGKILL');
      } catch {
        /* gone */
      }
  for (const dir of locals) removeStackFolder(dir);
});

/** Starts the stack through pnpm and waits until it is up; returns the processes and the server ports. */
async function upAndRunning() {
  const local = localFolder();
  const { child, output } = await pnpmStart(local);
  const running = () =>
    descendants(child.pid!)
      .filter(alive)
      .map((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 100))
      .join(' | ');
  await waitFor(
    'the stack is up',
    () => output().includes('Ctrl-C stops everything') || child.exitCode !== null,
    90_000,
    () => `(running: ${running()}; output: ${output().slice(-1500)})`,
  );
  // Issue #43: when it did not come up, say what ran and what it printed (a port, a crash, a restart loop).
  if (!output().includes('Stack is up'))
    throw new Error(
      `pnpm start ended (${child.exitCode}) without the stack up; running: ${running()}; output: ${output().slice(-3000)}`,
    );
  const pids = descendants(child.pid!);
  started.push([child.pid!, ...pids]);
  const ports = serverPorts(local, output());
  expect(await Promise.all(ports.map(listening))).toEqual([true, true]);
  const allGone = async () =>
    [child.pid!, ...pids].every((p) => !alive(p)) &&
    !(await listening(ports[0])) &&
    !(await listening(ports[1]));
  const left = () =>
    `(left: ${pids
      .filter(alive)
      .map((p) => readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ').slice(0, 100))
      .join(' | ')}; output: ${output().slice(-400)})`;
  return { child, pids, allGone, left, output };
}

describe('stopping pnpm start', () => {
  it('pnpm killed (the launcher gone): every process and both servers stop', {
    timeout: 300_000,
  }, async () => {
    const { child, pids, allGone, left, output } = await upAndRunning();
    // pnpm, sh, the node wrapper, tsx, the script, nats-server and 5 processes.
    expect(pids.length).toBeGreaterThanOrEqual(10);
    // pnpm itself (`pnpm` on the PATH may be a shell wrapper around it).
    const pnpm = [child.pid!, ...pids].find((p) => {
      const cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8');
      return cmd.split('\0')[0].endsWith('node') && /(^|\/)pnpm(\.c?js)?\0start/.test(cmd);
    })!;
    expect(pnpm).toBeDefined();
    process.kill(pnpm, 'SIGKILL');
    const ms = await waitFor('every process of the stack has exited', allGone, STOP_BOUND_MS, left);
    stopReport('pnpm killed', ms, output());
  });

  it('SIGTERM twice in a row to the script: every process and both servers stop', {
    timeout: 300_000,
  }, async () => {
    const { pids, allGone, left, output } = await upAndRunning();
    const script = scriptOf(pids);
    process.kill(script, 'SIGTERM');
    setTimeout(() => alive(script) && process.kill(script, 'SIGTERM'), 100);
    const ms = await waitFor('every process of the stack has exited', allGone, STOP_BOUND_MS, left);
    stopReport('SIGTERM twice', ms, output());
  });

  it('SIGINT during start-up stops what was started', { timeout: 300_000 }, async () => {
    const local = localFolder();
    const { child, output } = await pnpmStart(local);
    // Once the servers run and the processes are being started.
    await waitFor(
      'start-up under way',
      () => output().includes('Waiting for the gateway') || child.exitCode !== null,
      60_000,
    );
    const pids = descendants(child.pid!);
    started.push([child.pid!, ...pids]);
    const pgPort = Number(new URL(readFileSync(join(local, 'data', 'db-gateway.url'), 'utf8').trim()).port);
    // Ctrl-C: the terminal signals the whole process group.
    for (const p of [child.pid!, ...pids]) {
      try {
        process.kill(p, 'SIGINT');
      } catch {
        /* gone */
      }
    }
    const ms = await waitFor(
      'every process of the stack has exited',
      async () => [child.pid!, ...pids].every((p) => !alive(p)) && !(await listening(pgPort)),
      STOP_BOUND_MS,
    );
    stopReport('SIGINT during start-up', ms, output());
  });
});
