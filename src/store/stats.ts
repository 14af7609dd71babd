/**
 * What `/stats` reads of the roll log: the newest rolls of a scope that carry odds and a verdict, or a D100 face,
 * with only the three columns it weighs. A roll a player may not see (a blind roll not yet revealed, a Dispatcher's
 * secret roll, a roll against a hidden CL) is left out unless a Dispatcher asks: its odds would give away the CL, and
 * its face the dice.
 */
import { isHiddenFrom } from '../engine/blind.js';
import { CALIBRATION_ROLLS_MAX } from '../engine/calibration.js';
import { nameKey } from '../engine/names.js';
import { Prisma } from '../generated/prisma/client.js';
import type { Database } from './database-client.js';

/** Whose rolls: a member's, a sheet's (its owner's rolls in its system, or an NPC's), a span of time; all optional. */
export interface StatsScope {
  guildId: string;
  userId?: string;
  system?: string;
  /** An NPC's rolls, by the name its rolls keep. */
  npc?: string;
  /** Player rolls only (none made for an NPC): a player's sheet. */
  notNpc?: boolean;
  from?: Date;
  /** Null: up to now. */
  to?: Date | null;
}

export interface ScopeRolls {
  /** Rolls with odds and a verdict, oldest first. */
  weighed: Array<{ odds: number; success: boolean }>;
  /** D100 faces, of the same newest rolls. */
  faces: number[];
  /** Whether older rolls of the scope were left out (more than CALIBRATION_ROLLS_MAX). */
  capped: boolean;
}

/** A sheet `/stats sheet:` can name, as its autocomplete lists it. */
export interface StatsSheet {
  id: number;
  name: string;
  ownerId: string | null;
  system: string;
}

/** LIKE's own characters taken literally (with ESCAPE '\'), both databases alike. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, (character) => `\\${character}`);

/*
 * A secret roll and a hidden CL live in the inputs JSON (no column for them): `"secret":true` (folded in by the roll
 * log) and `"hidden":true` (a challenge's hidden CL). JSON escapes every quote inside a string, so typed text cannot
 * make either pattern. A blind roll is left out by the blind rule itself (isHiddenFrom), read per row.
 */
const SEEN_BY_PLAYERS = Prisma.sql` AND "inputs" NOT LIKE '%"secret":true%' AND "inputs" NOT LIKE '%"hidden":true%'`;

export class StatsStore {
  constructor(private readonly db: Database) {}

  /** `limit`: CALIBRATION_ROLLS_MAX but for tests, which need not write 10,000 rows to see the bound work. */
  async rolls(scope: StatsScope, options: { dispatcher: boolean; limit?: number }): Promise<ScopeRolls> {
    const limit = options.limit ?? CALIBRATION_ROLLS_MAX;
    const where = [Prisma.sql`"guildId" = ${scope.guildId}`, Prisma.sql`(("odds" IS NOT NULL AND "success" IS NOT NULL) OR "d100" IS NOT NULL)`];
    if (scope.userId) where.push(Prisma.sql`"userId" = ${scope.userId}`);
    if (scope.system) where.push(Prisma.sql`"system" = ${scope.system}`);
    if (scope.npc !== undefined) where.push(Prisma.sql`"inputs" LIKE ${`%${likeLiteral(`"npc":${JSON.stringify(scope.npc)}`)}%`} ESCAPE '\\'`);
    if (scope.notNpc) where.push(Prisma.sql`"inputs" NOT LIKE '%"npc":%'`);
    if (scope.from) where.push(Prisma.sql`"createdAt" >= ${scope.from}`);
    if (scope.to) where.push(Prisma.sql`"createdAt" <= ${scope.to}`);
    const rows = await this.db.$queryRaw<Array<{ odds: number | null; success: boolean | number | null; d100: number | null; blind: boolean | number; revealedAt: Date | string | null }>>`
      SELECT "odds", "success", "d100", "blind", "revealedAt" FROM "Roll" WHERE ${Prisma.join(where, ' AND ')}${options.dispatcher ? Prisma.empty : SEEN_BY_PLAYERS}
      ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit + 1}`;
    const capped = rows.length > limit;
    const newest = rows.slice(0, limit).reverse();
    const weighed: ScopeRolls['weighed'] = [];
    const faces: number[] = [];
    for (const row of newest) {
      if (isHiddenFrom({ blind: row.blind === true || row.blind === 1, revealedAt: row.revealedAt === null ? null : new Date(row.revealedAt) }, options.dispatcher)) continue;
      // SQLite hands a boolean back as 0 or 1 from a raw query.
      if (row.odds !== null && row.success !== null) weighed.push({ odds: Number(row.odds), success: row.success === true || row.success === 1 });
      if (row.d100 !== null) faces.push(Number(row.d100));
    }
    return { weighed, faces, capped };
  }

  /** Sheets of the server whose name holds `typed` (case aside), the asker's own first: for autocomplete. */
  async sheetsLike(guildId: string, typed: string, askerId: string, limit: number, withNpcs: boolean): Promise<StatsSheet[]> {
    const key = typed.trim() ? nameKey(typed) : '';
    const rows = await this.db.operator.findMany({
      where: { guildId, ...(key ? { nameKey: { contains: key } } : {}), ...(withNpcs ? {} : { ownerId: { not: null } }) },
      select: { id: true, name: true, ownerId: true, system: true },
      orderBy: [{ nameKey: 'asc' }, { id: 'asc' }],
      take: 200,
    });
    return [...rows.filter((row) => row.ownerId === askerId), ...rows.filter((row) => row.ownerId !== askerId)].slice(0, limit);
  }

  /** A sheet by the id its autocomplete gave, or else by its name: the asker's own, an NPC, or the only one so named. */
  async sheet(guildId: string, typed: string, askerId: string): Promise<StatsSheet | 'ambiguous' | null> {
    const select = { id: true, name: true, ownerId: true, system: true } as const;
    if (/^\d{1,9}$/.test(typed)) {
      const byId = await this.db.operator.findFirst({ where: { guildId, id: Number(typed) }, select });
      if (byId) return byId;
    }
    const named = await this.db.operator.findMany({ where: { guildId, nameKey: nameKey(typed) }, select, take: 10 });
    const own = named.find((row) => row.ownerId === askerId);
    if (own) return own;
    const npc = named.find((row) => row.ownerId === null);
    if (npc) return npc;
    if (named.length > 1) return 'ambiguous';
    return named[0] ?? null;
  }
}
