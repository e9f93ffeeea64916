/**
 * A local nats-server with JetStream, one node or a cluster on loopback (DESIGN §8; issues #12, #25),
 * installed from the OS packages when running as root and missing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { connect as netConnect } from 'node:net';
import { join } from 'node:path';
import { findOnPath, freePort, installedBy, isRoot, run, tail, waitFor } from './proc.js';

/**
 * The nats-server binary: `NATS_SERVER_BIN`, else PATH and the sbin folders, else (as root) installed
 * from the OS packages and located through the package. An ordinary user without it gets one line
 * saying what to install.
 */
function natsServerBinary(env: Record<string, string | undefined>, log: (l: string) => void): string {
  const found = env.NATS_SERVER_BIN || findOnPath('nats-server', env);
  if (found) return found;
  if (!isRoot())
    throw new Error(
      'nats-server is not installed: install it (Debian/Ubuntu: sudo apt-get install nats-server) or set NATS_URL',
    );
  log('installing nats-server from the OS packages');
  const aptEnv = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    run('apt-get', ['install', '-y', '-qq', 'nats-server'], { env: aptEnv });
  } catch {
    run('apt-get', ['update', '-qq'], { env: aptEnv });
    run('apt-get', ['install', '-y', '-qq', 'nats-server'], { env: aptEnv });
  }
  const installed = installedBy('nats-server', 'nats-server') ?? findOnPath('nats-server', env);
  if (!installed)
    throw new Error('nats-server was installed but its binary was not found (dpkg -L nats-server)');
  log(`installed ${installed}`);
  return installed;
}

/**
 * Starts nats-server with JetStream on a free loopback port (or `fixedPort`). Its output goes to
 * `<dataDir>/nats.log`; when it exits before accepting connections, the error carries that log.
 */
