/**
 * The configuration of a local PostgreSQL cluster (issue #46; docs/operations.md "PostgreSQL cluster"):
 * three etcd members (Patroni's distributed configuration store), one Patroni per PostgreSQL node with
 * synchronous replication, and HAProxy in front as the one stable address, routing to the node whose
 * Patroni REST API answers `GET /primary` 200. Pure: ports and paths in, command lines and files out.
 */

/** Every port of a cluster, chosen once and kept in `<dataDir>/pg-cluster.json` (etcd remembers its peers). */
export interface ClusterPorts {
  etcdClient: number[];
  etcdPeer: number[];
  postgres: number[];
  /** Patroni's REST API of each node (health checks, `/metrics`, switchover). */
  rest: number[];
  /** HAProxy: the primary's stable address. */
  primary: number;
  /** HAProxy's own Prometheus exporter (`/metrics`). */
  haproxyMetrics: number;
}

/**
 * Failure detection (Patroni's `ttl`, `loop_wait`, `retry_timeout`, seconds; Patroni requires
 * `loop_wait + 2 × retry_timeout ≤ ttl`). The leader key of a node whose Patroni died expires after `ttl`,
 * then the synchronous standby takes over: the bound of a failover is about `ttl + loop_wait` (issue #46).
 */
export const FAILOVER_TIMING = { ttl: 10, loopWait: 1, retryTimeout: 4 } as const;

/** The Patroni scope (cluster name) and the permanent replication slot Barman's WAL receiver streams from. */
export const SCOPE = 'bm';
export const BARMAN_SLOT = 'barman';

/** The command-line arguments of etcd member `i` (0-based) of a loopback cluster. */
export function etcdArgs(p: ClusterPorts, i: number, dataDir: string, fresh: boolean): string[] {
  const name = (j: number) => `etcd-${j + 1}`;
  return [
    '--name',
    name(i),
    '--data-dir',
    dataDir,
    '--listen-client-urls',
    `http://127.0.0.1:${p.etcdClient[i]}`,
    '--advertise-client-urls',
    `http://127.0.0.1:${p.etcdClient[i]}`,
    '--listen-peer-urls',
    `http://127.0.0.1:${p.etcdPeer[i]}`,
    '--initial-advertise-peer-urls',
    `http://127.0.0.1:${p.etcdPeer[i]}`,
    '--initial-cluster',
    p.etcdPeer.map((port, j) => `${name(j)}=http://127.0.0.1:${port}`).join(','),
    '--initial-cluster-token',
    `${SCOPE}-etcd`,
    '--initial-cluster-state',
    fresh ? 'new' : 'existing',
    // On a busy two-core machine the defaults (100 ms / 1 s) flap; a leader election still takes ~2 s.
    '--heartbeat-interval',
    '200',
    '--election-timeout',
    '2000',
    '--logger',
    'zap',
    '--log-level',
    'warn',
  ];
}

export interface PatroniNode {
  index: number;
  dataDir: string;
  binDir: string;
  /** Where Patroni writes the pgpass file it uses for replication (one per node, not `~/.pgpass`). */
  pgpass: string;
  superuserPassword: string;
  replicationPassword: string;
  /** Keep PostgreSQL's crash-safety defaults (pnpm start); throw-away test clusters turn fsync off. */
  durable: boolean;
}

/** The name of node `i` (0-based): `pg-1`, `pg-2`, … (Patroni member names). */
export const memberName = (i: number) => `pg-${i + 1}`;

/**
 * Patroni's configuration of one node (JSON, which is YAML). Synchronous mode: a commit is acknowledged
 * only once the synchronous standby (a PostgreSQL node, never Barman's receiver) has flushed it, and only
 * that standby may be promoted, so no acknowledged commit is lost in a failover (RPO 0). `pg_rewind` turns
 * a failed primary into a standby of the new one; Barman's slot is permanent so Patroni keeps it and
 * creates it on every new primary.
 */
