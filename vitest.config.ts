import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['**/*.test.ts'],
    exclude: ['**/node_modules/**', '.local/**'],
    globalSetup: ['test/support/global-setup.ts'],
    // Integration suites share one PostgreSQL and one NATS server: each suite has its own database, and
    // suites run one after another so no suite's services answer another suite's requests.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default'],
  },
});
