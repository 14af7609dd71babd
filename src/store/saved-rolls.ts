/** Saved rolls (src/engine/saved-rolls.ts): on a sheet, or shared with the server; a name is unique within one. */
import { readInvocation, invocationJson, type RollInvocation } from '../engine/invocation.js';
import { closestNames, nameKey } from '../engine/names.js';
import { Refused } from '../engine/refusals.js';
import { SAVED_ROLL_LIMITS, type SavedRoll, type SavedRollScope } from '../engine/saved-rolls.js';
import { transaction } from './database.js';
import type { Database } from './database-client.js';

interface SavedRollRow {
  id: number;
  scope: string;
  name: string;
  roll: string;
  createdBy: string;
}

/** A row whose stored roll no longer reads (a later version's, a hand edit) is left out rather than failing the list. */
function fromRow(row: SavedRollRow): SavedRoll | null {
  const invocation = readInvocation(row.roll);
  return invocation ? { id: row.id, scope: row.scope as SavedRollScope, name: row.name, invocation, createdBy: row.createdBy } : null;
}

function operatorIdOf(scope: SavedRollScope): number | null {
  return scope === 'server' ? null : Number(scope.slice('operator:'.length));
}

function mostIn(scope: SavedRollScope): number {
  return scope === 'server' ? SAVED_ROLL_LIMITS.perServer : SAVED_ROLL_LIMITS.perSheet;
}

export class SavedRollStore {
  constructor(private readonly db: Database) {}

  /** The saved rolls of one scope, by name. */
  async list(guildId: string, scope: SavedRollScope): Promise<SavedRoll[]> {
    const rows = await this.db.savedRoll.findMany({ where: { guildId, scope }, orderBy: { nameKey: 'asc' } });
    return rows.map(fromRow).filter((saved): saved is SavedRoll => saved !== null);
  }

  /** The first of `scopes` (in order) holding a roll of this name. */
  async find(guildId: string, scopes: readonly SavedRollScope[], name: string): Promise<SavedRoll | null> {
    const rows = await this.db.savedRoll.findMany({ where: { guildId, scope: { in: [...scopes] }, nameKey: nameKey(name) } });
    for (const scope of scopes) {
      const row = rows.find((candidate) => candidate.scope === scope);
      if (row) return fromRow(row);
    }
    return null;
  }

  /** A saved roll by the name a member typed; refused with the nearest names when there is none. */
  async require(guildId: string, scopes: readonly SavedRollScope[], name: string): Promise<SavedRoll> {
    const found = await this.find(guildId, scopes, name);
    if (found) return found;
    const names = (await this.db.savedRoll.findMany({ where: { guildId, scope: { in: [...scopes] } }, select: { name: true } })).map((row) => row.name);
    throw new Refused({ kind: 'no-such-saved-roll', typed: name.trim().slice(0, 60), suggestions: closestNames(name, names) });
  }

  /**
   * Saves under the name, replacing the scope's roll of the same name (the answer says so); a new name past the
   * scope's limit is refused, counted in the same transaction so two saves at once cannot pass it.
   */
  async save(guildId: string, scope: SavedRollScope, name: string, invocation: RollInvocation, createdBy: string): Promise<{ replaced: boolean }> {
    const roll = invocationJson(invocation);
    if (roll === null) throw new Refused({ kind: 'saved-roll-too-long' });
    const key = nameKey(name);
    return transaction(this.db, async (tx) => {
      const existing = await tx.savedRoll.findUnique({ where: { guildId_scope_nameKey: { guildId, scope, nameKey: key } } });
      if (existing) {
        await tx.savedRoll.update({ where: { id: existing.id }, data: { name, roll, createdBy } });
        return { replaced: true };
      }
      const count = await tx.savedRoll.count({ where: { guildId, scope } });
      if (count >= mostIn(scope)) throw new Refused({ kind: 'saved-roll-limit', shared: scope === 'server', most: mostIn(scope) });
      await tx.savedRoll.create({ data: { guildId, scope, operatorId: operatorIdOf(scope), name, nameKey: key, roll, createdBy } });
      return { replaced: false };
    });
  }

  /** Deletes the scope's roll of this name; the name as it was saved, or null when there was none. */
  async delete(guildId: string, scope: SavedRollScope, name: string): Promise<string | null> {
    const existing = await this.db.savedRoll.findUnique({ where: { guildId_scope_nameKey: { guildId, scope, nameKey: nameKey(name) } } });
    if (!existing) return null;
    const { count } = await this.db.savedRoll.deleteMany({ where: { id: existing.id } });
    return count === 1 ? existing.name : null;
  }
}
