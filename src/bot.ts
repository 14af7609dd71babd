/** The bot itself: database, discord.js client and router, started and stopped as one. */
import { disableValidators, Events, type Client } from 'discord.js';
import { commands, contextMenus } from '../commands/index.js';
import type { BotCommand, BotServices } from './discord/command.js';
import { CommittedSeeds } from './discord/committed-seeds.js';
import { createClient, loginAndWaitUntilReady, type ShardSet } from './discord/client.js';
import { Router } from './discord/router.js';
import { SlashList } from './discord/slash-list.js';
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
  /** Commands beyond the real ones (tests add a controllable one); they still need registering with Discord. */
  extraCommands?: readonly BotCommand[];
  /**
   * The Discord the servers' slash lists are registered at (src/discord/slash-list.ts), default the REST base: a
   * fake Discord that starts empty gives a new one each time (the sandbox), so the lists are registered there anew.
   */
  commandsScope?: string;
  /**
   * The shards this process runs, of how many (one process of a sharded bot); absent → one process with every server.
   * It then serves, sweeps and registers slash lists for its shards' servers only.
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
  /** Settles once every server the bot was in at start has its slash list (registered, or found registered). */
  commandsReady: Promise<void>;
  stop(): Promise<void>;
}

/** The bot's side that needs no Discord: the database migrated and open, the router and the slash lists over it. */
interface OpenedStore {
  store: Store;
  services: BotServices;
  router: Router;
  slashList: SlashList;
  unwatchFile: () => void;
}

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
  const slashList = new SlashList({
    rest: client.rest,
    applicationId: () => client.application?.id ?? client.user?.id ?? '',
    commands: served,
    menus: contextMenus,
    servers: store.servers,
    log,
    scope: options.commandsScope ?? options.restApi ?? 'discord.com',
  });
  services.slashList = slashList;
  return { store, services, router, slashList, unwatchFile };
}

export async function startBot(options: BotOptions): Promise<RunningBot> {
  // discord.js's builders check every embed, button and form they build (@sapphire/shapeshift, which throws and
  // catches as it tries each shape): ~0.6 ms of a contest step's ~2 ms (docs/performance.md). The views bound what
  // they build by Discord's limits themselves (src/views/limits.ts), Discord checks what it receives, and so does the
  // fake Discord in every test; the command definitions, built as their modules load, are still checked then.
  disableValidators();
  const { log } = options;
  // The commands the router serves are the ones each server's slash list offers (tests add their own).
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
  // A server the bot joins (or that comes back) gets its list; one it knows already costs a digest comparison.
  client.on(Events.GuildCreate, (guild) =>
    void opening
      .then(({ slashList }) => slashList.update(guild.id))
      .catch((error: unknown) => log.error({ err: error, guildId: guild.id }, 'the slash list could not be checked')),
  );
  let opened: OpenedStore;
  try {
    opened = await opening;
  } catch (error) {
    await client.destroy();
    throw error;
  }
  const { store, services, slashList, unwatchFile } = opened;
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
  const commandsReady = (async () => {
    // Global commands are one list for every shard: one process (shard 0's) clears them, not one per process.
    if (!options.shards || options.shards.ids.includes(0)) {
      try {
        await slashList.clearGlobal();
      } catch (error) {
        log.warn({ err: error }, 'could not check for global commands left by an older version');
      }
    }
    await slashList.updateAll([...client.guilds.cache.keys()]);
  })();
  const stopBackground = commands.flatMap((command) => (command.start ? [command.start(client, services)] : []));
  let stopped = false;
  return {
    client,
    store,
    commandsReady,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const stopOne of stopBackground) stopOne();
      // A registration under way finishes first: it writes its digest to the store closed below.
      await commandsReady;
      await slashList.idle();
      await client.destroy();
      unwatchFile();
      await store.close();
    },
  };
}
