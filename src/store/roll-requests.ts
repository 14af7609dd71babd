/** Roll requests in the database, each change a compare-and-set on `version` (as contests). */
import { rollRequestStateSchema, type RollRequestState } from '../engine/systems/tactalk/roll-request.js';
import { isRowId, type Database } from './database.js';
import { compareAndSet, type RollEntry } from './rolls.js';
import { readStored } from './stored-json.js';

/** A stored request's state; one stored before the conversation reads as the current shape (the schema's defaults). */
function stateOf(row: { id: number; state: string }): RollRequestState {
  return readStored(rollRequestStateSchema, row.state, { table: 'RollRequest', id: row.id, column: 'state' });
}

export interface StoredRollRequest {
  id: number;
  guildId: string;
  channelId: string;
  messageId: string | null;
  version: number;
  state: RollRequestState;
}

export interface DeclinedRequest {
  id: number;
  declinedAt: Date;
  state: RollRequestState;
}

export class RollRequestStore {
  constructor(private readonly db: Database) {}

  async create(guildId: string, channelId: string, state: RollRequestState): Promise<StoredRollRequest> {
    const row = await this.db.rollRequest.create({
      data: { guildId, channelId, dispatcherId: state.dispatcherId, playerId: state.playerId, phase: state.phase, state: JSON.stringify(state) },
    });
    return { id: row.id, guildId, channelId, messageId: null, version: row.version, state };
  }

  async setMessage(id: number, messageId: string): Promise<void> {
    await this.db.rollRequest.update({ where: { id }, data: { messageId } });
  }

  /** A request of this server; one of another server is not found, exactly as an id never used. */
  async find(guildId: string, id: number): Promise<StoredRollRequest | null> {
    if (!isRowId(id)) return null;
    const row = await this.db.rollRequest.findUnique({ where: { id, guildId } });
    return row ? { ...row, state: stateOf(row) } : null;
  }

  /** How many intents this player has waiting for a Dispatcher. */
  async countStated(guildId: string, playerId: string): Promise<number> {
    return this.db.rollRequest.count({ where: { guildId, playerId, phase: 'stated' } });
  }

  /**
   * The requests a player declined (of one player when `playerId` is given), declined at `from` or later and before
   * `to`, newest first, at most `limit`: /log lists them among the rolls, by the time they were declined. A decline
   * is a request's last change, so `updatedAt` is when it was declined.
   */
  async declined(guildId: string, options: { playerId: string | null; from: Date | null; to: Date | null; limit: number }): Promise<DeclinedRequest[]> {
    const updatedAt = { ...(options.from ? { gte: options.from } : {}), ...(options.to ? { lt: options.to } : {}) };
    const rows = await this.db.rollRequest.findMany({
      where: { guildId, phase: 'declined', ...(options.playerId ? { playerId: options.playerId } : {}), updatedAt },
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
      take: options.limit,
    });
    return rows.map((row) => ({ id: row.id, declinedAt: row.updatedAt, state: stateOf(row) }));
  }

  /**
   * Saves only if nobody saved since the request was read; null when another change won. With `roll` (the roll this
   * state shows), the roll lands in the roll log in the same transaction: never a request showing a roll that is
   * not stored, nor a roll of a press that lost the race.
   */
  async save(request: StoredRollRequest, state: RollRequestState, roll?: RollEntry): Promise<StoredRollRequest | null> {
    const where = { id: request.id, version: request.version };
    // The Dispatcher who answered a stated intent is known only from then on.
    const data = { state: JSON.stringify(state), phase: state.phase, dispatcherId: state.dispatcherId, version: { increment: 1 } };
    const won = await compareAndSet(this.db, (writer) => writer.rollRequest.updateMany({ where, data }), roll);
    return won ? { ...request, state, version: request.version + 1 } : null;
  }
}
