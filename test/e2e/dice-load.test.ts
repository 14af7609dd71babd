// The first /roll dice of a process loads the notation library (mathjs: a second or more of synchronous module
// evaluation). Other users' interactions arriving meanwhile must be answered as on any other day: directly, never
// deferred, within Discord's 3 s (issue 11: one was deferred at 3,018 ms during the load and failed with 10062).
//
// The bot runs as a process of its own, so the fake Discord, in this process, keeps sending interactions while the
// bot loads, and its first /roll dice is surely the process's first load. The bot's thread is preloaded with
// test/helpers/slow-dice-library.mjs: should the library ever be evaluated on that thread, it holds it 4 s longer
// than the library alone, past Discord's deadline, as a loaded machine did.
import fs from 'node:fs';
import path from 'node:path';
import { REST } from 'discord.js';
import { afterEach, expect, it, vi } from 'vitest';
import { registerCommands } from '../../src/deploy.js';
import { databaseFile } from '../../src/store/sqlite-file-guard.js';
import { FakeDiscord, type SandboxInteractionResult } from '../../src/sandbox/fake-discord.js';
import { ChildBot, fakeDiscordEnv, tellFakeWhenHandled } from '../helpers/child-bot.js';
import { freshDatabaseUrl } from '../helpers/database.js';
import { textOf } from '../helpers/sandbox.js';

const SLOW_LIBRARY = path.join(import.meta.dirname, '..', 'helpers', 'slow-dice-library.mjs');

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const WELCOME = 'Tac Talk Bot is here.';
/** The bot's welcome, posted once per server after the first command's answer (see test/e2e/welcome.test.ts). */
const isWelcome = (response: SandboxInteractionResult['responses'][number]): boolean => response.kind === 'followup' && textOf(response).includes(WELCOME);
const kinds = (result: SandboxInteractionResult): string[] =>
  result.responses.filter((response) => !isWelcome(response)).map((response) => `${response.kind}${response.ephemeral ? ' (private)' : ''}`);

it('answers other users directly, never deferred, while the first /roll dice loads the notation library', async () => {
  // Long enough for the dice roll's own answer, however slowly the library loads.
  const fake = new FakeDiscord({ responseTimeoutMs: 30_000, botSaysWhenDone: true });
  await fake.start();
  cleanups.push(() => fake.stop());
  await registerCommands(new REST({ api: fake.restApi }).setToken(fake.token), fake.applicationId, fake.guildId);
  const databaseUrl = freshDatabaseUrl();
  cleanups.push(async () => fs.rmSync(path.dirname(databaseFile(databaseUrl)), { recursive: true, force: true }));
  const bot = await ChildBot.spawn({
    // debug: the router's "interaction handled" line, which tells the fake the bot is done with an interaction.
    env: { ...fakeDiscordEnv(fake), DATABASE_URL: databaseUrl, LOG_LEVEL: 'debug' },
    onLog: tellFakeWhenHandled(fake),
    nodeArgs: ['--import', SLOW_LIBRARY],
  });
  cleanups.push(() => bot.stop());
  await fake.waitForReady();

  let diceAnswered = false;
  const dice = fake.interact({ user: 'mike', command: 'roll dice', options: { expression: '4d6kh3+2', label: 'Strength' } }).finally(() => {
    diceAnswered = true;
  });
  // Three other users each roll a challenge, and the next as soon as one is answered, for as long as the dice roll
  // is unanswered: their interactions arrive all through the load, and some are always waiting on the bot.
  const challenges: Array<{ user: string; result: SandboxInteractionResult }> = [];
  await Promise.all(
    ['sasha', 'dee', 'kat'].map(async (user) => {
      while (!diceAnswered) {
        challenges.push({ user, result: await fake.interact({ user, command: 'roll challenge', options: { skill: 'Climbing', cl: 90, level: 40 } }) });
      }
    }),
  );
  const rolled = await dice;

  expect(new Set(challenges.map((challenge) => challenge.user))).toEqual(new Set(['sasha', 'dee', 'kat']));
  for (const { user, result } of challenges) {
    expect(result.errors, `${user}'s challenge ${result.id}`).toEqual([]);
    expect(kinds(result), `${user}'s challenge ${result.id}`).toEqual(['reply']);
    expect(textOf(result.responses[0]!), `${user}'s challenge ${result.id}`).toContain('Climbing');
  }
  // The dice roll itself is acknowledged at once, then shown once its library is loaded.
  expect(rolled.errors).toEqual([]);
  expect(kinds(rolled)).toEqual(['deferred', 'edit']);
  expect(textOf(rolled.responses[1]!)).toContain('🎲 Strength');
  expect(textOf(rolled.responses[1]!)).toMatch(/Roll \w{8}/);
  // The real bot welcomes this new server once, after whichever command was answered first (one of its answers,
  // left out above; looked for in the channel, whichever command it followed).
  await vi.waitFor(() => expect(fake.messages().filter((message) => (message.content ?? '').includes(WELCOME))).toHaveLength(1));
  expect(fake.violations).toEqual([]);
  expect(bot.problems()).toEqual([]);
}, 120_000);
