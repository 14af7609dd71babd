/** A server's outcome tables (RULES 1.4). Rows are stored as one JSON list, written only after a full check. */
import { Refused } from '../engine/refusals.js';
import { closestNames, lookAlikeIn, nameKey } from '../engine/names.js';
import { TABLE_LIMITS, tableRowsSchema, type OutcomeTable } from '../engine/tables.js';
import { transaction } from './database.js';
import type { Database } from './database-client.js';
import { readStored } from './stored-json.js';

function fromRow(row: { id: number; name: string; die: string; asks: string; skill: string | null; rows: string }): OutcomeTable {
  return { name: row.name, die: row.die, asks: row.asks, skill: row.skill, rows: readStored(tableRowsSchema, row.rows, { table: 'OutcomeTable', id: row.id, column: 'rows' }) };
}

export class TableStore {
  constructor(private readonly db: Database) {}

  async find(guildId: string, name: string): Promise<OutcomeTable | null> {
    const row = await this.db.outcomeTable.findUnique({ where: { guildId_nameKey: { guildId, nameKey: nameKey(name) } } });
    return row ? fromRow(row) : null;
  }

  /** A table by the name a user typed; a clear error with the closest names when there is none. */
  async require(guildId: string, name: string): Promise<OutcomeTable> {
    const table = await this.find(guildId, name);
    if (table) return table;
    const suggestions = closestNames(name, await this.names(guildId));
    throw new Refused({ kind: 'no-such-table', typed: name.trim(), suggestions });
  }

  async names(guildId: string): Promise<string[]> {
    const rows = await this.db.outcomeTable.findMany({ where: { guildId }, select: { name: true }, orderBy: { name: 'asc' } });
    return rows.map((row) => row.name);
  }

  async list(guildId: string): Promise<OutcomeTable[]> {
    const rows = await this.db.outcomeTable.findMany({ where: { guildId }, orderBy: { name: 'asc' } });
    return rows.map(fromRow);
  }

  /**
   * Creates the table, or replaces the one with the same name; returns whether it replaced one. A new name that
   * looks just like another table's is refused (names.ts, `lookAlikeIn`).
   */
  async save(guildId: string, table: OutcomeTable): Promise<{ replaced: boolean }> {
    return transaction(this.db, async (tx) => {
      const key = nameKey(table.name);
      const existing = await tx.outcomeTable.findUnique({ where: { guildId_nameKey: { guildId, nameKey: key } } });
      const data = { name: table.name, die: table.die, asks: table.asks, skill: table.skill, rows: JSON.stringify(table.rows) };
      if (existing) {
        await tx.outcomeTable.update({ where: { id: existing.id }, data });
        return { replaced: true };
      }
      const count = await tx.outcomeTable.count({ where: { guildId } });
      if (count >= TABLE_LIMITS.tablesPerServer) {
        throw new Refused({ kind: 'table-limit', count, most: TABLE_LIMITS.tablesPerServer });
      }
      // A name that looks just like another table's would be rolled by mistake: refused, naming it.
      const names = (await tx.outcomeTable.findMany({ where: { guildId }, select: { name: true } })).map((row) => row.name);
      const lookAlike = lookAlikeIn(table.name, names);
      if (lookAlike) throw new Refused({ kind: 'name-looks-alike', list: 'table', name: table.name, existing: lookAlike });
      await tx.outcomeTable.create({ data: { guildId, nameKey: key, ...data } });
      return { replaced: false };
    });
  }

  async delete(guildId: string, name: string): Promise<boolean> {
    const { count } = await this.db.outcomeTable.deleteMany({ where: { guildId, nameKey: nameKey(name) } });
    return count > 0;
  }
}
