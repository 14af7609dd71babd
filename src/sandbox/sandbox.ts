/**
 * Sandbox mode: the fake Discord and the real bot against it, on 127.0.0.1, so the bot can be tried (and
 * tested end to end) with no Discord account. The same function serves `npm start` without a token and tests.
 */
import { randomUUID } from 'node:crypto';
import { startBot, type BotOptions, type RunningBot } from '../bot.js';
import { COMMANDS_SCOPE_ARG, startShardManager, type RunningShards } from '../discord/shards.js';
import type { Logger } from '../log.js';
import { startRestProxy, type RunningRestProxy } from '../discord/rest-proxy.js';
import { openStore, type Store } from '../store/index.js';
import { FakeDiscord } from './fake-discord.js';
import { addSandboxPage } from './page-server.js';

export interface SandboxOptions extends Omit<BotOptions, 'token' | 'restApi'> {
  /** 0 picks a free port. */
  port: number;
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
  // The bot runs in this process and says when it is done with each interaction: interact() waits for that.
  const fake = new FakeDiscord({ port: options.port, botSaysWhenDone: true, onViolation: violationLogger(options.log) });
  await fake.start();
  addSandboxPage(fake);
  // This fake Discord starts with no commands, whatever the database remembers registering at an earlier one: the
  // bot registers each server's list here, and again only if it changes while this fake runs (a restart does not).
  const commandsScope = `sandbox ${randomUUID()}`;
  const launch = async (overrides: Partial<SandboxOptions> = {}): Promise<RunningBot> => {
    const settings = { ...options, ...overrides };
    const onInteractionHandled = (id: string): void => {
      fake.interactionHandled(id);
      settings.onInteractionHandled?.(id);
    };
    const bot = await startBot({ ...settings, token: fake.token, restApi: fake.restApi, commandsScope, onInteractionHandled });
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

  addRollsRoute(fake, () => bot.store);

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

/**
 * Every rule the bot breaks, logged as an error: the sandbox is where a new view is first tried, and a body Discord's
 * API spec rejects would fail on the real Discord.
 */
function violationLogger(log: Logger): (text: string, spec: boolean) => void {
  return (text, spec) => log.error({ violation: text }, spec ? "fake Discord: the bot sent a body Discord's API spec rejects" : 'fake Discord: the bot broke a Discord rule');
}

/** GET /api/rolls: the newest rolls of every server, read from the store (docs/sandbox.md). */
function addRollsRoute(fake: FakeDiscord, store: () => Store): void {
  fake.route('GET', '/api/rolls', async ({ query }) => {
    const asked = Number(query.get('limit') ?? 20);
    const limit = Number.isInteger(asked) && asked > 0 ? Math.min(asked, ROLLS_LIMIT_MAX) : 20;
    const rolls = await store().rolls.latestOfAllServers(limit);
    return { rolls };
  });
}

export interface ShardedSandboxOptions {
  port: number;
  /** A PostgreSQL URL: the shard processes share it (config.ts refuses SQLite with more than one shard). */
  databaseUrl: string;
  log: Logger;
  shards: number;
}

export interface ShardedSandbox {
  fake: FakeDiscord;
  shards: RunningShards;
  url: string;
  stop(): Promise<void>;
}

/**
 * The sandbox as a sharded bot runs: the fake Discord with `shards` shards in this process, the REST proxy in front of
 * it, and the bot's shard manager with its cluster processes (src/discord/shards.ts), each logged in to the fake as
 * its shards and sending its REST calls through the proxy. The fake's servers (the API's `guild` field) fall on the shards
 * by their ids, as Discord's do. This process keeps a store open only to list rolls (GET /api/rolls); the bot's caches
 * and timers live in the cluster processes.
 */
export async function startShardedSandbox(options: ShardedSandboxOptions): Promise<ShardedSandbox> {
  // Shards log in 344 ms apart here, as a large bot's (max_concurrency 16) do: Discord's pace for a small one (one
  // IDENTIFY per 5 s) would only slow a sandbox on loopback. The fake keeps Discord's global limit, and the shard
  // processes send through one REST proxy to it, as docs/scaling.md has a sharded deployment do ("One REST queue").
  const fake = new FakeDiscord({ port: options.port, shards: options.shards, maxConcurrency: 16, enforceGlobalLimit: true, onViolation: violationLogger(options.log) });
  await fake.start();
  addSandboxPage(fake);
  let proxy: RunningRestProxy | null = null;
  let shards: RunningShards | null = null;
  let store: Store | null = null;
  try {
    proxy = await startRestProxy({ host: '127.0.0.1', port: 0, discordApi: fake.restApi, logLevel: 'info' }, options.log);
    shards = await startShardManager({
      token: fake.token,
      databaseUrl: options.databaseUrl,
      log: options.log,
      restApi: proxy.url,
      count: options.shards,
      ids: null,
      env: { DISCORD_API: proxy.url, DISCORD_APPLICATION_ID: fake.applicationId },
      shardArgs: [`${COMMANDS_SCOPE_ARG}sandbox ${randomUUID()}`],
    });
    store = await openStore(options.databaseUrl, options.log);
  } catch (error) {
    await shards?.stop();
    await proxy?.stop();
    await fake.stop();
    throw error;
  }
  const openedStore = store;
  const runningProxy = proxy;
  addRollsRoute(fake, () => openedStore);
  const running = shards;
  return {
    fake,
    shards: running,
    url: fake.url,
    async stop() {
      await running.stop();
      await openedStore.close();
      await runningProxy.stop();
      await fake.stop();
    },
  };
}
