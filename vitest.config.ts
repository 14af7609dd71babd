import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The scale suite needs its PostgreSQL server and shard processes: `npm run test:scale` (vitest.scale.config.ts).
    exclude: [...configDefaults.exclude, 'test/scale/**'],
    setupFiles: ['test/helpers/loopback-only.ts', 'test/helpers/discord-spec-check.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
