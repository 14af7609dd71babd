/** The bot itself: database, discord.js client and router, started and stopped as one. */
import { disableValidators, Events, type Client } from 'discord.js';
import { commands, contextMenus } from '../commands/index.js';
import type { BotCommand, BotServices } from './discord/command.js';
import { CommittedSeeds } from './discord/committed-seeds.js';
import { createClient, loginAndWaitUntilReady, type ShardSet } from './discord/client.js';
import { Router } from './discord/router.js';
import { CommandList, registerUntilDone, retireServerLists } from './discord/slash-list.js';
import { newSeed } from './engine/rng.js';
import type { Logger } from './log.js';
import type { Store } from './store/index.js';
import { databaseFile, watchDatabaseFile } from './store/sqlite-file-guard.js';

export interface BotOptions {
  token: string;
  databaseUrl: string;
  log: Logger;
  /** REST base of a fake Discord; absent → the real one. */
  restApi?: string;
  /** Apply pending migrations first (default true). Tests that copy a migrated file skip it. */
  migrate?: boolean;
  /**
   * Fixes seeds or the clock in tests; real use takes the defaults: seeds derived from each server's open session
   * (commit and reveal, src/discord/committed-seeds.ts).
   */
  newSeed?: () => string;
  /** Fixes each new play session's secret in tests, so a run is the same twice (its commitments too). */
  newSessionSecret?: () => string;
  /** Fixes new roll ids in tests (a roll id a member types in part is then matched the same way twice). */
  newRollId?: () => string;
  now?: () => Date;
  /** How long a handler may run before the router defers its interaction (default 2 s); tests shorten it. */
  deferAfterMs?: number;
  /** Post the one-time welcome after a server's first command (default true); see RouterOptions.welcome. */
  welcome?: boolean;
  /** Commands beyond the real ones (tests add a controllable one); they are registered with the real ones. */
  extraCommands?: readonly BotCommand[];
  /**
   * The Discord the global command list is registered at (src/discord/slash-list.ts), default the REST base: a fake
   * Discord that starts empty gives a new one each time (the sandbox), so the list is registered there anew.
   */
  commandsScope?: string;
  /**
   * The shards this process runs, of how many (one process of a sharded bot); absent → one process with every server.
   * It then serves and sweeps its shards' servers only; the process with shard 0 registers the global command list.
   */
  shards?: ShardSet;
  /**
   * Called once the router is done with an interaction (its answers and the welcome sent, or its failure answered):
   * the sandbox tells its fake Discord, so a test waits for the bot rather than for a quiet period.
   */
  onInteractionHandled?: (interactionId: string) => void;
}

export interface RunningBot {
  client: Client;
  store: Store;
  /**
   * Settles once the global command list is registered, or found registered (by the process that registers it; at
   * once in the others). A failure is logged, and the next start tries again.
   */
  commandsReady: Promise<void>;
  /**
   * Settles once the lists an older version registered in this process's servers were looked for and cleared (in
   * the background, after `commandsReady`; a failure is logged and tried again at the next start).
   */
  ownListsCleared: Promise<void>;
  stop(): Promise<void>;
}

/** The bot's side that needs no Discord: the database migrated and open, the router and the command list over it. */
interface OpenedStore {
  store: Store;
  services: BotServices;
  router: Router;
  commandList: CommandList;
  unwatchFile: () => void;
}

/**
 * How long `stop()` waits for a registration cut short (its request aborted) to end: discord.js may hold a request
 * in its queue, and a stop (SIGTERM, a deploy) must not wait for Discord. What is left then writes no digest.
 */
const STOP_WAIT_MS = 2_000;

/**
 * Between two servers' old lists cleared: at most 10 a second per process, a fifth of Discord's 50 a second for the
 * whole bot, so several shard processes clearing at once leave room for the answers. A one-time cost of an upgrade.
 */
const OWN_LIST_INTERVAL_MS = 100;

async function openBotStore(options: BotOptions, client: Client, served: readonly BotCommand[]): Promise<OpenedStore> {
  const { log } = options;
  // Loaded here, not with this file: the database's modules (Prisma's client, its query compiler, the driver) then
  // load while the gateway handshake waits for Discord.
  const [{ dialectOf, migrateDatabase }, { openStore }] = await Promise.all([import('./store/database.js'), import('./store/index.js')]);
  if (options.migrate ?? true) {
    await migrateDatabase(options.databaseUrl);
    log.info('database migrations applied');
  }
  const store = await openStore(options.databaseUrl, log, { newSessionSecret: options.newSessionSecret, newRollId: options.newRollId });
  // A SQLite file can be deleted under the running bot (sqlite.ts); a PostgreSQL server reports its own failures.
  const unwatchFile =
    dialectOf(options.databaseUrl) === 'sqlite' ? watchDatabaseFile(options.databaseUrl, (problem) => log.error({ file: databaseFile(options.databaseUrl) }, problem)) : () => undefined;
  const now = options.now ?? (() => new Date());
  const seeds = options.newSeed ? null : new CommittedSeeds(store.sessions, now, log);
  const services: BotServices = {
    store,
    log,
    now,
    newSeed: options.newSeed ?? seeds?.newSeed ?? newSeed,
    ...(seeds ? { prepareSeeds: seeds.prepare } : {}),
    // One process with every server, or a shard process with its shards' servers only.
    shards: options.shards ?? null,
  };
  const router = new Router(served, services, { deferAfterMs: options.deferAfterMs, welcome: options.welcome, menus: contextMenus });
  const commandList = new CommandList({
    rest: client.rest,
    applicationId: () => applicationIdOf(client),
    commands: served,
    menus: contextMenus,
    registrations: store.commandRegistrations,
    log,
    scope: options.commandsScope ?? options.restApi ?? 'discord.com',
    now,
  });
  return { store, services, router, commandList, unwatchFile };
}

