/**
 * The session journal's entries (JournalEntry). The rolls are the roll log's; these are the story around them, written
 * right where it happens. Reading a span back for `/journal export` is here too, the only place that queries them.
 */
import { JOURNAL_DETAILS, isJournalKind, type JournalDetails, type JournalEntry, type JournalKind, type JournalWrite } from '../engine/journal.js';
import { keptFromPlayers } from '../engine/blind.js';
import type { JournalProofRoll, JournalProofSession } from '../engine/commitment.js';
import { isRowId } from './database.js';
import type { Database } from './database-client.js';
import type { Prisma } from '../generated/prisma/client.js';
import { rollInputFacts } from './rolls.js';
import type { SessionStore } from './sessions.js';
import { readStored, readStoredJson } from './stored-json.js';

/** What writes an entry: the client, or a transaction's client when the entry belongs to a change being made. */
export type JournalWriter = Pick<Database, 'journalEntry'> | Prisma.TransactionClient;

export interface NewJournalEntry<K extends JournalKind> {
  guildId: string;
  channelId: string;
  userId: string | null;
  kind: K;
  details: JournalDetails<K>;
  rollId?: string | null;
  secret?: boolean;
  createdAt?: Date;
}

/** Writes one entry through `writer`: inside a store transaction, so the entry and its change land together. */
export async function writeJournalEntry<K extends JournalKind>(writer: JournalWriter, entry: NewJournalEntry<K>): Promise<number> {
  const row = await writer.journalEntry.create({
    data: {
      guildId: entry.guildId,
      channelId: entry.channelId,
      userId: entry.userId,
      kind: entry.kind,
      details: JSON.stringify(JOURNAL_DETAILS[entry.kind].parse(entry.details)),
      rollId: entry.rollId ?? null,
      secret: entry.secret ?? false,
      // The bot's clock, as the roll log's: the database's default is read at another moment, and the story interleaves both.
      createdAt: entry.createdAt ?? new Date(),
    },
  });
  return row.id;
}

/**
 * The entries a change decided (`requestJournal`, `contestJournal`) as the work its transaction runs once it won;
 * undefined when there are none, so a change with nothing to tell opens no transaction for it.
 */
export function journalWork(where: { guildId: string; channelId: string }, writes: readonly JournalWrite[], roll?: { createdAt: Date }): ((tx: Prisma.TransactionClient) => Promise<void>) | undefined {
  if (writes.length === 0) return undefined;
  return async (tx) => {
    for (const write of writes) {
      // Told with the roll the change made: just before it (a contest's terms), or just after it (who won).
      const createdAt = roll ? new Date(roll.createdAt.getTime() + (write.afterRoll ? 1 : 0)) : undefined;
      const { afterRoll: _afterRoll, ...entry } = write;
      await writeJournalEntry(tx, { guildId: where.guildId, channelId: where.channelId, ...entry, ...(createdAt ? { createdAt } : {}) } as NewJournalEntry<JournalKind>);
    }
  };
}

/** Roll rows are read this many at a time while filling a span. */
const ROLL_PAGE = 1000;
const SCENE_PAGE = 200;
const SCENE_PAGES_READ = 10;

const ROLL_FIELDS = {
  id: true,
  channelId: true,
  userId: true,
  kind: true,
  system: true,
  inputs: true,
  seed: true,
  dice: true,
  total: true,
  success: true,
  createdAt: true,
  blind: true,
  revealedAt: true,
  sessionId: true,
  seedIndex: true,
} as const;

/** A roll as the journal shows it: the proof's fields, who made it and where, and whether it is kept from players. */
export interface JournalRoll extends Omit<JournalProofRoll, 'createdAt'> {
  userId: string;
  channelId: string;
  createdAt: Date;
  /** The NPC a Dispatcher rolled for, if any. */
  npc: string | null;
  /** A `secret:` roll, a roll against a hidden CL, or a blind roll not yet revealed. */
  secret: boolean;
}

export interface JournalSpan {
  entries: JournalEntry[];
  rolls: JournalRoll[];
  sessions: JournalProofSession[];
}

