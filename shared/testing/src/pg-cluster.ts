/**
 * A local three-node PostgreSQL cluster with automatic failover (issue #46; docs/operations.md "PostgreSQL
 * cluster"): `PG_CLUSTER=3 pnpm start` and the failover tests. Three etcd members hold Patroni's leader
 * key; one Patroni per node runs its PostgreSQL (as `postgres` when root) in synchronous mode; HAProxy is
 * the stable address, forwarding to the node whose Patroni says it is the primary. Each server is
 * supervised ({@link Supervised}): a Patroni that exits is started again only after its leader key has
 * expired (`ttl + loop_wait`), so a node that just died does not take the primary back; it rejoins as a
 * standby (pg_rewind). The OS packages (`patroni`, `etcd-server`, `haproxy`) are installed as root when
 * missing. Ports are chosen once and kept in `<dataDir>/pg-cluster.json`.
 */
import { chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  type ClusterPorts,
  etcdArgs,
  FAILOVER_TIMING,
  haproxyConfig,
  memberName,
  patroniConfig,
} from './pg-cluster-config.js';
import { clusterPorts, postgresUser, rest, secret } from './pg-cluster-host.js';
import { postgresBase, systemPostgresBin } from './postgres.js';
import { ensureOsBinary, isRoot, waitFor } from './proc.js';
import { writeSecret } from './secret-file.js';
import { endLeftover, Supervised } from './supervised.js';

export { BARMAN_SLOT, FAILOVER_TIMING, memberName } from './pg-cluster-config.js';

/** A member as Patroni's `GET /cluster` reports it. */
export interface ClusterMember {
  name: string;
  role: 'leader' | 'sync_standby' | 'replica' | string;
  state: string;
  timeline?: number;
  /** Replication lag behind the leader, bytes (`unknown` while it cannot tell). */
  lag?: number | string;
}

export interface PgCluster {
  /** The superuser URL of the stable address (HAProxy → the primary). */
  url: string;
  ports: ClusterPorts;
  size: number;
  /** The members as Patroni reports them (asked of each node's REST API until one answers). */
  members(): Promise<ClusterMember[]>;
  /** The index of the node that is the primary, or undefined while there is none. */
  primary(): Promise<number | undefined>;
  /** The postmaster's pid of node `i` (from its `postmaster.pid`), or undefined. */
  postmasterPid(i: number): number | undefined;
  /** Sends SIGKILL to node `i`'s Patroni; the supervisor starts it again after `ttl + loop_wait`. */
  killPatroni(i: number): void;
  /** A planned switchover to `candidate` (default: the synchronous standby), through Patroni's REST API. */
  switchover(candidate?: number): Promise<void>;
  /** Prometheus targets: each Patroni's `/metrics` and HAProxy's. */
  metricsTargets(): { job: string; instance: string; target: string }[];
  stop(): Promise<void>;
}

/**
 * Starts (or restarts, on its kept data) a cluster of `size` nodes; resolves once the stable address
 * takes writes and a synchronous standby streams. @throws Error naming what is missing or did not come up
 */
