/**
 * The store: the repositories over the one database. Nothing else in the bot talks to Prisma.
 * Servers are kept apart here, not in the commands: every look-up or change by id (a roll, a sheet, a contest, a
 * roll request) takes the server the interaction came from, and an id of another server is not found, exactly like
 * an id never used. Names (sheets, NPCs, tables) are looked up within a server too.
 */
import { postgresCacheBus, processLocalBus, type CacheBus } from './cache-bus.js';
import { ChannelWebhookStore } from './channel-webhooks.js';
import { CommandRegistrationStore } from './command-registrations.js';
import { ContestStore } from './contests.js';
import { openDatabase, type Dialect } from './database.js';
import type { Database } from './database-client.js';
import type { Logger } from '../log.js';
import { InitiativeStore } from './initiatives.js';
import { JournalStore } from './journal.js';
import { postgresTurns, processLocalTurns } from './locks.js';
import { rekeyNames } from './name-keys.js';
import { OperatorStore } from './operators.js';
import { RollRequestStore } from './roll-requests.js';
import { RollLog } from './rolls.js';
import { SavedRollStore } from './saved-rolls.js';
import { ServerStore } from './servers.js';
import { SessionStore } from './sessions.js';
import { StatsStore } from './stats.js';
import { TableStore } from './tables.js';

export interface Store {
  db: Database;
  dialect: Dialect;
  operators: OperatorStore;
  /** The webhook each channel's NPCs speak through. */
  channelWebhooks: ChannelWebhookStore;
  /** The global command list's registration (its digest per Discord and application). */
  commandRegistrations: CommandRegistrationStore;
  contests: ContestStore;
  initiatives: InitiativeStore;
  journal: JournalStore;
  rolls: RollLog;
  rollRequests: RollRequestStore;
  /** Saved rolls: on a sheet, or shared with the server. */
  savedRolls: SavedRollStore;
  servers: ServerStore;
  /** Play sessions: each server's committed secret its roll seeds derive from (commit and reveal). */
  sessions: SessionStore;
  /** What /stats reads of the roll log. */
  stats: StatsStore;
  tables: TableStore;
  /**
   * How the read caches hear of other processes' writes (PostgreSQL: LISTEN/NOTIFY; SQLite: one process, nothing to
   * hear). `listening` false means caching is off for now.
   */
  caches: CacheBus;
  close(): Promise<void>;
}

/** What tests may fix in the store, where the bot takes the operating system's randomness. */
export interface StoreOptions {
  newSessionSecret?: () => string;
  /** New roll ids (default random): fixed in tests, as seeds are, so a run's answers are the same twice. */
  newRollId?: () => string;
}

export async function openStore(databaseUrl: string, log?: Logger, options: StoreOptions = {}): Promise<Store> {
  const opened = await openDatabase(databaseUrl);
  const { db } = opened;
  // Names keyed before issue 11 exist in SQLite files only; a PostgreSQL database is written by this bot (or copied
  // from a file it opened first, `npm run db:copy`).
  if (opened.sqlite) await rekeyNames(opened.sqlite, log);
  const caches = opened.pool ? await postgresCacheBus(opened.pool, log) : processLocalBus();
  const turns = opened.pool ? postgresTurns(opened.pool) : processLocalTurns();
  const rolls = new RollLog(db, options.newRollId);
  const sessions = new SessionStore(db, options.newSessionSecret);
  return {
    db,
    dialect: opened.dialect,
    operators: new OperatorStore(db, caches),
    channelWebhooks: new ChannelWebhookStore(db),
    commandRegistrations: new CommandRegistrationStore(db, opened.dialect),
    contests: new ContestStore(db, turns, opened.dialect, rolls),
    initiatives: new InitiativeStore(db),
    journal: new JournalStore(db, sessions),
    rolls,
    rollRequests: new RollRequestStore(db),
    savedRolls: new SavedRollStore(db),
    servers: new ServerStore(db, caches),
    sessions,
    stats: new StatsStore(db),
    tables: new TableStore(db),
    caches,
    close: async () => {
      await caches.close();
      await turns.close();
      await opened.close();
    },
  };
}
