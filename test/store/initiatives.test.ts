// Initiative trackers in the database: one open per channel, every change a compare-and-set on the version (a roll
// saved with the state that shows it, or not at all), servers kept apart.
import { describe, expect, it } from 'vitest';
import { addCombatant, newTracker, nextTurn, type TrackerState } from '../../src/engine/initiative.js';
import { MELEE_RULE } from '../../src/engine/systems/result-points/initiative.js';
import { D10_PHASE_RULE } from '../../src/engine/systems/d10-pool/initiative.js';
import type { Store } from '../../src/store/index.js';
import { OPEN_TRACKERS_PER_SERVER_MAX, type StoredTracker } from '../../src/store/initiatives.js';
import { freshStoreEachTest } from '../helpers/database.js';
import { told } from '../helpers/told.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

const GUILD = 'g';

function withOrc(state: TrackerState): TrackerState {
  return addCombatant(state, { key: 'npc:orc', name: 'Orc', playerId: null, sheetId: null, source: { kind: 'value', value: 9, code: null }, total: 9, dice: null, rollId: null });
}

async function started(guildId = GUILD, channelId = 'c', state = newTracker(MELEE_RULE, 'gm')): Promise<StoredTracker> {
  const result = await store.initiatives.start(guildId, channelId, state);
  if (!('created' in result)) throw new Error('expected a new tracker');
  return result.created;
}

describe('InitiativeStore', () => {
  it('opens one tracker per channel: a second start finds the open one and creates nothing', async () => {
    const first = await started();
    const again = await store.initiatives.start(GUILD, 'c', newTracker(D10_PHASE_RULE, 'gm'));
    expect(again).toEqual({ open: first });
    expect(await store.db.initiativeTracker.count()).toBe(1);
    // Two starts at the same moment open one.
    const both = await Promise.all([store.initiatives.start(GUILD, 'd', newTracker(MELEE_RULE, 'gm')), store.initiatives.start(GUILD, 'd', newTracker(MELEE_RULE, 'gm'))]);
    expect(both.filter((result) => 'created' in result)).toHaveLength(1);
    expect(await store.initiatives.inChannel(GUILD, 'd')).not.toBeNull();
  });

  it('keeps servers apart: a tracker is found by id and by channel only on its own server', async () => {
    const tracker = await started('g1', 'c');
    expect(await store.initiatives.find('g1', tracker.id)).toEqual(tracker);
    expect(await store.initiatives.find('g2', tracker.id)).toBeNull();
    expect(await store.initiatives.inChannel('g2', 'c')).toBeNull();
    // Another server's save and end change nothing.
    expect(await store.initiatives.save({ ...tracker, guildId: 'g2' }, withOrc(tracker.state))).toBeNull();
    expect(await store.initiatives.end({ ...tracker, guildId: 'g2' })).toBe(false);
    expect((await store.initiatives.find('g1', tracker.id))!.state.combatants).toEqual([]);
    // The same channel id on another server holds its own tracker.
    expect('created' in (await store.initiatives.start('g2', 'c', newTracker(MELEE_RULE, 'gm')))).toBe(true);
    for (const id of [Number.NaN, 0, -1, 2 ** 31]) expect(await store.initiatives.find('g1', id)).toBeNull();
  });

  it('a save is a compare-and-set on the version: of two saves from the same read, one wins', async () => {
    const tracker = await started();
    const saved = await store.initiatives.save(tracker, withOrc(tracker.state));
    expect(saved).toMatchObject({ version: tracker.version + 1 });
    expect(await store.initiatives.save(tracker, tracker.state)).toBeNull();
    const begun = nextTurn(saved!.state);
    const results = await Promise.all([store.initiatives.save(saved!, 'state' in begun ? begun.state : saved!.state), store.initiatives.save(saved!, saved!.state)]);
    expect(results.filter((result) => result !== null)).toHaveLength(1);
    expect((await store.initiatives.find(GUILD, tracker.id))!.version).toBe(tracker.version + 2);
  });

  it('a roll lands with the state that shows it, and not with a save that lost', async () => {
    const tracker = await started(GUILD, 'c', newTracker(D10_PHASE_RULE, 'gm'));
    const roll = (id: string) =>
      store.rolls.entry(id, { guildId: GUILD, channelId: 'c', userId: 'gm', kind: 'd10-initiative', system: 'd10-pool', inputs: { phase: 1, entries: [] }, seed: 's', dice: [], result: {}, total: null, challengeLevel: null, success: null });
    expect(await store.initiatives.save(tracker, tracker.state, roll('aaaaaaaa'))).not.toBeNull();
    expect(await store.initiatives.save(tracker, tracker.state, roll('bbbbbbbb'))).toBeNull();
    expect(await store.rolls.find(GUILD, 'aaaaaaaa')).toMatchObject({ kind: 'd10-initiative' });
    expect(await store.rolls.find(GUILD, 'bbbbbbbb')).toBeNull();
  });

  it('ending deletes the tracker (if unchanged since read), so the channel can open a new one; the message id is no new version', async () => {
    const tracker = await started();
    const shown = await store.initiatives.setMessage(tracker, '123');
    expect(shown.version).toBe(tracker.version);
    expect((await store.initiatives.find(GUILD, tracker.id))!.messageId).toBe('123');
    const changed = await store.initiatives.save(shown, withOrc(shown.state));
    expect(await store.initiatives.end(shown)).toBe(false);
    expect(await store.initiatives.end(changed!)).toBe(true);
    expect(await store.initiatives.find(GUILD, tracker.id)).toBeNull();
    expect('created' in (await store.initiatives.start(GUILD, 'c', newTracker(MELEE_RULE, 'gm')))).toBe(true);
  });

  it(`at most ${OPEN_TRACKERS_PER_SERVER_MAX} open trackers on a server`, async () => {
    for (let channel = 0; channel < OPEN_TRACKERS_PER_SERVER_MAX; channel++) await started(GUILD, `c${channel}`);
    expect(await told(store.initiatives.start(GUILD, 'one more', newTracker(MELEE_RULE, 'gm')))).toMatch(/most it may have/);
    expect('created' in (await store.initiatives.start('other', 'c', newTracker(MELEE_RULE, 'gm')))).toBe(true);
  });
});
