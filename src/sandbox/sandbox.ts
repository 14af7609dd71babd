/**
 * Sandbox mode: the fake Discord and the real bot against it, on 127.0.0.1, so the bot can be tried (and
 * tested end to end) with no Discord account. The same function serves `npm start` without a token and tests.
 */
import { randomUUID } from 'node:crypto';
import { startBot, type BotOptions, type RunningBot } from '../bot.js';
import { FakeDiscord } from './fake-discord.js';
import { addSandboxPage } from './page-server.js';

export interface SandboxOptions extends Omit<BotOptions, 'token' | 'restApi'> {
  /** 0 picks a free port. */
  port: number;
  /** The fake's quiet period before interact() resolves (FakeDiscordOptions.settleMs); benchmarks lower it. */
  settleMs?: number;
}

export interface Sandbox {
  fake: FakeDiscord;
  bot: RunningBot;
  url: string;
  /** Stops the bot only, keeping the fake Discord (and its users and messages) up: for restart tests. */
  restartBot(options?: Partial<SandboxOptions>): Promise<RunningBot>;
  stop(): Promise<void>;
}

const ROLLS_LIMIT_MAX = 100;

export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const fake = new FakeDiscord({ port: options.port, settleMs: options.settleMs });
  await fake.start();
  addSandboxPage(fake);
  // This fake Discord starts with no commands, whatever the database remembers registering at an earlier one: the
  // bot registers each server's list here, and again only if it changes while this fake runs (a restart does not).
  const commandsScope = `sandbox ${randomUUID()}`;
  const launch = async (overrides: Partial<SandboxOptions> = {}): Promise<RunningBot> => {
    const bot = await startBot({ ...options, ...overrides, token: fake.token, restApi: fake.restApi, commandsScope });
    await bot.commandsReady;
    return bot;
  };
  let bot: RunningBot;
  try {
    bot = await launch();
  } catch (error) {
    await fake.stop();
    throw error;
  }

  fake.route('GET', '/api/rolls', async ({ query }) => {
    const asked = Number(query.get('limit') ?? 20);
    const limit = Number.isInteger(asked) && asked > 0 ? Math.min(asked, ROLLS_LIMIT_MAX) : 20;
    const rolls = await bot.store.rolls.latestOfAllServers(limit);
    return { rolls };
  });

  return {
    fake,
    get bot() {
      return bot;
    },
    url: fake.url,
    async restartBot(overrides) {
      await bot.stop();
      bot = await launch({ migrate: false, ...overrides });
      return bot;
    },
    async stop() {
      await bot.stop();
      await fake.stop();
    },
  };
}