export async function startPgCluster(o: {
  dataDir: string;
  size?: number;
  durable: boolean;
  log?: (l: string) => void;
}): Promise<PgCluster> {
  const log = o.log ?? (() => {});
  const size = o.size ?? 3;
  const binDir = systemPostgresBin();
  if (!binDir) throw new Error('PG_CLUSTER needs the system PostgreSQL (apt-get install postgresql)');
  const hint = 'or run without PG_CLUSTER';
  const bins = {
    patroni: ensureOsBinary('patroni', 'patroni', log, hint),
    etcd: ensureOsBinary('etcd-server', 'etcd', log, hint),
    haproxy: ensureOsBinary('haproxy', 'haproxy', log, hint),
  };
  mkdirSync(o.dataDir, { recursive: true });
  const { ports } = await clusterPorts(join(o.dataDir, 'pg-cluster.json'), size);
  const base = postgresBase(o.dataDir, log);
  const pgUser = isRoot() ? postgresUser() : undefined;
  const own = (path: string) => pgUser && chownSync(path, pgUser.uid, pgUser.gid);
  const superuserPassword = secret(join(o.dataDir, 'postgres-password'));
  const replicationPassword = secret(join(o.dataDir, 'replication-password'));
  const logs = join(o.dataDir, 'cluster-logs');
  mkdirSync(logs, { recursive: true });
  const all: Supervised[] = [];
  const run = join(o.dataDir, 'cluster-run');
  mkdirSync(run, { recursive: true });
  const pidFileOf = (name: string) => join(run, `${name.replace(/\W+/g, '-')}.pid`);
  /** Starts a server under supervision, after ending one an earlier run left running. */
  const supervise = async (s: Supervised, match: string) => {
    if (await endLeftover(pidFileOf(s.name), match))
      log(`stopped a ${s.name} left running by an earlier start`);
    all.push(s);
    s.start();
    return s;
  };
  const stop = async () => {
    // HAProxy first (no new sessions), then Patroni (each stops its PostgreSQL), then etcd.
    for (const group of [all.filter((s) => s.name.startsWith('haproxy')), patronis, etcds])
      await Promise.all(group.map((s) => s.stop()));
  };

  const etcds: Supervised[] = [];
  for (let i = 0; i < size; i++) {
    const dir = join(o.dataDir, `etcd-${i + 1}`);
    const fresh = !existsSync(join(dir, 'member'));
    etcds.push(
      await supervise(
        new Supervised({
          name: `etcd-${i + 1}`,
          cmd: bins.etcd,
          args: etcdArgs(ports, i, dir, fresh),
          logFile: join(logs, `etcd-${i + 1}.log`),
          pidFile: pidFileOf(`etcd-${i + 1}`),
          restartDelayMs: 1000,
          log,
        }),
        dir,
      ),
    );
  }
  const patronis: Supervised[] = [];
  try {
    await waitFor(
      async () =>
        (
          await Promise.all(
            ports.etcdClient.map((p) =>
              fetch(`http://127.0.0.1:${p}/health`, { signal: AbortSignal.timeout(1000) }).then(
                async (r) => ((await r.json()) as { health?: string }).health === 'true',
                () => false,
              ),
            ),
          )
        ).every(Boolean),
      'etcd (three members)',
      60_000,
    );
    for (let i = 0; i < size; i++) {
      const dataDir = join(base, `pg-node-${i + 1}`);
      const conf = join(base, `patroni-${i + 1}.json`);
      writeSecret(
        conf,
        patroniConfig(ports, {
          index: i,
          dataDir,
          binDir,
          pgpass: join(base, `pgpass-${i + 1}`),
          superuserPassword,
          replicationPassword,
          durable: o.durable,
        }),
      );
      own(conf);
      const logFile = join(logs, `${memberName(i)}.log`);
      writeFileSync(logFile, '', { flag: 'a' });
      own(logFile);
      patronis.push(
        await supervise(
          new Supervised({
            name: `patroni ${memberName(i)}`,
            cmd: bins.patroni,
            args: [conf],
            logFile,
            env: {
              ...process.env,
              HOME: pgUser?.home ?? process.env.HOME,
              PGPASSFILE: join(base, `pgpass-${i + 1}`),
            },
            uid: pgUser?.uid,
            gid: pgUser?.gid,
            cwd: base,
            // The leader key of a Patroni that died expires after ttl: only then may it run again, so a
            // node that just died rejoins as a standby instead of taking the primary back (issue #46).
            restartDelayMs: (FAILOVER_TIMING.ttl + FAILOVER_TIMING.loopWait) * 1000,
            graceMs: 30_000,
            pidFile: pidFileOf(`patroni ${memberName(i)}`),
            log,
          }),
          conf,
        ),
      );
    }
    const haproxyConf = join(o.dataDir, 'haproxy.cfg');
    writeFileSync(haproxyConf, haproxyConfig(ports));
    await supervise(
      new Supervised({
        name: 'haproxy',
        cmd: bins.haproxy,
        args: ['-f', haproxyConf, '-db'],
        logFile: join(logs, 'haproxy.log'),
        pidFile: pidFileOf('haproxy'),
        restartDelayMs: 500,
        log,
      }),
      haproxyConf,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  const url = `postgresql://postgres:${encodeURIComponent(superuserPassword)}@127.0.0.1:${ports.primary}/postgres`;
  const members = async (): Promise<ClusterMember[]> => {
    for (let i = 0; i < size; i++) {
      const c = await rest<{ members?: ClusterMember[] }>(ports, i, '/cluster');
      if (c?.members) return c.members;
    }
    return [];
  };
  const primary = async () => {
    const leader = (await members()).find((m) => m.role === 'leader' && m.state === 'running');
    return leader ? Number(leader.name.slice(3)) - 1 : undefined;
  };
  try {
    // Writable through the stable address, with a synchronous standby (so the first commit already waits for it).
    await waitFor(
      async () => {
        const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
        c.on('error', () => {});
        try {
          await c.connect();
          const { rows } = await c.query<{ ro: boolean; sync: number }>(
            "select pg_is_in_recovery() as ro, (select count(*)::int from pg_stat_replication where sync_state = 'sync') as sync",
          );
          return !rows[0].ro && rows[0].sync > 0;
        } finally {
          await c.end().catch(() => {});
        }
      },
      `the PostgreSQL cluster's primary with a synchronous standby (logs in ${logs})`,
      180_000,
    );
  } catch (e) {
    await stop();
    throw e;
  }
  log(
    `PostgreSQL cluster: ${size} nodes under Patroni, primary ${memberName((await primary()) ?? 0)}, stable address 127.0.0.1:${ports.primary}`,
  );
  return {
    url,
    ports,
    size,
    members,
    primary,
    postmasterPid: (i) => {
      try {
        return Number(readFileSync(join(base, `pg-node-${i + 1}`, 'postmaster.pid'), 'utf8').split('\n')[0]);
      } catch {
        return undefined;
      }
    },
    killPatroni: (i) => void patronis[i].kill('SIGKILL'),
    switchover: async (candidate) => {
      const list = await members();
      const leader = list.find((m) => m.role === 'leader');
      const target =
        candidate !== undefined ? memberName(candidate) : list.find((m) => m.role === 'sync_standby')?.name;
      if (!leader || !target)
        throw new Error(`no leader or candidate for a switchover: ${JSON.stringify(list)}`);
      const r = await fetch(`http://127.0.0.1:${ports.rest[Number(leader.name.slice(3)) - 1]}/switchover`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ leader: leader.name, candidate: target }),
      });
      if (!r.ok) throw new Error(`switchover refused: ${r.status} ${await r.text()}`);
    },
    metricsTargets: () => [
      ...ports.rest.map((p, i) => ({ job: 'patroni', instance: memberName(i), target: `127.0.0.1:${p}` })),
      { job: 'haproxy', instance: 'haproxy', target: `127.0.0.1:${ports.haproxyMetrics}` },
    ],
    stop,
  };
}
