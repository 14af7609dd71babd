/** Roll requests in the database, each change a compare-and-set on `version` (as contests). */
import { rollRequestStateSchema, type RollRequestState } from '../engine/systems/tactalk/roll-request.js';
import { requestJournal } from '../engine/journal.js';
import { isRowId, transaction } from './database.js';
import type { Database } from './database-client.js';
import { journalWork } from './journal.js';
import { saveIfUnchanged, stillPosting } from './message-state.js';
import type { RollEntry } from './rolls.js';
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

  /** A Dispatcher's request for a roll; its message is posted next (`setMessage`), or it is forgotten (`forgetUnshown`). */
  async create(guildId: string, channelId: string, state: RollRequestState): Promise<StoredRollRequest> {
    return transaction(this.db, async (tx) => {
      const row = await tx.rollRequest.create({
        data: { guildId, channelId, dispatcherId: state.dispatcherId, playerId: state.playerId, phase: state.phase, state: JSON.stringify(state) },
      });
      await journalWork({ guildId, channelId }, requestJournal(row.id, null, state))?.(tx);
      return { id: row.id, guildId, channelId, messageId: null, version: row.version, state };
    });
  }

  /**
   * A player's intent, unless they have `most` intents waiting for a Dispatcher already: those in the channel, and
   * those still being posted (one whose message never got there counts for POSTING_GRACE_MS only, by the bot's clock `now`). The count and the
   * insert are one transaction, so intents stated at once never leave more than `most` waiting; null when full.
   */
  async stateIntent(guildId: string, channelId: string, state: RollRequestState, most: number, now: Date): Promise<StoredRollRequest | null> {
    return transaction(this.db, async (tx) => {
      const shown = { OR: [{ messageId: { not: null } }, { createdAt: { gt: stillPosting(now) } }] };
      if ((await tx.rollRequest.count({ where: { guildId, playerId: state.playerId, phase: 'stated', ...shown } })) >= most) return null;
      const row = await tx.rollRequest.create({
        data: { guildId, channelId, dispatcherId: state.dispatcherId, playerId: state.playerId, phase: state.phase, state: JSON.stringify(state), createdAt: now },
      });
      await journalWork({ guildId, channelId }, requestJournal(row.id, null, state))?.(tx);
      return { id: row.id, guildId, channelId, messageId: null, version: row.version, state };
    });
  }

  /** A request or intent whose message could not be posted: gone, so it waits on nobody and counts for nobody. */
  async forgetUnshown(request: StoredRollRequest): Promise<void> {
    await this.db.rollRequest.deleteMany({ where: { id: request.id, guildId: request.guildId, messageId: null, version: request.version } });
  }

  /** Records the message a request is shown on, if none is recorded yet (a crash can come between posting and this). */
  async fillMessage(request: StoredRollRequest, messageId: string): Promise<StoredRollRequest> {
    if (request.messageId) return request;
    await this.db.rollRequest.updateMany({ where: { id: request.id, guildId: request.guildId, messageId: null }, data: { messageId } });
    return { ...request, messageId };
  }

  /** A request of this server; one of another server is not found, exactly as an id never used. */
  async find(guildId: string, id: number): Promise<StoredRollRequest | null> {
    if (!isRowId(id)) return null;
    const row = await this.db.rollRequest.findUnique({ where: { id, guildId } });
    return row ? { ...row, state: stateOf(row) } : null;
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
    // The Dispatcher who answered a stated intent is known only from then on.
    const also = journalWork(request, requestJournal(request.id, request.state, state));
    const won = await saveIfUnchanged(this.db, 'RollRequest', request, state, { phase: state.phase, dispatcherId: state.dispatcherId }, { roll, also });
    return won ? { ...request, state, version: request.version + 1 } : null;
  }
}
