/**
 * Operator sheets in the database. Every method takes the acting user's scope (server + owner) and returns
 * engine types; limits and unique names are checked inside one transaction, so nothing half-written remains.
 */
import { sheetScope } from '../engine/saved-rolls.js';
import { cleanName, closestNames, lookAlikeIn, nameKey } from '../engine/names.js';
import { Refused, type Refusal, type SheetEntryKind } from '../engine/refusals.js';
import { NPC_OWNER_ID, SHEET_LIMITS, type ConditionEntry, type OperatorSheet } from '../engine/sheet.js';
import { DEFAULT_SYSTEM, type SystemId } from '../engine/systems/index.js';
import type { ImportedSheet } from '../engine/sheet-file.js';
import type { Prisma } from '../generated/prisma/client.js';
import { isIdClash, isRowId, transaction } from './database.js';
import type { Database } from './database-client.js';
import { insertRoll, type RollEntry } from './rolls.js';
import { processLocalBus, type CacheBus } from './cache-bus.js';
import { ReadCache } from './read-cache.js';
import { readStored, storedNameKeysSchema } from './stored-json.js';

/**
 * The sheet a change is made to: its id and the server it belongs to. A change names the server so that a sheet id
 * from another server (a forged or stale button) is not found, exactly as an id never used.
 */
export type SheetRef = Pick<OperatorSheet, 'id' | 'guildId'>;

/** Whose sheets: a user's in a server, or the server's NPCs (`npcOwner`). */
export interface SheetOwner {
  guildId: string;
  ownerId: string;
}

/** The scope of a server's NPC sheets: every method below works on NPCs when given it. */
export function npcOwner(guildId: string): SheetOwner {
  return { guildId, ownerId: NPC_OWNER_ID };
}

/** Whether a scope is the server's NPCs: their refusals speak of NPCs, and they have their own limit. */
function isNpcScope(owner: SheetOwner): boolean {
  return owner.ownerId === NPC_OWNER_ID;
}

const withContents = {
  skills: { orderBy: { name: 'asc' } },
  archetypes: { orderBy: { name: 'asc' } },
  conditions: { orderBy: { name: 'asc' } },
  attributes: { orderBy: { name: 'asc' } },
} as const;
type OperatorRow = Prisma.OperatorGetPayload<{ include: typeof withContents }>;

function toSheet(row: OperatorRow): OperatorSheet {
  return {
    id: row.id,
    guildId: row.guildId,
    ownerId: row.ownerId,
    name: row.name,
    system: row.system,
    active: row.active,
    notes: row.notes,
    skills: row.skills.map(({ name, level }) => ({ name, level })),
    archetypes: row.archetypes.map(({ name, modifier }) => ({ name, modifier })),
    attributes: row.attributes.map(({ name, value }) => ({ name, value })),
    conditions: row.conditions.map(
      (condition): ConditionEntry => ({
        name: condition.name,
        modifier: condition.modifier,
        skills: condition.skillKeys === null ? null : readStored(storedNameKeysSchema, condition.skillKeys, { table: 'Condition', id: condition.id, column: 'skillKeys' }),
        expiresAt: condition.expiresAt,
      }),
    ),
    ...(row.avatarUrl ? { avatarUrl: row.avatarUrl } : {}),
  };
}

type Tx = Prisma.TransactionClient;

/** An attribute's value before and after a change (`changeAttribute`). */
export interface AttributeChange {
  name: string;
  before: number;
  after: number;
}

export type NumberedKind = 'skill' | 'archetype' | 'attribute';
const NUMBERED = {
  skill: { field: 'level', limit: SHEET_LIMITS.skills },
  archetype: { field: 'modifier', limit: SHEET_LIMITS.archetypes },
  attribute: { field: 'value', limit: SHEET_LIMITS.attributes },
} as const;
/** A sheet's list of named entries, as the look-alike check reads it. */
interface NamedEntries {
  findMany(args: { where: { operatorId: number }; select: { name: true } }): Promise<Array<{ name: string }>>;
}
/** A numbered table as a list set at once reads it: every entry with its number. */
interface ListedTable {
  findMany(args: unknown): Promise<Array<Record<string, unknown>>>;
  update(args: unknown): Promise<unknown>;
  create(args: unknown): Promise<unknown>;
}
interface NumberedTable extends NamedEntries {
  findUnique(args: unknown): Promise<({ id: number } & Record<string, unknown>) | null>;
  update(args: unknown): Promise<unknown>;
  count(args: unknown): Promise<number>;
  create(args: unknown): Promise<unknown>;
}

