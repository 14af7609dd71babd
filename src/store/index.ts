/** The store: the repositories over the one database. Nothing else in the bot talks to Prisma. */
import { ContestStore } from './contests.js';
import { openDatabase, type Database } from './database.js';
import { OperatorStore } from './operators.js';
import { RollRequestStore } from './roll-requests.js';
import { RollLog } from './rolls.js';
import { ServerStore } from './servers.js';
import { TableStore } from './tables.js';

export interface Store {
  db: Database;
  operators: OperatorStore;
  contests: ContestStore;
  rolls: RollLog;
  rollRequests: RollRequestStore;
  servers: ServerStore;
  tables: TableStore;
  close(): Promise<void>;
}

export async function openStore(databaseUrl: string): Promise<Store> {
  const db = await openDatabase(databaseUrl);
  return {
    db,
    operators: new OperatorStore(db),
    contests: new ContestStore(db),
    rolls: new RollLog(db),
    rollRequests: new RollRequestStore(db),
    servers: new ServerStore(db),
    tables: new TableStore(db),
    close: () => db.$disconnect(),
  };
}
