import { defineConfig } from 'vitest/config';

// The reliability suite (issue 7): long randomized runs, kept out of `npm test`. `npm run test:reliability`.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.reliability.ts'],
    setupFiles: ['test/helpers/loopback-only.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 30 * 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
