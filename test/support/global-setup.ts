/**
 * Vitest global setup: real PostgreSQL and NATS for every suite (DESIGN §8): the servers named by
 * DATABASE_URL / NATS_URL, else local ones started here and stopped after the run.
 */
import { ensureInfrastructure } from '@bm/testing/infra';
import { generateDbRolePasswords } from '@bm/testing/pg-roles';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    natsUrl: string;
    /** JSON of the NATS users of each process (issue #12); empty when the given server has none. */
    natsCredentials: string;
    /** JSON of the passwords of the per-process PostgreSQL roles of this run (issue #12). */
    dbRolePasswords: string;
  }
}

export default async function setup(project: TestProject) {
  const infra = await ensureInfrastructure({ log: (l) => console.log(`[infra] ${l}`) });
  if (infra.started.length) console.log(`[infra] started ${infra.started.join(', ')}`);
  project.provide('pgUrl', infra.databaseUrl);
  project.provide('natsUrl', infra.natsUrl);
  project.provide('dbRolePasswords', JSON.stringify(generateDbRolePasswords()));
  project.provide('natsCredentials', infra.natsCredentials ? JSON.stringify(infra.natsCredentials) : '');
  return () => infra.stop();
}
