import { defineConfig } from 'vitest/config';

// The scale suite (issue 14), `npm run test:scale`: a PostgreSQL server of its own (test/helpers/postgres-server.ts,
// Debian's postgresql package), the store suite run again against it, and the bot as several shard processes.
export default defineConfig({
  test: {
    include: ['test/store/**/*.test.ts', 'test/scale/**/*.test.ts'],
    // SQLite's own: its file, its migration step, its name re-keying, and the offline schema derivation.
    exclude: ['test/store/database-file.test.ts', 'test/store/migrations.test.ts', 'test/store/name-keys.test.ts', 'test/store/postgres-schema.test.ts'],
    setupFiles: ['test/helpers/loopback-only.ts', 'test/helpers/discord-spec-check.ts'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/helpers/postgres-setup.ts'],
    env: { TEST_DATABASE: 'postgresql' },
    testTimeout: 60_000,
    hookTimeout: 2 * 60_000,
    teardownTimeout: 60_000,
    // Shard processes and a database server share the machine's 2 cores: one file at a time.
    fileParallelism: false,
    pool: 'forks',
  },
});
