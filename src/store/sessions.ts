/**
 * Play sessions and the seeds derived from their committed secrets (commit and reveal, src/engine/commitment.ts).
 * A server has at most one open session: a play session a Dispatcher opened, or else the server's (UTC) day, created
 * when the first interaction of the day needs seeds. A session's secret stays in the database until the session
 * closes; then it is published and the next rolls use a new session.
 *
 * Handlers take seeds synchronously (`context.newSeed()`, at some thirty sites), so the router has the server's open
 * session loaded first (`prepare`) and `nextSeed` derives from it with a counter kept in this process: a server's
 * events reach one process, and after a restart the counter resumes past the highest index the roll log holds.
 */
import { commitmentOf, derivedSeed, newSessionSecret, type JournalProofSession } from '../engine/commitment.js';
import { isIdClash, isRowId } from './database.js';
import type { Database } from './database-client.js';
import { noteSeed } from './seed-notes.js';

export type SessionKind = 'play' | 'day';

/** A session as everyone may see it: the secret only once the session is closed. */
export interface PlaySessionView {
  id: number;
  guildId: string;
  kind: SessionKind;
  /** A day session's UTC day ("2026-11-27"). */
  day: string | null;
  title: string;
  commitment: string;
  /** Published once the session is closed; null while it is open. */
  secret: string | null;
  channelId: string | null;
  openedBy: string | null;
  openedAt: Date;
  closedAt: Date | null;
}

interface SessionRow {
  id: number;
  guildId: string;
  kind: string;
  day: string | null;
  title: string;
  secret: string;
  commitment: string;
  channelId: string | null;
  openedBy: string | null;
  openedAt: Date;
  closedAt: Date | null;
}

/** The open session a server's seeds come from, and the index the next seed gets. */
interface OpenSeeds {
  row: SessionRow;
  next: number;
}

/** The longest title a play session may have: it is shown in a heading. */
export const SESSION_TITLE_MAX = 100;