/** One entry of a list set at once (`setEntries`): a skill's level, an archetype's modifier or an attribute's value. */
export interface NumberedEntry {
  kind: NumberedKind;
  name: string;
  value: number;
}

/** A refusal of one entry of a list (`setEntries`), with the entry's index in it, so the answer can name the entry. */
export class EntryRefused extends Refused {
  constructor(
    refusal: Refusal,
    readonly index: number,
  ) {
    super(refusal);
  }
}

/** Enough for every sheet in use on a busy bot; a cached sheet takes a few kilobytes. */
const CACHED_SHEETS = 20_000;
/** A scope's whole list is up to ten sheets: fewer kept, enough for the players pressing a contest's Accept lately. */
const CACHED_LISTS = 2_000;

/** Cache keys: a scope's active sheet of a system, its current sheet, a sheet by name, a sheet by id. */
const scopeKey = (owner: SheetOwner): string => `${owner.guildId}/${owner.ownerId}/`;
const activeKey = (owner: SheetOwner, system: SystemId): string => `${scopeKey(owner)}active/${system}`;
const currentKey = (owner: SheetOwner): string => `${scopeKey(owner)}current`;
const nameCacheKey = (owner: SheetOwner, name: string): string => `${scopeKey(owner)}name/${nameKey(name)}`;
const idKey = (id: number): string => `id/${id}`;

/**
 * What a write drops entries by (read-cache.ts): a scope's tag is on every entry of that scope's keys and on every
 * entry holding one of its sheets; a sheet's tag on every entry (and list) holding that sheet.
 */
const scopeTag = (guildId: string, ownerId: string): string => `scope ${guildId}/${ownerId}`;
const sheetTag = (id: number): string => `sheet ${id}`;
/** The scope a key is of; null for a key by id. */
function scopeOfKey(key: string): string | null {
  if (key.startsWith('id/')) return null;
  const [guildId, ownerId] = key.split('/', 2);
  return scopeTag(guildId!, ownerId!);
}
function sheetTags(key: string, sheet: OperatorSheet | null): string[] {
  const tags: string[] = [];
  if (sheet) tags.push(sheetTag(sheet.id));
  // A sheet with no owner is in no player's scope (as no write to a scope names it).
  if (sheet?.ownerId != null) tags.push(scopeTag(sheet.guildId, sheet.ownerId));
  const scope = scopeOfKey(key);
  if (scope !== null && !tags.includes(scope)) tags.push(scope);
  return tags;
}
function listTags(key: string, sheets: OperatorSheet[]): string[] {
  return [scopeOfKey(key)!, ...sheets.map((sheet) => sheetTag(sheet.id))];
}

/** What a write changed, as announced to the other processes (cache-bus.ts): a scope's sheets, or one sheet. */
type SheetChange = { scope: [guildId: string, ownerId: string] } | { sheet: number };

/** Callers may change what they are given; the cached sheet must stay as stored. (structuredClone is 10× slower.) */
function copy(sheet: OperatorSheet | null): OperatorSheet | null {
  if (!sheet) return null;
  return {
    ...sheet,
    skills: sheet.skills.map((skill) => ({ ...skill })),
    archetypes: sheet.archetypes.map((archetype) => ({ ...archetype })),
    attributes: sheet.attributes.map((attribute) => ({ ...attribute })),
    conditions: sheet.conditions.map((condition) => ({
      ...condition,
      skills: condition.skills === null ? null : [...condition.skills],
      expiresAt: condition.expiresAt === null ? null : new Date(condition.expiresAt),
    })),
  };
}

export class OperatorStore {
  /**
   * Sheets as last read. Only found sheets and a scope's "no active sheet" are kept: a name or id not found now
   * may exist after the next create. Every write below drops what it may have changed.
   */
  private readonly cache: ReadCache<string, OperatorSheet | null>;
  /** Each scope's sheets as `list` last read them, under the scope's key; dropped with any of their sheets. */
  private readonly lists: ReadCache<string, OperatorSheet[]>;