function applicationIdOf(client: Client): string {
  return client.application?.id ?? client.user?.id ?? '';
}

/** Resolves when `work` settles or after `ms`, whichever is first. */
async function settledWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.then(() => undefined, () => undefined), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

export async function startBot(options: BotOptions): Promise<RunningBot> {
  // discord.js's builders check every embed, button and form they build (@sapphire/shapeshift, which throws and
  // catches as it tries each shape): ~0.6 ms of a contest step's ~2 ms (docs/performance.md). The views bound what
  // they build by Discord's limits themselves (src/views/limits.ts), Discord checks what it receives, and so does the
  // fake Discord in every test; the command definitions, built as their modules load, are still checked then.
  disableValidators();
  const { log } = options;
  // The commands the router serves are the ones the global list offers (tests add their own).
  const served = [...commands, ...(options.extraCommands ?? [])];
  const client = createClient(options.restApi, options.shards);
  client.on(Events.Error, (error) => log.error({ err: error }, 'discord client error'));
  client.on(Events.Warn, (message) => log.warn(message));
  // The gateway handshake is mostly waiting for Discord, opening the database mostly CPU (docs/performance.md): the
  // two run at once. Whatever arrives before the store is open waits for it.
  const loggedIn = loginAndWaitUntilReady(client, options.token);
  loggedIn.catch(() => undefined); // awaited below, once the store is open
  const opening = openBotStore(options, client, served);
  const handled = options.onInteractionHandled;
  client.on(Events.InteractionCreate, (interaction) => {
    const handling = opening.then(({ router }) => router.handle(interaction), () => undefined);
    void (handled ? handling.finally(() => handled(interaction.id)) : handling);
  });
  let opened: OpenedStore;
  try {
    opened = await opening;
  } catch (error) {
    await client.destroy();
    throw error;
  }
  const { store, services, commandList, unwatchFile } = opened;
  try {
    await loggedIn;
  } catch (error) {
    await client.destroy();
    unwatchFile();
    await store.close();
    throw error;
  }
  // Only the real Discord is called Discord here: a log that says so while the bot plays in the sandbox (or behind a
  // proxy) would mislead whoever checks which one it runs against.
  if (options.restApi) log.info({ user: client.user?.tag }, `logged in to the Discord API at ${options.restApi} (not discord.com)`);
  else log.info({ user: client.user?.tag }, 'logged in to Discord');
  // Stopping cuts short what talks to Discord in the background: the registration's request and the clearing of
  // older lists, between servers and within a request.
  const stopping = new AbortController();
  // The list is the same for every shard: one process registers it (shard 0's), the others serve it.
  const registers = !options.shards || options.shards.ids.includes(0);
  const commandsReady = registers
    ? registerUntilDone(commandList, log, stopping.signal).then((outcome) => {
        if (outcome?.kind === 'unchanged') log.info({ commands: outcome.commands }, 'global command list unchanged: nothing registered');
      })
    : Promise.resolve();
  // In the background, paced (OWN_LIST_INTERVAL_MS) through discord.js's queue, so answers never wait behind it;
  // where this process registers, after the global list is in place, so its servers are not left without commands.
  const ownListsCleared = commandsReady.then(() =>
    stopping.signal.aborted
      ? undefined
      : retireServerLists({
          rest: client.rest,
          applicationId: applicationIdOf(client),
          registrations: store.commandRegistrations,
          servers: store.servers,
          shards: options.shards ?? null,
          log,
          signal: stopping.signal,
          isIn: (guildId) => client.guilds.cache.has(guildId),
          intervalMs: OWN_LIST_INTERVAL_MS,
        }).then(
          () => undefined,
          (error: unknown) => {
            if (!stopping.signal.aborted) log.warn({ err: error }, "servers' own command lists from an older version were not looked for; the next start does");
          },
        ),
  );
  const stopBackground = commands.flatMap((command) => (command.start ? [command.start(client, services)] : []));
  let stopped = false;
  return {
    client,
    store,
    commandsReady,
    ownListsCleared,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const stopOne of stopBackground) stopOne();
      stopping.abort();
      // What was under way ends at its next step; a request discord.js still holds is not waited for past the bound,
      // and writes no digest (the store is closed below), so the next start registers again.
      await settledWithin(Promise.all([commandsReady, ownListsCleared]), STOP_WAIT_MS);
      await client.destroy();
      unwatchFile();
      await store.close();
    },
  };
}