export async function startNats(
  dataDir: string,
  log: (l: string) => void = () => {},
  fixedPort?: number,
  env: Record<string, string | undefined> = process.env,
  /** nats-server configuration with the users and their permissions (issue #12). */
  authConf?: string,
  /** A node of a cluster (issue #25): its name, its route port and the route ports of the others. */
  node?: ClusterNode,
): Promise<RunningNats> {
  const bin = natsServerBinary(env, log);
  const port = fixedPort ?? (await freePort());
  const prefix = node ? node.name : 'nats';
  const store = join(dataDir, prefix);
  mkdirSync(store, { recursive: true });
  // A nats-server left running on this store by an earlier run that did not stop cleanly: end it.
  const pidFile = join(dataDir, `${prefix}.pid`);
  if (existsSync(pidFile)) {
    const old = Number(readFileSync(pidFile, 'utf8'));
    try {
      if (old > 0 && readFileSync(`/proc/${old}/cmdline`, 'utf8').includes('nats-server')) {
        process.kill(old, 'SIGTERM');
        log('stopped a nats-server left running by an earlier start');
        await new Promise((r) => setTimeout(r, 300));
      }
    } catch {
      /* already gone */
    }
  }
  const logFile = join(dataDir, `${prefix}.log`);
  const fd = openSync(logFile, 'a');
  let child: ChildProcess;
  try {
    const args = ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store];
    if (node)
      args.push(
        '-n',
        node.name,
        '--cluster_name',
        node.cluster,
        '--cluster',
        `nats://127.0.0.1:${node.routePort}`,
        '--routes',
        node.routes.map((p) => `nats://127.0.0.1:${p}`).join(','),
      );
    child = spawn(bin, authConf ? ['-c', authConf, ...args] : args, {
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  let spawnError: Error | undefined;
  child.once('error', (e) => (spawnError = e));
  writeFileSync(pidFile, String(child.pid ?? ''));
  const exited = new Promise<void>((r) => child.once('close', () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null && !spawnError) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
  };
  try {
    await waitFor(() => {
      if (spawnError || child.exitCode !== null || child.signalCode !== null)
        throw new Error(
          `nats-server (${bin}) ${spawnError ? `could not start: ${spawnError.message}` : `exited with ${child.exitCode ?? child.signalCode}`}` +
            `\nnats-server's log (${logFile}):\n${tail(logFile)}`,
        );
      return new Promise((resolve) => {
        const s = netConnect(port, '127.0.0.1');
        s.once('connect', () => {
          s.destroy();
          resolve(true);
        });
        s.once('error', () => resolve(false));
      });
    }, 'nats-server');
  } catch (e) {
    await stop();
    throw e;
  }
  return { url: `nats://127.0.0.1:${port}`, port, stop, pid: child.pid!, exited };
}

/** A nats-server started by {@link startNats}. */
export interface RunningNats {
  url: string;
  port: number;
  pid: number;
  stop: () => Promise<void>;
  /** Settles when the server process has exited (stopped, or killed from outside). */
  exited: Promise<void>;
}

/** What makes a nats-server a node of a cluster (routes on loopback). */
export interface ClusterNode {
  name: string;
  cluster: string;
  routePort: number;
  routes: number[];
}

/** A local NATS cluster (issue #25 "NATS cluster"): its nodes, and the client URL list of all of them. */
export interface NatsCluster {
  /** Every node's client URL, comma-separated (what NATS_URL takes). */
  url: string;
  nodes: RunningNats[];
  /** Starts node `i` again (after it was stopped or killed) on its ports and store. */
  restart(i: number): Promise<RunningNats>;
  stop(): Promise<void>;
}

/**
 * Starts `size` nats-server nodes with JetStream as one cluster `bm` on loopback (client and route ports
 * free ones; stores `<dataDir>/nats-node-<i>`); resolves once every node accepts clients. JetStream
 * elects its meta leader a few seconds later; until then creating a stream fails and its callers retry.
 */
export async function startNatsCluster(
  dataDir: string,
  size: number,
  log: (l: string) => void = () => {},
  env: Record<string, string | undefined> = process.env,
  authConf?: string,
  /** Start a node again, 1 s after it exits while the cluster runs (`pnpm start`); tests restart by hand. */
  keepAlive = false,
): Promise<NatsCluster> {
  const ports: number[] = [];
  const routePorts: number[] = [];
  for (let i = 0; i < size; i++) {
    ports.push(await freePort());
    routePorts.push(await freePort());
  }
  const nodeOf = (i: number): ClusterNode => ({
    name: `nats-node-${i + 1}`,
    cluster: 'bm',
    routePort: routePorts[i],
    routes: routePorts.filter((_, j) => j !== i),
  });
  const nodes: RunningNats[] = [];
  let stopping = false;
  const stop = async () => {
    stopping = true;
    await Promise.all(nodes.map((n) => n.stop()));
  };
  const start = async (i: number): Promise<RunningNats> => {
    const node = await startNats(dataDir, log, ports[i], env, authConf, nodeOf(i));
    nodes[i] = node;
    if (keepAlive)
      void node.exited.then(async () => {
        if (stopping || nodes[i] !== node) return;
        log(`nats-node-${i + 1} exited; starting it again in 1 s`);
        await new Promise((r) => setTimeout(r, 1000));
        for (let attempt = 0; !stopping && nodes[i] === node; attempt++) {
          try {
            await start(i);
            log(`nats-node-${i + 1} started again and rejoins the cluster`);
          } catch (e) {
            log(`nats-node-${i + 1} did not start (${(e as Error).message.split('\n')[0]}); retrying`);
            await new Promise((r) => setTimeout(r, Math.min(1000 * 2 ** attempt, 30_000)));
          }
        }
      });
    return node;
  };
  try {
    for (let i = 0; i < size; i++) await start(i);
  } catch (e) {
    await stop();
    throw e;
  }
  return {
    url: nodes.map((n) => n.url).join(','),
    nodes,
    restart: start,
    stop,
  };
}
