/** Roll requests in the database, each change a compare-and-set on `version` (as contests). */
import type { RollRequestState } from '../engine/systems/tactalk/roll-request.js';
import { isRowId, type Database } from './database.js';

export interface StoredRollRequest {
  id: number;
  guildId: string;
  channelId: string;
  messageId: string | null;
  version: number;
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

  async find(id: number): Promise<StoredRollRequest | null> {
    if (!isRowId(id)) return null;
    const row = await this.db.rollRequest.findUnique({ where: { id } });
    return row ? { ...row, state: JSON.parse(row.state) as RollRequestState } : null;
  }

  /** Saves only if nobody saved since the request was read; null when another change won. */
  async save(request: StoredRollRequest, state: RollRequestState): Promise<StoredRollRequest | null> {
    const { count } = await this.db.rollRequest.updateMany({
      where: { id: request.id, version: request.version },
      data: { state: JSON.stringify(state), phase: state.phase, version: { increment: 1 } },
    });
    return count === 1 ? { ...request, state, version: request.version + 1 } : null;
  }
}
