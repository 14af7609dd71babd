/**
 * Names are matched by their key (`nameKey`), which since issue 11 is the NFKC form of the name: "Ｃｌｉｍｂｉｎｇ"
 * and "Climbing" are one skill. Rows keyed before that keep their old key, which a look-up by the new key would miss
 * (a skill that can no longer be set or removed): they are re-keyed once, when the database is first opened by a
 * bot that knows the new keys. SQLite's `user_version` (unused by Prisma's migrations) records that it was done.
 */
import type { Logger } from '../log.js';
import { nameKey } from '../engine/names.js';
import { statement, type SqlDriverAdapter } from './sqlite-adapter.js';

/** Bump when `nameKey` changes what it makes of a stored name. */
const NAME_KEYS_VERSION = 1;
const KEYED_TABLES = ['Operator', 'Skill', 'Archetype', 'Condition', 'Attribute', 'OutcomeTable'] as const;

/**
 * On the store's one connection, through the driver adapter Prisma uses (sqlite-adapter.ts): it runs as the store
 * opens, while Prisma's client is still starting in the background (database.ts, warmUp).
 */
export async function rekeyNames(connection: SqlDriverAdapter, log?: Logger): Promise<void> {
  const version = await connection.queryRaw(statement('PRAGMA user_version'));
  if (Number(version.rows[0]?.[0] ?? 0) >= NAME_KEYS_VERSION) return;
  for (const table of KEYED_TABLES) {
    const { rows } = await connection.queryRaw(statement(`SELECT "id", "name", "nameKey" FROM "${table}"`));
    for (const [id, name, stored] of rows as Array<[number | bigint, string, string]>) {
      const key = nameKey(name);
      if (key === stored) continue;
      try {
        await connection.executeRaw(statement(`UPDATE "${table}" SET "nameKey" = ? WHERE "id" = ?`, key, Number(id)));
      } catch (error) {
        // Two names told apart before are one now (the same name in two Unicode forms, on one sheet): the first
        // takes the key; the other keeps its old one, so nothing is lost, and the warning says where it is.
        log?.warn({ table, id: Number(id), err: error }, 'a name is now the same as another one in its place; left under its old key');
      }
    }
  }
  await connection.executeRaw(statement(`PRAGMA user_version = ${NAME_KEYS_VERSION}`));
}
