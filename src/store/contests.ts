/**
 * Contests in the database. Every change is a compare-and-set on `version`: a save that lost a race changes
 * nothing and says so, so two presses at the same moment move the state exactly once.
 */
import { OPEN_PHASES, type ContestState } from '../engine/systems/tactalk/contest.js';
import { isRowId, type Database } from './database.js';

export interface StoredContest {
  id: number;
  guildId: string;
  channelId: string;
  messageId: string | null;
  version: number;
  state: ContestState;
  expiresAt: Date;
}

function fromRow(row: { id: number; guildId: string; channelId: string; messageId: string | null; version: number; state: string; expiresAt: Date }): StoredContest {
  return { id: row.id, guildId: row.guildId, channelId: row.channelId, messageId: row.messageId, version: row.version, state: JSON.parse(row.state) as ContestState, expiresAt: row.expiresAt };
}

export class ContestStore {
  constructor(private readonly db: Database) {}

  async create(input: { guildId: string; channelId: string; state: ContestState; expiresAt: Date }): Promise<StoredContest> {
    const row = await this.db.contest.create({
      data: {
        guildId: input.guildId,
        channelId: input.channelId,
        challengerId: input.state.challenger.userId,
        opponentId: input.state.opponent.userId,
        phase: input.state.phase,
        state: JSON.stringify(input.state),
        expiresAt: input.expiresAt,
      },
    });
    return fromRow(row);
  }

  async setMessage(id: number, messageId: string): Promise<void> {
    await this.db.contest.update({ where: { id }, data: { messageId } });
  }

  async find(id: number): Promise<StoredContest | null> {
    if (!isRowId(id)) return null;
    const row = await this.db.contest.findUnique({ where: { id } });
    return row ? fromRow(row) : null;
  }

  /**
   * Saves the new state only if nobody saved since `expectedVersion` was read.
   * Returns the saved contest, or null when another change won the race.
   */
  async save(contest: StoredContest, state: ContestState, expiresAt: Date): Promise<StoredContest | null> {
    const { count } = await this.db.contest.updateMany({
      where: { id: contest.id, version: contest.version },
      data: { state: JSON.stringify(state), phase: state.phase, version: { increment: 1 }, expiresAt },
    });
    return count === 1 ? { ...contest, state, expiresAt, version: contest.version + 1 } : null;
  }

  /** How many contests a user takes part in that are still open, on this server. */
  async openCount(guildId: string, userId: string): Promise<number> {
    return this.db.contest.count({
      where: { guildId, phase: { in: [...OPEN_PHASES] }, OR: [{ challengerId: userId }, { opponentId: userId }] },
    });
  }

  /** Open contests whose step ran out before `now`, oldest first. */
  async overdue(now: Date, limit = 100): Promise<StoredContest[]> {
    const rows = await this.db.contest.findMany({
      where: { phase: { in: [...OPEN_PHASES] }, expiresAt: { lte: now } },
      orderBy: { expiresAt: 'asc' },
      take: limit,
    });
    return rows.map(fromRow);
  }
}