export function patroniConfig(p: ClusterPorts, n: PatroniNode): string {
  const t = FAILOVER_TIMING;
  const parameters: Record<string, string | number> = {
    max_connections: 400,
    wal_level: 'replica',
    hot_standby: 'on',
    // pg_rewind needs hint bits in the WAL (or data checksums).
    wal_log_hints: 'on',
    max_wal_senders: 10,
    max_replication_slots: 10,
    // A standby that falls behind (or Barman after a failover) still finds the WAL it needs.
    wal_keep_size: '1GB',
    // A standby retries for WAL every 5 s by default, and checks for a promotion only between tries: the
    // promoted node and the standby that must follow it (the new synchronous one) each lost up to 5 s.
    wal_retrieve_retry_interval: '250ms',
    ...(n.durable ? {} : { fsync: 'off', full_page_writes: 'off' }),
  };
  const config = {
    scope: SCOPE,
    namespace: '/service/',
    name: memberName(n.index),
    restapi: {
      listen: `127.0.0.1:${p.rest[n.index]}`,
      connect_address: `127.0.0.1:${p.rest[n.index]}`,
    },
    etcd3: { hosts: p.etcdClient.map((port) => `127.0.0.1:${port}`) },
    bootstrap: {
      dcs: {
        ttl: t.ttl,
        loop_wait: t.loopWait,
        retry_timeout: t.retryTimeout,
        maximum_lag_on_failover: 1024 * 1024,
        synchronous_mode: true,
        // Strict: with no standby streaming, commits wait rather than be acknowledged on the primary alone.
        synchronous_mode_strict: true,
        synchronous_node_count: 1,
        // Only a standby on the primary's timeline may be promoted.
        check_timeline: true,
        postgresql: { use_pg_rewind: true, use_slots: true, parameters },
        slots: { [BARMAN_SLOT]: { type: 'physical' } },
      },
      initdb: [{ encoding: 'UTF8' }, { locale: 'C.UTF-8' }, { auth: 'scram-sha-256' }],
    },
    postgresql: {
      listen: `127.0.0.1:${p.postgres[n.index]}`,
      connect_address: `127.0.0.1:${p.postgres[n.index]}`,
      data_dir: n.dataDir,
      bin_dir: n.binDir,
      pgpass: n.pgpass,
      authentication: {
        superuser: { username: 'postgres', password: n.superuserPassword },
        replication: { username: 'replicator', password: n.replicationPassword },
        rewind: { username: 'postgres', password: n.superuserPassword },
      },
      // TCP on loopback only; no Unix socket (its path length and folder rights are a trap in deep clones).
      parameters: { unix_socket_directories: '' },
      pg_hba: [
        'host all all 127.0.0.1/32 scram-sha-256',
        'host replication replicator 127.0.0.1/32 scram-sha-256',
        'host replication postgres 127.0.0.1/32 scram-sha-256',
      ],
      remove_data_directory_on_rewind_failure: true,
      remove_data_directory_on_diverged_timelines: true,
    },
    tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false },
    log: { level: 'INFO' },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/**
 * HAProxy's configuration: the stable address forwards to the one node whose Patroni answers
 * `GET /primary` 200, checked every 500 ms; a node marked down has its sessions cut
 * (`on-marked-down shutdown-sessions`), so the services' pools drop connections to a demoted or dead
 * primary at once instead of writing into a standby or waiting on a dead socket.
 */
export function haproxyConfig(p: ClusterPorts): string {
  const servers = p.postgres
    .map((port, i) => `  server ${memberName(i)} 127.0.0.1:${port} check port ${p.rest[i]}`)
    .join('\n');
  return `# written by shared/testing/src/pg-cluster.ts on every start (issue #46)
global
  maxconn 4000

defaults
  mode tcp
  # A node that refuses the connection (its PostgreSQL stopped while its check still passed, as in a
  # switchover's demote) is retried on another node at once, not three times on the same one, 1 s apart.
  retries 3
  option redispatch 1
  timeout connect 1s
  timeout client 1h
  timeout server 1h
  timeout check 1s

listen primary
  bind 127.0.0.1:${p.primary}
  option httpchk
  http-check send meth GET uri /primary
  http-check expect status 200
  # …and its PostgreSQL running: Patroni 3.0.2 answers /primary 200 while it demotes (PostgreSQL already
  # stopped, the leader key not yet released); without this, a switchover's old primary stayed in the pool
  # until it had restarted as a standby, and took connections meanwhile.
  http-check expect rstring "state.{4}running"
  default-server inter 500ms fastinter 250ms downinter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${servers}

frontend metrics
  mode http
  bind 127.0.0.1:${p.haproxyMetrics}
  http-request use-service prometheus-exporter if { path /metrics }
`;
}
