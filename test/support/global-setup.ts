/**
 * Vitest global setup: real PostgreSQL and NATS for every suite (DESIGN §8): the servers named by
 * DATABASE_URL / NATS_URL, else local ones started here and stopped after the run.
 */
import { ensureInfrastructure } from '@bm/testing/infra';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
    natsUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const infra = await ensureInfrastructure({ log: (l) => console.log(`[infra] ${l}`) });
  if (infra.started.length) console.log(`[infra] started ${infra.started.join(', ')}`);
  project.provide('pgUrl', infra.databaseUrl);
  project.provide('natsUrl', infra.natsUrl);
  return () => infra.stop();
}
