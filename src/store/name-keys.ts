/**
 * Names are matched by their key (`nameKey`), which since issue 11 is the NFKC form of the name: "Ｃｌｉｍｂｉｎｇ"
 * and "Climbing" are one skill. Rows keyed before that keep their old key, which a look-up by the new key would miss
 * (a skill that can no longer be set or removed): they are re-keyed once, when the database is first opened by a
 * bot that knows the new keys. SQLite's `user_version` (unused by Prisma's migrations) records that it was done.
 */
import type { Logger } from '../log.js';
import { nameKey } from '../engine/names.js';
import type { DirectWrites } from './database.js';

/** Bump when `nameKey` changes what it makes of a stored name. */
const NAME_KEYS_VERSION = 1;
const KEYED_TABLES = ['Operator', 'Skill', 'Archetype', 'Condition', 'Attribute', 'OutcomeTable'] as const;

/** On the store's own connection: it runs as the store opens, before any command needs Prisma (servers.ts). */
export async function rekeyNames(direct: DirectWrites, log?: Logger): Promise<void> {
  const [row] = await direct.rows<{ user_version: number | bigint }>({ sql: 'PRAGMA user_version', values: [] });
  if (Number(row?.user_version ?? 0) >= NAME_KEYS_VERSION) return;
  for (const table of KEYED_TABLES) {
    const rows = await direct.rows<{ id: number | bigint; name: string; nameKey: string }>({ sql: `SELECT "id", "name", "nameKey" FROM "${table}"`, values: [] });
    for (const { id, name, nameKey: stored } of rows) {
      const key = nameKey(name);
      if (key === stored) continue;
      try {
        await direct.run({ sql: `UPDATE "${table}" SET "nameKey" = ? WHERE "id" = ?`, values: [key, Number(id)] });
      } catch (error) {
        // Two names told apart before are one now (the same name in two Unicode forms, on one sheet): the first
        // takes the key; the other keeps its old one, so nothing is lost, and the warning says where it is.
        log?.warn({ table, id: Number(id), err: error }, 'a name is now the same as another one in its place; left under its old key');
      }
    }
  }
  await direct.run({ sql: `PRAGMA user_version = ${NAME_KEYS_VERSION}`, values: [] });
}