/** The UTC day of `now`, as a day session names it. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

function viewOf(row: SessionRow): PlaySessionView {
  return {
    id: row.id,
    guildId: row.guildId,
    kind: row.kind === 'play' ? 'play' : 'day',
    day: row.day,
    title: row.title,
    commitment: row.commitment,
    secret: row.closedAt ? row.secret : null,
    channelId: row.channelId,
    openedBy: row.openedBy,
    openedAt: row.openedAt,
    closedAt: row.closedAt,
  };
}

export class SessionStore {
  /** Each server's open session, as loaded by `prepare`; a server with none loaded is absent. */
  private readonly open = new Map<string, OpenSeeds>();
  /** A server's `prepare` under way: two interactions at once load (or create) its session once. */
  private readonly preparing = new Map<string, Promise<void>>();

  constructor(
    private readonly db: Database,
    /** Where a new session's secret comes from: the operating system's randomness, or a fixed source in tests. */
    private readonly newSecret: () => string = newSessionSecret,
  ) {}

  /** Whether the server's seeds can be taken now without a look-up: its session is loaded and still current. */
  isReady(guildId: string, now: Date): boolean {
    const open = this.open.get(guildId);
    return open !== undefined && (open.row.kind === 'play' || open.row.day === utcDay(now));
  }

  /**
   * Makes sure the server has a current open session loaded, so `nextSeed` can derive from it: the open play session,
   * or today's day session (yesterday's, still open, is closed first; a new day's is created).
   */
  async prepare(guildId: string, now: Date): Promise<PlaySessionView> {
    if (!this.isReady(guildId, now)) {
      let under = this.preparing.get(guildId);
      if (!under) {
        under = this.load(guildId, now).finally(() => this.preparing.delete(guildId));
        this.preparing.set(guildId, under);
      }
      await under;
      // One more look: a prepare that began before midnight ends after it with yesterday's session.
      if (!this.isReady(guildId, now)) await this.load(guildId, now);
    }
    return viewOf(this.open.get(guildId)!.row);
  }

  private async load(guildId: string, now: Date): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      let row = (await this.db.playSession.findUnique({ where: { openKey: guildId } })) as SessionRow | null;
      if (row && row.kind === 'day' && row.day !== utcDay(now)) {
        await this.closeRow(row.id, now);
        row = null;
      }
      if (!row) {
        try {
          row = await this.create(guildId, { kind: 'day', day: utcDay(now), title: '', channelId: null, openedBy: null, now });
        } catch (error) {
          // Another process, or an interaction of a bot just restarted, opened one first: that one is the server's.
          if (attempt < 3 && isIdClash(error)) continue;
          throw error;
        }
      }
      const highest = await this.db.roll.aggregate({ where: { sessionId: row.id }, _max: { seedIndex: true } });
      const fromLog = (highest._max.seedIndex ?? -1) + 1;
      // Seeds handed out in this process and not (yet) in the roll log are not handed out again.
      const known = this.open.get(guildId);
      this.open.set(guildId, { row, next: known?.row.id === row.id ? Math.max(known.next, fromLog) : fromLog });
      return;
    }
  }

  private async create(guildId: string, session: { kind: SessionKind; day: string | null; title: string; channelId: string | null; openedBy: string | null; now: Date }): Promise<SessionRow> {
    const secret = this.newSecret();
    return (await this.db.playSession.create({
      data: {
        guildId,
        kind: session.kind,
        day: session.day,
        title: session.title,
        secret,
        commitment: commitmentOf(secret),
        openKey: guildId,
        channelId: session.channelId,
        openedBy: session.openedBy,
        openedAt: session.now,
      },
    })) as SessionRow;
  }

  /** Closes a session if it is still open; true when this call closed it. */
  private async closeRow(id: number, now: Date): Promise<boolean> {
    const closed = await this.db.playSession.updateMany({ where: { id, openKey: { not: null } }, data: { openKey: null, closedAt: now } });
    return closed.count === 1;
  }

  /**
   * The seed of the server's next roll, derived from its open session's secret; null when no session is loaded (the
   * router loads it before a handler runs; a handler that began before its session was closed finds none).
   */
  nextSeed(guildId: string): string | null {
    const open = this.open.get(guildId);
    if (!open) return null;
    const origin = { sessionId: open.row.id, seedIndex: open.next++ };
    const seed = derivedSeed(open.row.secret, origin);
    noteSeed(seed, { ...origin, dayCommitment: open.row.kind === 'day' && origin.seedIndex === 0 ? open.row.commitment : null });
    return seed;
  }

  /** The server's open session, without creating one; null when none is open. */
  async current(guildId: string): Promise<PlaySessionView | null> {
    const row = (await this.db.playSession.findUnique({ where: { openKey: guildId } })) as SessionRow | null;
    return row ? viewOf(row) : null;
  }

  /**
   * Opens a play session: the open one (a day session, or a play session left open) is closed first, its secret
   * published with the new session's commitment. Every later roll derives from the new session.
   */
  async openPlay(guildId: string, session: { title: string; channelId: string; openedBy: string; now: Date }): Promise<{ opened: PlaySessionView; closed: PlaySessionView | null }> {
    const closed = await this.closeOpen(guildId, session.now);
    for (let attempt = 0; ; attempt++) {
      try {
        const row = await this.create(guildId, { kind: 'play', day: null, title: session.title, channelId: session.channelId, openedBy: session.openedBy, now: session.now });
        this.open.set(guildId, { row, next: 0 });
        return { opened: viewOf(row), closed };
      } catch (error) {
        // A day session created at this moment by another interaction: it closes too, then this one opens.
        if (attempt >= 3 || !isIdClash(error)) throw error;
        await this.closeOpen(guildId, session.now);
      }
    }
  }

  /** Closes the server's open session (secret published from now on); null when none was open. */
  async closeOpen(guildId: string, now: Date): Promise<PlaySessionView | null> {
    // Forgotten before the close lands: no seed is derived from a secret about to be published.
    this.open.delete(guildId);
    const row = (await this.db.playSession.findUnique({ where: { openKey: guildId } })) as SessionRow | null;
    if (!row) return null;
    if (!(await this.closeRow(row.id, now))) return null;
    return viewOf({ ...row, closedAt: now });
  }

  /** A session of this server by id (another server's is not found). */
  async find(guildId: string, id: number): Promise<PlaySessionView | null> {
    if (!isRowId(id)) return null;
    const row = (await this.db.playSession.findFirst({ where: { id, guildId } })) as SessionRow | null;
    return row ? viewOf(row) : null;
  }

  /** The server's most recently closed session, whose secret is published. */
  async lastClosed(guildId: string): Promise<PlaySessionView | null> {
    const row = (await this.db.playSession.findFirst({ where: { guildId, openKey: null }, orderBy: [{ closedAt: 'desc' }, { id: 'desc' }] })) as SessionRow | null;
    return row ? viewOf(row) : null;
  }

  /** How many rolls the roll log holds from a session's seeds. */
  async rollCount(guildId: string, sessionId: number): Promise<number> {
    return this.db.roll.count({ where: { guildId, sessionId } });
  }

  /** The sessions a journal's rolls came from, as its proof carries them: a secret only where the session is closed. */
  /**
   * The server's open session, or else the one opened last (of `kind`, when given): what "this session" means to
   * `/journal` and `/stats`. Null before the server's first.
   */
  async currentOrLast(guildId: string, kind?: SessionKind): Promise<PlaySessionView | null> {
    const where = { guildId, ...(kind ? { kind } : {}) };
    const order = [{ openedAt: 'desc' as const }, { id: 'desc' as const }];
    const open = await this.db.playSession.findFirst({ where: { ...where, closedAt: null }, orderBy: order });
    const row = open ?? (await this.db.playSession.findFirst({ where, orderBy: order }));
    return row ? viewOf(row as SessionRow) : null;
  }

  async forProof(guildId: string, ids: readonly number[]): Promise<JournalProofSession[]> {
    const wanted = [...new Set(ids)].filter(isRowId);
    if (wanted.length === 0) return [];
    const rows = (await this.db.playSession.findMany({ where: { guildId, id: { in: wanted } }, orderBy: { id: 'asc' } })) as SessionRow[];
    return rows.map((row) => {
      const view = viewOf(row);
      return {
        id: view.id,
        kind: view.kind,
        title: view.title,
        commitment: view.commitment,
        secret: view.secret,
        openedAt: view.openedAt.toISOString(),
        closedAt: view.closedAt?.toISOString() ?? null,
      };
    });
  }
}