type RollRow = { id: string; channelId: string; userId: string; kind: string; system: string; inputs: string; seed: string; dice: string; total: number | null; success: boolean | null; createdAt: Date; blind: boolean; revealedAt: Date | null; sessionId: number | null; seedIndex: number | null };

function journalRollOf(row: RollRow): JournalRoll {
  const facts = rollInputFacts(row);
  return {
    id: row.id,
    kind: row.kind,
    system: row.system,
    inputs: facts.inputs,
    seed: row.seed,
    sessionId: row.sessionId,
    seedIndex: row.seedIndex,
    dice: readStoredJson(row.dice, { table: 'Roll', id: row.id, column: 'dice' }),
    total: row.total,
    success: row.success,
    createdAt: row.createdAt,
    userId: row.userId,
    channelId: row.channelId,
    npc: facts.npc,
    secret: keptFromPlayers({ ...facts, blind: row.blind, revealedAt: row.revealedAt }),
  };
}

type JournalRow = Awaited<ReturnType<Database['journalEntry']['findFirstOrThrow']>>;

/** A stored row as an entry; null for a kind this version does not know (written by a newer one). */
export function journalEntryOf(row: JournalRow): JournalEntry | null {
  if (!isJournalKind(row.kind)) return null;
  const details = readStored(JOURNAL_DETAILS[row.kind], row.details, { table: 'JournalEntry', id: row.id, column: 'details' });
  return { ...row, kind: row.kind, details } as JournalEntry;
}

export class JournalStore {
  constructor(
    private readonly db: Database,
    private readonly sessions: SessionStore,
  ) {}

  /** A note added by hand (`/journal note`, the "Add to journal" message command). */
  async addNote(note: { guildId: string; channelId: string; userId: string; text: string; messageUrl?: string }): Promise<JournalEntry> {
    const details = { text: note.text, ...(note.messageUrl ? { messageUrl: note.messageUrl } : {}) };
    const id = await writeJournalEntry(this.db, { guildId: note.guildId, channelId: note.channelId, userId: note.userId, kind: 'note', details });
    return this.entry(note.guildId, id);
  }

  /** Any entry written on its own, not as part of another change. */
  async add<K extends JournalKind>(entry: NewJournalEntry<K>): Promise<JournalEntry> {
    const id = await writeJournalEntry(this.db, entry);
    return this.entry(entry.guildId, id);
  }

  /** A scene marker a Dispatcher set (`/journal scene`): `since:` can start a journal from it. */
  async addScene(scene: { guildId: string; channelId: string; userId: string; title: string; messageUrl?: string; at?: Date }): Promise<JournalEntry> {
    const details = { title: scene.title, ...(scene.messageUrl ? { messageUrl: scene.messageUrl } : {}) };
    const id = await writeJournalEntry(this.db, { guildId: scene.guildId, channelId: scene.channelId, userId: scene.userId, kind: 'scene', details, ...(scene.at ? { createdAt: scene.at } : {}) });
    return this.entry(scene.guildId, id);
  }

  /** The link to a scene's marker message, once it is posted (the marker is stored first, so a failed post leaves no link). */
  async linkScene(guildId: string, id: number, messageUrl: string): Promise<void> {
    const row = await this.db.journalEntry.findFirst({ where: { id, guildId, kind: 'scene' } });
    if (!row) return;
    const entry = journalEntryOf(row);
    if (entry?.kind !== 'scene') return;
    await this.db.journalEntry.updateMany({ where: { id, guildId }, data: { details: JSON.stringify({ ...entry.details, messageUrl }) } });
  }

  /** The server's scene markers, newest first, at most `limit`; those whose title holds `typed` when given. */
  async scenes(guildId: string, limit: number, typed = ''): Promise<Array<{ id: number; title: string; createdAt: Date }>> {
    const needle = typed.trim().toLowerCase();
    const found: Array<{ id: number; title: string; createdAt: Date }> = [];
    let before: number | null = null;
    // Titles are JSON inside `details`, so matching is done here, a page at a time, never reading more than needed.
    // Typed text matching no title still reads at most this many markers: a server's oldest scenes are rarely wanted.
    for (let page = 0; page < SCENE_PAGES_READ && found.length < limit; page++) {
      const rows: JournalRow[] = await this.db.journalEntry.findMany({
        where: { guildId, kind: 'scene', ...(before !== null ? { id: { lt: before } } : {}) },
        orderBy: { id: 'desc' },
        take: SCENE_PAGE,
      });
      for (const row of rows) {
        const entry = journalEntryOf(row);
        if (entry?.kind === 'scene' && entry.details.title.toLowerCase().includes(needle) && found.length < limit) found.push({ id: row.id, title: entry.details.title, createdAt: row.createdAt });
      }
      if (rows.length < SCENE_PAGE) break;
      before = rows.at(-1)!.id;
    }
    return found;
  }

