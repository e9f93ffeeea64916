/**
 * The settings the failover's guarantees rest on (issue #46; docs/decisions.md "PostgreSQL failover"):
 * strict synchronous mode (no commit acknowledged on one node, only the synchronous standby promoted),
 * pg_rewind with the hint bits it needs, Barman's permanent slot, Patroni's timing rule, and HAProxy
 * routing only to the node whose Patroni says `/primary`, cutting a failed node's sessions.
 */
import { describe, expect, it } from 'vitest';
import { type ClusterPorts, FAILOVER_TIMING, haproxyConfig, patroniConfig } from './pg-cluster-config.js';

const ports: ClusterPorts = {
  etcdClient: [2379, 2389, 2399],
  etcdPeer: [2380, 2390, 2400],
  postgres: [5431, 5432, 5433],
  rest: [8001, 8002, 8003],
  primary: 5000,
  haproxyMetrics: 8404,
};
const node = {
  index: 1,
  dataDir: '/data/pg-node-2',
  binDir: '/usr/lib/postgresql/15/bin',
  pgpass: '/data/pgpass-2',
  superuserPassword: 's',
  replicationPassword: 'r',
  durable: true,
};

describe('the local cluster configuration', () => {
  it('makes Patroni strict-synchronous with pg_rewind, Barman’s permanent slot and a valid timing', () => {
    const c = JSON.parse(patroniConfig(ports, node));
    expect(c.name).toBe('pg-2');
    expect(c.restapi.listen).toBe('127.0.0.1:8002');
    expect(c.postgresql.listen).toBe('127.0.0.1:5432');
    expect(c.etcd3.hosts).toEqual(['127.0.0.1:2379', '127.0.0.1:2389', '127.0.0.1:2399']);
    const dcs = c.bootstrap.dcs;
    expect([dcs.synchronous_mode, dcs.synchronous_mode_strict, dcs.synchronous_node_count]).toEqual([
      true,
      true,
      1,
    ]);
    expect(dcs.postgresql.use_pg_rewind).toBe(true);
    expect(dcs.postgresql.parameters.wal_log_hints).toBe('on');
    expect(dcs.slots).toEqual({ barman: { type: 'physical' } });
    // Patroni's rule: loop_wait + 2 × retry_timeout ≤ ttl.
    expect(dcs.loop_wait + 2 * dcs.retry_timeout).toBeLessThanOrEqual(dcs.ttl);
    expect(dcs.ttl).toBe(FAILOVER_TIMING.ttl);
    // Durable by default; only throw-away test clusters turn fsync off.
    expect(dcs.postgresql.parameters.fsync).toBeUndefined();
    expect(
      JSON.parse(patroniConfig(ports, { ...node, durable: false })).bootstrap.dcs.postgresql.parameters.fsync,
    ).toBe('off');
  });

  it('routes HAProxy to the node whose Patroni answers /primary and cuts a failed node’s sessions', () => {
    const cfg = haproxyConfig(ports);
    expect(cfg).toContain('bind 127.0.0.1:5000');
    expect(cfg).toContain('http-check send meth GET uri /primary');
    // …and its PostgreSQL running (a demoting primary still holds the leader key).
    expect(cfg).toContain('http-check expect rstring "state.{4}running"');
    expect(cfg).toContain('on-marked-down shutdown-sessions');
    expect(cfg).toContain('option redispatch 1');
    for (const [i, p] of ports.postgres.entries())
      expect(cfg).toContain(`server pg-${i + 1} 127.0.0.1:${p} check port ${ports.rest[i]}`);
  });
});
