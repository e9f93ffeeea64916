/**
 * A supervised server process of the local stack (issue #46): started with its output in a log file,
 * started again after it exits (a restart delay of its own), stopped with SIGTERM and, after a grace
 * period, SIGKILL. What `systemd`'s `Restart=always` does for these servers on a real machine.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';

export interface SupervisedOptions {
  name: string;
  cmd: string;
  args: string[];
  logFile: string;
  /** Where the running instance's pid is kept, for {@link endLeftover} after a run that did not stop cleanly. */
  pidFile?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Its working directory: one the user it runs as can enter (PostgreSQL's tools, run by Patroni as
   * `postgres`, fail in a clone under `/root`, mode 700, the caller's own working directory).
   */
  cwd?: string;
  /** Run as this user (root only: PostgreSQL and Patroni run as `postgres`). */
  uid?: number;
  gid?: number;
  /** How long to wait before starting it again after it exited, ms. */
  restartDelayMs: number;
  log: (line: string) => void;
  /** How long SIGTERM gets before SIGKILL on stop, ms (default 10 s). */
  graceMs?: number;
}

/** One supervised process; `pid` is the running instance's (undefined between an exit and its restart). */
export class Supervised {
  private child: ChildProcess | undefined;
  private stopped = false;
  private restartTimer: NodeJS.Timeout | undefined;
  /** Instances started so far (1 after the first start). */
  starts = 0;

  constructor(private readonly o: SupervisedOptions) {}

  get name(): string {
    return this.o.name;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Starts it (again). */
  start(): void {
    const fd = openSync(this.o.logFile, 'a');
    let child: ChildProcess;
    try {
      child = spawn(this.o.cmd, this.o.args, {
        stdio: ['ignore', fd, fd],
        env: this.o.env ?? process.env,
        cwd: this.o.cwd,
        uid: this.o.uid,
        gid: this.o.gid,
      });
    } finally {
      closeSync(fd);
    }
    this.starts++;
    this.child = child;
    if (this.o.pidFile && child.pid) writeFileSync(this.o.pidFile, String(child.pid));
    child.once('error', (e) => this.o.log(`${this.o.name} could not start: ${e.message}`));
    child.once('exit', (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      if (this.stopped) return;
      const delay = this.o.restartDelayMs;
      this.o.log(`${this.o.name} exited (${code ?? signal}); starting it again in ${delay / 1000} s`);
      this.restartTimer = setTimeout(() => {
        if (!this.stopped) this.start();
      }, delay);
    });
  }

  /** Sends `signal` to the running instance (a test's SIGKILL); it is restarted after its delay. */
  kill(signal: NodeJS.Signals): boolean {
    return !!this.child?.pid && this.child.kill(signal);
  }

  /** Stops it for good: SIGTERM, SIGKILL after the grace period. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const late = await Promise.race([
      exited.then(() => false),
      new Promise((r) => setTimeout(() => r(true), this.o.graceMs ?? 10_000)),
    ]);
    if (late) {
      child.kill('SIGKILL');
      await exited;
    }
  }
}

/**
 * Ends a server an earlier run left running (it did not stop cleanly) whose pid is in `pidFile` and whose
 * command line contains `match`: SIGTERM, then SIGKILL after `graceMs`. Nothing to do when it is gone.
 */
export async function endLeftover(pidFile: string, match: string, graceMs = 30_000): Promise<boolean> {
  let pid: number;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
    if (!(pid > 0) || !readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(match)) return false;
  } catch {
    return false;
  }
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  process.kill(pid, 'SIGTERM');
  for (let t = 0; t < graceMs && alive(); t += 100) await new Promise((r) => setTimeout(r, 100));
  if (alive()) process.kill(pid, 'SIGKILL');
  return true;
}
