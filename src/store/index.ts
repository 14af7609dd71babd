/**
 * The store: the repositories over the one database. Nothing else in the bot talks to Prisma.
 * Servers are kept apart here, not in the commands: every look-up or change by id (a roll, a sheet, a contest, a
 * roll request) takes the server the interaction came from, and an id of another server is not found, exactly like
 * an id never used. Names (sheets, NPCs, tables) are looked up within a server too.
 */
import { ContestStore } from './contests.js';
import { openDatabase, type Database, type Dialect } from './database.js';
import type { Logger } from '../log.js';
import { InitiativeStore } from './initiatives.js';
import { rekeyNames } from './name-keys.js';
import { OperatorStore } from './operators.js';
import { RollRequestStore } from './roll-requests.js';
import { RollLog } from './rolls.js';
import { ServerStore } from './servers.js';
import { TableStore } from './tables.js';

export interface Store {
  db: Database;
  dialect: Dialect;
  operators: OperatorStore;
  contests: ContestStore;
  initiatives: InitiativeStore;
  rolls: RollLog;
  rollRequests: RollRequestStore;
  servers: ServerStore;
  tables: TableStore;
  close(): Promise<void>;
}

export async function openStore(databaseUrl: string, log?: Logger): Promise<Store> {
  const opened = await openDatabase(databaseUrl);
  const { db, direct } = opened;
  // Names keyed before issue 11 exist in SQLite files only; a PostgreSQL database is written by this bot (or copied
  // from a file it opened first, `npm run db:copy`).
  if (opened.dialect === 'sqlite') await rekeyNames(db, log);
  return {
    db,
    dialect: opened.dialect,
    operators: new OperatorStore(db),
    contests: new ContestStore(db),
    initiatives: new InitiativeStore(db),
    rolls: new RollLog(db, direct),
    rollRequests: new RollRequestStore(db),
    servers: new ServerStore(db),
    tables: new TableStore(db),
    close: () => opened.close(),
  };
}
