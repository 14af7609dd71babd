/**
 * Initiative trackers in the database, so a restart loses no scene. One open tracker per channel; ending one
 * deletes it. Every change is a compare-and-set on `version` (as contests and roll requests): two presses at the
 * same moment move the turn once, and a roll the new state shows lands with it in one transaction.
 */
import { Refused } from '../engine/refusals.js';
import { trackerStateSchema, type TrackerState } from '../engine/initiative.js';
import { isRowId, transaction } from './database.js';
import type { Database } from './database-client.js';
import { saveIfUnchanged } from './message-state.js';
import type { RollEntry } from './rolls.js';
import { readStored } from './stored-json.js';

/** Open trackers on one server: one per channel, and a bound on channels a Dispatcher could fill. */
export const OPEN_TRACKERS_PER_SERVER_MAX = 50;

export interface StoredTracker {
  id: number;
  guildId: string;
  channelId: string;
  messageId: string | null;
  version: number;
  state: TrackerState;
}

type Row = { id: number; guildId: string; channelId: string; messageId: string | null; version: number; state: string };

function fromRow(row: Row): StoredTracker {
  return { id: row.id, guildId: row.guildId, channelId: row.channelId, messageId: row.messageId, version: row.version, state: readStored(trackerStateSchema, row.state, { table: 'InitiativeTracker', id: row.id, column: 'state' }) };
}

export class InitiativeStore {
  constructor(private readonly db: Database) {}

  /**
   * Opens a tracker in the channel, unless one is open there already: then that one is returned as `open` and
   * nothing is created. The look and the insert are one transaction, so two starts at once open one tracker.
   */
  async start(guildId: string, channelId: string, state: TrackerState): Promise<{ created: StoredTracker } | { open: StoredTracker }> {
    return transaction(this.db, async (tx) => {
      const open = await tx.initiativeTracker.findFirst({ where: { guildId, channelId }, orderBy: { id: 'asc' } });
      if (open) return { open: fromRow(open) };
      if ((await tx.initiativeTracker.count({ where: { guildId } })) >= OPEN_TRACKERS_PER_SERVER_MAX) {
        throw new Refused({ kind: 'tracker-limit', most: OPEN_TRACKERS_PER_SERVER_MAX });
      }
      const row = await tx.initiativeTracker.create({ data: { guildId, channelId, system: state.system, state: JSON.stringify(state) } });
      return { created: fromRow(row) };
    });
  }

  /** A tracker of this server; one of another server is not found, exactly as an id never used. */
  async find(guildId: string, id: number): Promise<StoredTracker | null> {
    if (!isRowId(id)) return null;
    const row = await this.db.initiativeTracker.findUnique({ where: { id, guildId } });
    return row ? fromRow(row) : null;
  }

  /** The tracker open in a channel of this server, if any. */
  async inChannel(guildId: string, channelId: string): Promise<StoredTracker | null> {
    const row = await this.db.initiativeTracker.findFirst({ where: { guildId, channelId }, orderBy: { id: 'asc' } });
    return row ? fromRow(row) : null;
  }

  /**
   * Records the message the tracker is shown on (when posted, or posted again lower in the channel). Not a change of
   * the scene, so no new version: a press racing with it still saves.
   */
  async setMessage(tracker: StoredTracker, messageId: string): Promise<StoredTracker> {
    await this.db.initiativeTracker.updateMany({ where: { id: tracker.id, guildId: tracker.guildId }, data: { messageId } });
    return { ...tracker, messageId };
  }

  /**
   * Saves the new state only if nobody saved since `tracker` was read; null when another change won. With `roll`
   * (the initiative roll the state shows), the roll lands in the roll log in the same transaction.
   */
  async save(tracker: StoredTracker, state: TrackerState, roll?: RollEntry): Promise<StoredTracker | null> {
    const won = await saveIfUnchanged(this.db, 'InitiativeTracker', tracker, state, {}, { roll });
    return won ? { ...tracker, state, version: tracker.version + 1 } : null;
  }

  /** Ends the tracker (deletes it) if nobody changed it since it was read; false when another change won. */
  async end(tracker: StoredTracker): Promise<boolean> {
    const { count } = await this.db.initiativeTracker.deleteMany({ where: { id: tracker.id, guildId: tracker.guildId, version: tracker.version } });
    return count === 1;
  }
}
