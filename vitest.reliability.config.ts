import { defineConfig } from 'vitest/config';

// The reliability suite (issue 7): long randomized runs, kept out of `npm test`. `npm run test:reliability`.
export default defineConfig({
  test: {
    include: ['test/reliability/**/*.reliability.ts'],
    setupFiles: ['test/helpers/loopback-only.ts', 'test/helpers/discord-spec-check.ts'],
    globalSetup: ['test/helpers/global-setup.ts'],
    // Every file measures Discord's 3-second deadline: two of them sharing the 2 cores of a CI machine would each
    // see the other's load as the bot being slow. One file at a time (this also sets maxWorkers to 1).
    fileParallelism: false,
    // A test that means to run longer (the fuzz, with its own time limit) says so; 10 min bounds any other.
    testTimeout: 10 * 60_000,
    // Hooks start and stop bots and child processes, with a restart or a killed process in between.
    hookTimeout: 2 * 60_000,
    teardownTimeout: 60_000,
    pool: 'forks',
  },
});