  /** One scene marker of this server; null when there is none by that id here. */
  async scene(guildId: string, id: number): Promise<{ id: number; title: string; createdAt: Date } | null> {
    if (!isRowId(id)) return null;
    const row = await this.db.journalEntry.findFirst({ where: { id, guildId, kind: 'scene' } });
    const entry = row ? journalEntryOf(row) : null;
    return entry?.kind === 'scene' ? { id: entry.id, title: entry.details.title, createdAt: entry.createdAt } : null;
  }

  /**
   * A span of the server's story, oldest first, for `/journal export`: entries and rolls made at `from` or later and
   * before `to`, at most `limit` + 1 of each (one more than shown says the journal goes on), and the play sessions the
   * rolls' seeds came from. Secret rolls (a `secret:` roll, a hidden CL, a blind roll not yet revealed) and entries
   * kept secret are left out unless `includeSecret`; so is any entry about a roll left out.
   */
  async span(guildId: string, options: { from: Date; to: Date; limit: number; includeSecret: boolean }): Promise<JournalSpan> {
    const { from, to, limit, includeSecret } = options;
    const createdAt = { gte: from, lt: to };
    const rolls: JournalRoll[] = [];
    let after: { createdAt: Date; id: string } | null = null;
    // Secrecy lives partly in the inputs' JSON, so rolls are read a page at a time until enough are visible.
    while (rolls.length <= limit) {
      const cursor: Prisma.RollWhereInput = after ? { OR: [{ createdAt: { gt: after.createdAt } }, { createdAt: after.createdAt, id: { gt: after.id } }] } : {};
      const rows = await this.db.roll.findMany({
        where: { guildId, createdAt, ...cursor },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        take: ROLL_PAGE,
        select: ROLL_FIELDS,
      });
      for (const row of rows) {
        const roll = journalRollOf(row);
        if ((includeSecret || !roll.secret) && rolls.length <= limit) rolls.push(roll);
      }
      if (rows.length < ROLL_PAGE) break;
      after = rows.at(-1)!;
    }
    const entryRows = await this.db.journalEntry.findMany({
      where: { guildId, createdAt, ...(includeSecret ? {} : { secret: false }) },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      take: limit + 1,
    });
    const shownRolls = new Set(rolls.map((roll) => roll.id));
    const leftOut = includeSecret ? new Set<string>() : await this.secretRollIds(guildId, entryRows.flatMap((row) => (row.rollId && !shownRolls.has(row.rollId) ? [row.rollId] : [])));
    const entries = entryRows.filter((row) => !(row.rollId && leftOut.has(row.rollId))).flatMap((row) => journalEntryOf(row) ?? []);
    // The sessions as their store shows them: a secret only once its session is closed.
    const sessions = await this.sessions.forProof(guildId, rolls.flatMap((roll) => (roll.sessionId !== null ? [roll.sessionId] : [])));
    return { entries, rolls, sessions };
  }

  /** Of these roll ids, those a journal leaves out unless a Dispatcher asks. */
  private async secretRollIds(guildId: string, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db.roll.findMany({ where: { guildId, id: { in: [...new Set(ids)] } }, select: ROLL_FIELDS });
    return new Set(rows.map(journalRollOf).flatMap((roll) => (roll.secret ? [roll.id] : [])));
  }

  private async entry(guildId: string, id: number): Promise<JournalEntry> {
    const row = await this.db.journalEntry.findFirstOrThrow({ where: { id, guildId } });
    const entry = journalEntryOf(row);
    if (!entry) throw new Error(`JournalEntry row ${id}: kind ${row.kind} is not one this bot writes`);
    return entry;
  }
}