  constructor(
    private readonly db: Database,
    private readonly bus: CacheBus = processLocalBus(),
  ) {
    const { entryTtlMs: ttlMs, now } = bus.timing;
    this.cache = new ReadCache({ maxEntries: CACHED_SHEETS, ttlMs, now, tagsOf: sheetTags });
    this.lists = new ReadCache({ maxEntries: CACHED_LISTS, ttlMs, now, tagsOf: listTags });
    bus.join('sheets', {
      forget: (change) => this.forget(change as SheetChange),
      setCaching: (on) => {
        this.cache.setCaching(on);
        this.lists.setCaching(on);
      },
    });
  }

  private forget(change: SheetChange): void {
    const tag = 'sheet' in change ? sheetTag(change.sheet) : scopeTag(...change.scope);
    this.cache.invalidate(tag);
    this.lists.invalidate(tag);
  }

  /** After a write (committed or not): forgets what it may have changed here, then tells the other processes. */
  private async changed(change: SheetChange): Promise<void> {
    this.forget(change);
    await this.bus.announce('sheets', change);
  }

  /** Runs a write to a scope's sheets (which is active, names, adding or deleting), then forgets that scope. */
  private async writingScope<T>(owner: SheetOwner, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      await this.changed({ scope: [owner.guildId, owner.ownerId] });
    }
  }

  /** Runs a write to one sheet's contents, then forgets every entry holding that sheet. */
  private async writingSheet<T>(sheetId: number, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      await this.changed({ sheet: sheetId });
    }
  }

  private async cached(key: string, load: () => Promise<OperatorSheet | null>, keepNone: boolean): Promise<OperatorSheet | null> {
    return copy(await this.cache.read(key, load, (sheet) => sheet !== null || keepNone));
  }

  /** All of a scope's sheets, by name. */
  async list(owner: SheetOwner): Promise<OperatorSheet[]> {
    const sheets = await this.lists.read(scopeKey(owner), async () => {
      const rows = await this.db.operator.findMany({
        where: { guildId: owner.guildId, ownerId: owner.ownerId },
        include: withContents,
        orderBy: { name: 'asc' },
      });
      return rows.map(toSheet);
    });
    return sheets.map((sheet) => copy(sheet)!);
  }

  /** A sheet of this server by its id; one of another server is not found, exactly as an id never used. */
  async get(guildId: string, id: number): Promise<OperatorSheet | null> {
    if (!isRowId(id)) return null;
    const sheet = await this.cached(
      idKey(id),
      async () => {
        const row = await this.db.operator.findUnique({ where: { id }, include: withContents });
        return row ? toSheet(row) : null;
      },
      false,
    );
    return sheet?.guildId === guildId ? sheet : null;
  }

  /** Inside a change: the sheet must still exist on its server, or the change is refused and nothing is written. */
  private async requireSheetRow(tx: Tx, sheet: SheetRef): Promise<void> {
    if (!isRowId(sheet.id) || !(await tx.operator.findFirst({ where: { id: sheet.id, guildId: sheet.guildId }, select: { id: true } }))) {
      throw new Refused({ kind: 'sheet-gone' });
    }
  }

  /**
   * The owner's active sheet of a system (RULES 6.1: a sheet belongs to its system, and a player has one active
   * sheet per system). With no active one, the only sheet of that system stands in: a player whose sheets were
   * made when one sheet was active for every system still rolls the one they have.
   */
  async active(owner: SheetOwner, system: SystemId): Promise<OperatorSheet | null> {
    return this.cached(
      activeKey(owner, system),
      async () => {
        // The newest active sheet first; with none active, two rows at most tell whether one sheet is the only one.
        const candidates = await this.db.operator.findMany({
          where: { guildId: owner.guildId, ownerId: owner.ownerId, system },
          orderBy: [{ active: 'desc' }, { updatedAt: 'desc' }, { id: 'desc' }],
          take: 2,
          select: { id: true, active: true },
        });
        const [first] = candidates;
        if (!first || !(first.active || candidates.length === 1)) return null;
        const row = await this.db.operator.findUnique({ where: { id: first.id }, include: withContents });
        return row ? toSheet(row) : null;
      },
      true,
    );
  }

  /**
   * The sheet a player last picked, of any system (the newest `/sheet create`, `/sheet use` or import among the
   * active ones): what `/sheet show`, `/sheet notes` and the entry subcommands change when no sheet is named.
   */
  async current(owner: SheetOwner): Promise<OperatorSheet | null> {
    return this.cached(
      currentKey(owner),
      async () => {
        const row = await this.db.operator.findFirst({
          where: { guildId: owner.guildId, ownerId: owner.ownerId, active: true },
          include: withContents,
          orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
        });
        return row ? toSheet(row) : null;
      },
      true,
    );
  }

  /** The current sheet (`current`), or a clear error saying how to get one. */
  async requireCurrent(owner: SheetOwner, someoneElse?: string): Promise<OperatorSheet> {
    if (isNpcScope(owner)) throw new Refused({ kind: 'npc-unnamed' });
    const sheet = await this.current(owner);
    if (sheet) return sheet;
    const count = await this.db.operator.count({ where: { guildId: owner.guildId, ownerId: owner.ownerId } });
    throw new Refused({ kind: 'no-current-sheet', someoneElse: someoneElse ?? null, hasSheets: count > 0 });
  }

  /**
   * The active sheet of `system`, or a clear error: which sheet the command needs and how to make or pick one.
   * `need.command` is the command asking (`/dispatch`), else the system's own; `need.someoneElse` names the owner
   * when it is not the acting user, so the message speaks of them.
   */
  async requireActive(owner: SheetOwner, system: SystemId, need: { command?: string; someoneElse?: string } = {}): Promise<OperatorSheet> {
    if (isNpcScope(owner)) throw new Refused({ kind: 'npc-unnamed' });
    const sheet = await this.active(owner, system);
    if (sheet) return sheet;
    const ofSystem = await this.db.operator.findMany({ where: { guildId: owner.guildId, ownerId: owner.ownerId, system }, select: { name: true }, orderBy: { name: 'asc' } });
    // The owner's sheets of other systems are named only to the acting user who has none of this one.
    const others =
      need.someoneElse || ofSystem.length > 0
        ? []
        : await this.db.operator.findMany({ where: { guildId: owner.guildId, ownerId: owner.ownerId }, select: { name: true, system: true }, orderBy: { name: 'asc' }, take: 3 });
    throw new Refused({
      kind: 'no-active-sheet',
      system,
      command: need.command ?? null,
      someoneElse: need.someoneElse ?? null,
      sheets: ofSystem.map((row) => row.name),
      others,
    });
  }

  /**
   * A sheet by name, or with no name the active sheet of `system` (null: the current sheet, any system). A named
   * sheet must be of `system` when one is given: a command never reads a sheet of another system.
   */
  async byNameOrActive(owner: SheetOwner, name: string | null | undefined, system: SystemId | null, need: { command?: string; someoneElse?: string } = {}): Promise<OperatorSheet> {
    if (name === null || name === undefined || cleanName(name) === '') {
      return system === null ? this.requireCurrent(owner, need.someoneElse) : this.requireActive(owner, system, need);
    }
    const sheet =
      (await this.cached(
        nameCacheKey(owner, name),
        async () => {
          const row = await this.db.operator.findFirst({
            where: { guildId: owner.guildId, ownerId: owner.ownerId, nameKey: nameKey(name) },
            include: withContents,
          });
          return row ? toSheet(row) : null;
        },
        false,
      )) ?? toSheet(await this.requireRow(this.db, owner, name));
    if (system !== null && sheet.system !== system) {
      throw new Refused({ kind: 'wrong-system', sheet: sheet.name, sheetSystem: sheet.system, system, command: need.command ?? null, npc: isNpcScope(owner) });
    }
    return sheet;
  }

  private async requireRow(tx: Tx | Database, owner: SheetOwner, name: string): Promise<OperatorRow> {
    const row = await tx.operator.findFirst({
      where: { guildId: owner.guildId, ownerId: owner.ownerId, nameKey: nameKey(name) },
      include: withContents,
    });
    if (row) return row;
    const names = (await tx.operator.findMany({ where: { guildId: owner.guildId, ownerId: owner.ownerId }, select: { name: true } })).map(
      (sheet) => sheet.name,
    );
    throw new Refused({ kind: 'no-such-sheet', typed: cleanName(name), npc: isNpcScope(owner), suggestions: closestNames(name, names) });
  }

  /**
   * Refuses a name another sheet (NPC) of the owner has, or looks just like (names.ts, `lookAlikeIn`). The owner's
   * names are read in the transaction: on PostgreSQL two look-alikes created at once conflict, and one runs again.
   */
  private async assertNameFree(tx: Tx, owner: SheetOwner, name: string, exceptId?: number): Promise<void> {
    const npc = isNpcScope(owner);
    const others = (await tx.operator.findMany({ where: { guildId: owner.guildId, ownerId: owner.ownerId }, select: { id: true, name: true } })).filter(
      (row) => row.id !== exceptId,
    );
    const key = nameKey(name);
    const clash = others.find((row) => nameKey(row.name) === key);
    if (clash) throw new Refused({ kind: 'sheet-name-taken', name: clash.name, npc });
    const lookAlike = lookAlikeIn(name, others.map((row) => row.name));
    if (lookAlike) throw new Refused({ kind: 'name-looks-alike', list: npc ? 'npc' : 'sheet', name: cleanName(name), existing: lookAlike });
  }

  /** Refuses a new entry name that looks just like one the sheet has in that list (names.ts, `lookAlikeIn`). */
  private async assertNoLookAlike(table: NamedEntries, kind: SheetEntryKind, sheetId: number, name: string): Promise<void> {
    const names = (await table.findMany({ where: { operatorId: sheetId }, select: { name: true } })).map((row) => row.name);
    const lookAlike = lookAlikeIn(name, names);
    if (lookAlike) throw new Refused({ kind: 'name-looks-alike', list: kind, name: cleanName(name), existing: lookAlike });
  }

  /** Creates a sheet and makes it the active one of its system (NPCs have no active one); `system` is its rule system. */
  async create(owner: SheetOwner, name: string, system: SystemId = DEFAULT_SYSTEM): Promise<OperatorSheet> {
    return this.writingScope(owner, async () => {
      const npc = isNpcScope(owner);
      const most = npc ? SHEET_LIMITS.npcsPerServer : SHEET_LIMITS.sheetsPerUser;
      return transaction(this.db, async (tx) => {
        const count = await tx.operator.count({ where: { guildId: owner.guildId, ownerId: owner.ownerId } });
        if (count >= most) throw new Refused({ kind: 'sheet-limit', count, most, npc });
        await this.assertNameFree(tx, owner, name);
        if (!npc) await tx.operator.updateMany({ where: { guildId: owner.guildId, ownerId: owner.ownerId, system, active: true }, data: { active: false } });
        const row = await tx.operator.create({
          data: { guildId: owner.guildId, ownerId: owner.ownerId, name, nameKey: nameKey(name), active: !npc, system },
          include: withContents,
        });
        return toSheet(row);
      });
    });
  }

  /** Makes a sheet the active one of its system; the active sheets of other systems stay active. */
  async use(owner: SheetOwner, name: string): Promise<OperatorSheet> {
    return this.writingScope(owner, async () => {
      return transaction(this.db, async (tx) => {
        const row = await this.requireRow(tx, owner, name);
        await tx.operator.updateMany({ where: { guildId: owner.guildId, ownerId: owner.ownerId, system: row.system, active: true, NOT: { id: row.id } }, data: { active: false } });
        await tx.operator.update({ where: { id: row.id }, data: { active: true } });
        return toSheet({ ...row, active: true });
      });
    });
  }

  async rename(owner: SheetOwner, sheetName: string | null | undefined, newName: string): Promise<{ before: string; sheet: OperatorSheet }> {
    return this.writingScope(owner, async () => {
      const sheet = await this.byNameOrActive(owner, sheetName, null);
      return transaction(this.db, async (tx) => {
        await this.assertNameFree(tx, owner, newName, sheet.id);
        const row = await tx.operator.update({ where: { id: sheet.id }, data: { name: newName, nameKey: nameKey(newName) }, include: withContents });
        return { before: sheet.name, sheet: toSheet(row) };
      });
    });
  }

  /** Deletes a sheet by id, only if it still belongs to this owner (a confirm button carries the id). */
  async delete(owner: SheetOwner, sheetId: number): Promise<OperatorSheet | null> {
    return this.writingScope(owner, async () => {
      if (!isRowId(sheetId)) return null;
      return transaction(this.db, async (tx) => {
        const row = await tx.operator.findFirst({ where: { id: sheetId, guildId: owner.guildId, ownerId: owner.ownerId }, include: withContents });
        if (!row) return null;
        await tx.operator.delete({ where: { id: row.id } });
        return toSheet(row);
      });
    });
  }

  /** An NPC's picture (`/npc avatar`); null clears it. */
  async setAvatar(sheet: SheetRef, avatarUrl: string | null): Promise<void> {
    return this.writingSheet(sheet.id, async () => {
      const { count } = await this.db.operator.updateMany({ where: { id: sheet.id, guildId: sheet.guildId }, data: { avatarUrl } });
      if (count === 0) throw new Refused({ kind: 'sheet-gone' });
    });
  }

  async setNotes(sheet: SheetRef, notes: string): Promise<void> {
    return this.writingSheet(sheet.id, async () => {
      const { count } = await this.db.operator.updateMany({ where: { id: sheet.id, guildId: sheet.guildId }, data: { notes } });
      if (count === 0) throw new Refused({ kind: 'sheet-gone' });
    });
  }

  /**
   * Sets a named number on a sheet (a skill's level, an archetype's modifier, an attribute's value), adding the
   * entry if new within the sheet's limit. Returns the value it had before (null if new).
   */
  private async setNumber(kind: NumberedKind, sheet: SheetRef, name: string, value: number): Promise<number | null> {
    const sheetId = sheet.id;
    return this.writingSheet(sheetId, async () => {
      const { field, limit } = NUMBERED[kind];
      return transaction(this.db, async (tx) => {
        await this.requireSheetRow(tx, sheet);
        // The three tables share this shape; Prisma's delegates are typed apart, so they meet here.
        const table = tx[kind] as unknown as NumberedTable;
        const key = nameKey(name);
        const existing = await table.findUnique({ where: { operatorId_nameKey: { operatorId: sheetId, nameKey: key } } });
        if (existing) {
          await table.update({ where: { id: existing.id }, data: { name, [field]: value } });
          return existing[field] as number;
        }
        if ((await table.count({ where: { operatorId: sheetId } })) >= limit) {
          throw new Refused({ kind: 'entry-limit', entry: kind, most: limit });
        }
        await this.assertNoLookAlike(table, kind, sheetId, name);
        await table.create({ data: { operatorId: sheetId, name, nameKey: key, [field]: value } });
        return null;
      });
    });
  }

  /**
   * Sets a list of named numbers on a sheet at once, each as `setNumber` sets one (an entry already there changes,
   * a new one is added within the sheet's limit and may not look just like one its list has, the list's new ones
   * included), all in one transaction: when one entry is refused (`EntryRefused`, naming it) nothing is written.
   * Returns the value each entry had before (null if new), in order.
   */
  async setEntries(sheet: SheetRef, entries: readonly NumberedEntry[]): Promise<Array<number | null>> {
    const sheetId = sheet.id;
    return this.writingSheet(sheetId, async () => {
      return transaction(this.db, async (tx) => {
        await this.requireSheetRow(tx, sheet);
        // Each kind's entries are read once: what the list adds joins them, for the limit and the look-alikes.
        const stored = new Map<NumberedKind, Array<{ id: number; name: string; nameKey: string; value: number }>>();
        const before: Array<number | null> = [];
        for (const [index, entry] of entries.entries()) {
          const { field, limit } = NUMBERED[entry.kind];
          const table = tx[entry.kind] as unknown as ListedTable;
          let rows = stored.get(entry.kind);
          if (!rows) {
            const found = await table.findMany({ where: { operatorId: sheetId }, select: { id: true, name: true, nameKey: true, [field]: true } });
            rows = found.map((row) => ({ id: row.id as number, name: row.name as string, nameKey: row.nameKey as string, value: row[field] as number }));
            stored.set(entry.kind, rows);
          }
          const key = nameKey(entry.name);
          const existing = rows.find((row) => row.nameKey === key);
          if (existing) {
            await table.update({ where: { id: existing.id }, data: { name: entry.name, [field]: entry.value } });
            before.push(existing.value);
            Object.assign(existing, { name: entry.name, value: entry.value });
            continue;
          }
          if (rows.length >= limit) throw new EntryRefused({ kind: 'entry-limit', entry: entry.kind, most: limit }, index);
          const lookAlike = lookAlikeIn(entry.name, rows.map((row) => row.name));
          if (lookAlike) throw new EntryRefused({ kind: 'name-looks-alike', list: entry.kind, name: cleanName(entry.name), existing: lookAlike }, index);
          const created = (await table.create({ data: { operatorId: sheetId, name: entry.name, nameKey: key, [field]: entry.value }, select: { id: true } })) as { id: number };
          rows.push({ id: created.id, name: entry.name, nameKey: key, value: entry.value });
          before.push(null);
        }
        return before;
      });
    });
  }

  setSkill(sheet: SheetRef, name: string, level: number): Promise<number | null> {
    return this.setNumber('skill', sheet, name, level);
  }

  setArchetype(sheet: SheetRef, name: string, modifier: number): Promise<number | null> {
    return this.setNumber('archetype', sheet, name, modifier);
  }

  setAttribute(sheet: SheetRef, name: string, value: number): Promise<number | null> {
    return this.setNumber('attribute', sheet, name, value);
  }

  /**
   * Changes an attribute relative to its stored value (`change` maps the value read to the value written), read and
   * written in one transaction, so two changes at once both count (two hits on one Health). With `once`, the roll
   * it builds from the values before and after is written in the same transaction under its id: when that id is
   * taken (the change was already made) nothing is written and the answer is 'already made'. Null when the sheet
   * has no such attribute.
   */
  async changeAttribute(
    sheet: SheetRef,
    name: string,
    change: (value: number) => number,
    once?: (change: AttributeChange) => RollEntry,
  ): Promise<AttributeChange | 'already made' | null> {
    return this.writingSheet(sheet.id, async () => {
      try {
        return await transaction(this.db, async (tx) => {
          await this.requireSheetRow(tx, sheet);
          const entry = await tx.attribute.findUnique({ where: { operatorId_nameKey: { operatorId: sheet.id, nameKey: nameKey(name) } } });
          if (!entry) return null;
          const changed: AttributeChange = { name: entry.name, before: entry.value, after: change(entry.value) };
          if (once) await insertRoll(tx, once(changed));
          await tx.attribute.update({ where: { id: entry.id }, data: { value: changed.after } });
          return changed;
        });
      } catch (error) {
        if (once && isIdClash(error)) return 'already made';
        throw error;
      }
    });
  }

  /**
   * Adds a condition, or replaces the one with the same name. With `once` (a condition a roll costs, e.g. a push),
   * the rolls are written in the same transaction under their ids: the condition and its rolls land together or not
   * at all; when an id is taken (already made) nothing is written and the answer is 'already made'. With `onlyNew`
   * a condition the sheet already has (active) is not replaced: nothing is written and the answer is 'already there'.
   * With `unless`, rolls whose making voids this one (a tie re-rolled voids a push): if one is stored, nothing is
   * written and the answer is 'voided' (checked in the transaction, so of two made at once only one lands).
   */
  async setCondition(sheet: SheetRef, condition: ConditionEntry, now: Date, once?: { rolls: RollEntry[]; onlyNew?: boolean; unless?: readonly string[] }): Promise<void | 'already made' | 'already there' | 'voided'> {
    const sheetId = sheet.id;
    return this.writingSheet(sheetId, async () => {
      try {
        return await transaction(this.db, async (tx) => {
          await this.requireSheetRow(tx, sheet);
          // Expired conditions are dropped here so they never count against the limit.
          await tx.condition.deleteMany({ where: { operatorId: sheetId, expiresAt: { lte: now } } });
          const key = nameKey(condition.name);
          const existing = await tx.condition.findUnique({ where: { operatorId_nameKey: { operatorId: sheetId, nameKey: key } } });
          if (existing && once?.onlyNew) return 'already there';
          if (once?.unless?.length && (await tx.roll.count({ where: { id: { in: [...once.unless] } } })) > 0) return 'voided';
          for (const roll of once?.rolls ?? []) await insertRoll(tx, roll);
          const data = {
            name: condition.name,
            modifier: condition.modifier,
            skillKeys: condition.skills === null ? null : JSON.stringify(condition.skills),
            expiresAt: condition.expiresAt,
          };
          if (existing) {
            await tx.condition.update({ where: { id: existing.id }, data });
            return;
          }
          const count = await tx.condition.count({ where: { operatorId: sheetId } });
          if (count >= SHEET_LIMITS.conditions) {
            throw new Refused({ kind: 'entry-limit', entry: 'condition', most: SHEET_LIMITS.conditions });
          }
          await this.assertNoLookAlike(tx.condition, 'condition', sheetId, condition.name);
          await tx.condition.create({ data: { operatorId: sheetId, nameKey: key, ...data } });
        });
      } catch (error) {
        if (once && isIdClash(error)) return 'already made';
        throw error;
      }
    });
  }

  /** Removes a named skill, archetype or condition; returns the removed entry's name as stored, or null. */
  async remove(kind: 'skill' | 'archetype' | 'condition' | 'attribute', sheet: SheetRef, name: string): Promise<string | null> {
    return this.writingSheet(sheet.id, async () => {
      if (!(await this.get(sheet.guildId, sheet.id))) return null;
      const where = { operatorId_nameKey: { operatorId: sheet.id, nameKey: nameKey(name) } };
      const table = { skill: this.db.skill, archetype: this.db.archetype, condition: this.db.condition, attribute: this.db.attribute }[kind];
      const existing = await (table as typeof this.db.skill).findUnique({ where });
      if (!existing) return null;
      await (table as typeof this.db.skill).delete({ where });
      return existing.name;
    });
  }

  /**
   * Writes an imported sheet as a new sheet, or over the one with the same name when `replace` is set.
   * All in one transaction: a failure leaves the existing sheet exactly as it was.
   */
  async import(owner: SheetOwner, imported: ImportedSheet, replace: boolean): Promise<{ sheet: OperatorSheet; replaced: boolean }> {
    return this.writingScope(owner, async () => {
      return transaction(this.db, async (tx) => {
        const key = nameKey(imported.name);
        const existing = await tx.operator.findFirst({ where: { guildId: owner.guildId, ownerId: owner.ownerId, nameKey: key } });
        if (existing && !replace) {
          throw new Refused({ kind: 'import-name-taken', name: existing.name });
        }
        const names = (await tx.operator.findMany({ where: { guildId: owner.guildId, ownerId: owner.ownerId }, select: { name: true } })).map((row) => row.name);
        const lookAlike = lookAlikeIn(imported.name, names);
        if (lookAlike) throw new Refused({ kind: 'name-looks-alike', list: isNpcScope(owner) ? 'npc' : 'sheet', name: imported.name, existing: lookAlike });
        if (!existing) {
          const count = await tx.operator.count({ where: { guildId: owner.guildId, ownerId: owner.ownerId } });
          if (count >= SHEET_LIMITS.sheetsPerUser) {
            throw new Refused({ kind: 'import-sheet-limit', count, most: SHEET_LIMITS.sheetsPerUser });
          }
        }
        const contents = {
          skills: { create: imported.skills.map((skill) => ({ ...skill, nameKey: nameKey(skill.name) })) },
          archetypes: { create: imported.archetypes.map((archetype) => ({ ...archetype, nameKey: nameKey(archetype.name) })) },
          attributes: { create: imported.attributes.map((attribute) => ({ ...attribute, nameKey: nameKey(attribute.name) })) },
          conditions: {
            create: imported.conditions.map((condition) => ({
              name: condition.name,
              nameKey: nameKey(condition.name),
              modifier: condition.modifier,
              skillKeys: condition.skills === null ? null : JSON.stringify(condition.skills),
              expiresAt: condition.expiresAt,
            })),
          },
        };
        await tx.operator.updateMany({ where: { guildId: owner.guildId, ownerId: owner.ownerId, system: imported.system, active: true }, data: { active: false } });
        // The file's saved rolls; a file from before saved rolls leaves the replaced sheet's as they were.
        const kept = existing && !imported.rolls ? await tx.savedRoll.findMany({ where: { operatorId: existing.id }, select: { name: true, roll: true, createdBy: true } }) : [];
        const rolls = imported.rolls?.map((saved) => ({ name: saved.name, roll: JSON.stringify(saved.invocation), createdBy: owner.ownerId })) ?? kept;
        if (existing) await tx.operator.delete({ where: { id: existing.id } });
        const row = await tx.operator.create({
          data: {
            guildId: owner.guildId,
            ownerId: owner.ownerId,
            name: imported.name,
            nameKey: key,
            system: imported.system,
            notes: imported.notes,
            active: true,
            ...contents,
          },
          include: withContents,
        });
        for (const saved of rolls) {
          await tx.savedRoll.create({ data: { guildId: owner.guildId, scope: sheetScope(row.id), operatorId: row.id, name: saved.name, nameKey: nameKey(saved.name), roll: saved.roll, createdBy: saved.createdBy } });
        }
        return { sheet: toSheet(row), replaced: existing !== null };
      });
    });
  }
}
