/**
 * The session journal's entries (JournalEntry). The rolls are the roll log's; these are the story around them, written
 * right where it happens. Reading a span back for `/journal export` is here too, the only place that queries them.
 */
import { JOURNAL_DETAILS, isJournalKind, type JournalDetails, type JournalEntry, type JournalKind, type JournalWrite } from '../engine/journal.js';
import type { Database } from './database-client.js';
import type { Prisma } from '../generated/prisma/client.js';
import { readStored } from './stored-json.js';

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
      ...(entry.createdAt ? { createdAt: entry.createdAt } : {}),
    },
  });
  return row.id;
}

/**
 * The entries a change decided (`requestJournal`, `contestJournal`) as the work its transaction runs once it won;
 * undefined when there are none, so a change with nothing to tell opens no transaction for it.
 */
export function journalWork(where: { guildId: string; channelId: string }, writes: readonly JournalWrite[]): ((tx: Prisma.TransactionClient) => Promise<void>) | undefined {
  if (writes.length === 0) return undefined;
  return async (tx) => {
    for (const write of writes) await writeJournalEntry(tx, { ...where, ...write } as NewJournalEntry<JournalKind>);
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
  constructor(private readonly db: Database) {}

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

  private async entry(guildId: string, id: number): Promise<JournalEntry> {
    const row = await this.db.journalEntry.findFirstOrThrow({ where: { id, guildId } });
    const entry = journalEntryOf(row);
    if (!entry) throw new Error(`JournalEntry row ${id}: kind ${row.kind} is not one this bot writes`);
    return entry;
  }
}
