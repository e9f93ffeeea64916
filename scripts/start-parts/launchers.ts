/**
 * `pnpm start` watches the processes that launched it (issue #25): SIGTERM to `pnpm start` ends pnpm but is
 * not passed down to this script, which would run on, orphaned, with its PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { alive } from '../ops/local-paths.js';

/**
 * The processes that launched this script, from its parent up to the package manager (`pnpm start`:
 * pnpm, `sh -c`, the `node` wrapper, tsx's CLI); Linux only (`/proc`), empty elsewhere. SIGTERM to
 * `pnpm start` ends pnpm but is not passed down that chain, so this script watches it and stops the
 * stack when any of them is gone, instead of running on, orphaned, with its PostgreSQL (issue #25).
 */
function launchers(): number[] {
  const chain: number[] = [];
  let pid = process.ppid;
  for (let depth = 0; depth < 8 && pid > 1; depth++) {
    let cmd: string;
    let parent: number;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      // `pid (comm) state ppid …`: the command may contain spaces and parentheses.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      break;
    }
    chain.push(pid);
    if (/(^|[/\s])(pnpm|npm)(\.c?js)?(\s|$)/.test(cmd)) return chain;
    pid = parent;
  }
  // Not started by a package manager: only tsx's own CLI, when it is the parent.
  return chain.slice(0, 1).filter((p) => {
    try {
      return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('tsx');
    } catch {
      return false;
    }
  });
}
/** Calls `onGone` with the pid of a launcher that has gone (checked every 500 ms, not keeping node alive). */
export function watchLaunchers(onGone: (pid: number) => void): void {
  const launcherPids = launchers();
  setInterval(() => {
    const gone = launcherPids.find((pid) => !alive(pid));
    if (gone !== undefined) onGone(gone);
  }, 500).unref();
}
