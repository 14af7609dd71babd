// The journal's store: entries written with the change they tell (and not when that change lost its race), servers
// kept apart, secret rolls and their story left out unless asked, scene markers and the session since: reads.
import { describe, expect, it } from 'vitest';
import { normalizeRollRequest } from '../../src/engine/systems/tactalk/roll-request.js';
import type { Store } from '../../src/store/index.js';
import { freshStoreEachTest } from '../helpers/database.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

const HOUR = 3_600_000;
const span = (guildId: string, includeSecret = false) => store.journal.span(guildId, { from: new Date(Date.now() - HOUR), to: new Date(Date.now() + HOUR), limit: 100, includeSecret });

function roll(guildId: string, inputs: object, facts: { blind?: boolean } = {}) {
  return store.rolls.record({ guildId, channelId: 'c', userId: 'mike', kind: 'challenge', inputs, seed: 's', dice: { tens: 1, ones: 2 }, result: {}, total: 12, challengeLevel: 50, success: false, ...facts });
}

describe('the journal store', () => {
  it('writes a request’s story with the change, and nothing for a change that lost its race', async () => {
    const stated = normalizeRollRequest({ kind: 'challenge', dispatcherId: '', playerId: 'mike', operatorName: 'Troy', intent: 'climb', outcome: 'up', phase: 'stated' });
    const request = (await store.rollRequests.stateIntent('g', 'c', stated, 3, new Date()))!;
    const part = { skill: 'Climbing', archetypes: [], situationalModifier: 0, challengeLevel: 90 };
    const called = { ...stated, dispatcherId: 'dee', phase: 'open' as const, parts: [part] };
    expect(await store.rollRequests.save(request, called)).not.toBeNull();
    // The same change decided from the old version: refused, and it tells nothing.
    expect(await store.rollRequests.save(request, { ...called, dispatcherId: 'otto' })).toBeNull();
    const { entries } = await span('g');
    expect(entries.map((entry) => [entry.kind, entry.userId])).toEqual([
      ['intent', 'mike'],
      ['call', 'dee'],
    ]);
  });

  it('keeps servers apart: another server’s entries, rolls, scenes and sessions are never read', async () => {
    await store.journal.addNote({ guildId: 'other', channelId: 'c', userId: 'x', text: 'not yours' });
    const scene = await store.journal.addScene({ guildId: 'other', channelId: 'c', userId: 'x', title: 'Elsewhere' });
    await roll('other', {});
    await store.db.playSession.create({ data: { guildId: 'other', kind: 'play', secret: 's', commitment: 'c', openKey: 'other' } });
    expect(await span('g')).toEqual({ entries: [], rolls: [], sessions: [] });
    expect(await store.journal.scene('g', scene.id)).toBeNull();
    expect(await store.journal.scenes('g', 25)).toEqual([]);
    expect(await store.sessions.currentOrLast('g')).toBeNull();
  });

  it('leaves out secret, hidden-CL and unrevealed blind rolls and the entries about them, unless asked', async () => {
    const plain = await roll('g', {});
    const secret = await roll('g', {}, {});
    await store.db.roll.update({ where: { id: secret }, data: { inputs: JSON.stringify({ secret: true }) } });
    const hidden = await roll('g', { hidden: true });
    const blind = await roll('g', {});
    await store.db.roll.update({ where: { id: blind }, data: { blind: true } });
    await store.journal.add({ guildId: 'g', channelId: 'c', userId: 'mike', kind: 'answer', rollId: hidden, details: { requestId: 1, answers: 'call', table: null } });
    await store.journal.add({ guildId: 'g', channelId: 'c', userId: 'dee', kind: 'note', secret: true, details: { text: 'for Dispatchers' } });

    const forPlayers = await span('g');
    expect(forPlayers.rolls.map((each) => each.id)).toEqual([plain]);
    expect(forPlayers.entries).toEqual([]);
    const forDispatchers = await span('g', true);
    expect(forDispatchers.rolls.map((each) => [each.id, each.secret])).toEqual([
      [plain, false],
      [secret, true],
      [hidden, true],
      [blind, true],
    ]);
    expect(forDispatchers.entries.map((entry) => entry.kind)).toEqual(['answer', 'note']);
  });

  it('reads one more than the limit, so a journal knows it goes on; the newest scenes first, found by part of the title', async () => {
    for (let index = 0; index < 5; index++) await roll('g', {});
    const { rolls } = await store.journal.span('g', { from: new Date(Date.now() - HOUR), to: new Date(Date.now() + HOUR), limit: 3, includeSecret: false });
    expect(rolls).toHaveLength(4);
    await store.journal.addScene({ guildId: 'g', channelId: 'c', userId: 'dee', title: 'The docks' });
    await store.journal.addScene({ guildId: 'g', channelId: 'c', userId: 'dee', title: 'The chase' });
    expect((await store.journal.scenes('g', 25)).map((scene) => scene.title)).toEqual(['The chase', 'The docks']);
    expect((await store.journal.scenes('g', 25, 'DOCK')).map((scene) => scene.title)).toEqual(['The docks']);
  });

  it('this session is the open one, else the last; a session’s secret is in the proof only once it is closed', async () => {
    const older = await store.db.playSession.create({ data: { guildId: 'g', kind: 'day', day: '2026-11-26', secret: 'old', commitment: 'c1', openedAt: new Date(Date.now() - 2 * HOUR), closedAt: new Date(Date.now() - HOUR) } });
    expect((await store.sessions.currentOrLast('g'))?.id).toBe(older.id);
    const open = await store.db.playSession.create({ data: { guildId: 'g', kind: 'play', title: 'Night', secret: 'new', commitment: 'c2', openKey: 'g' } });
    expect((await store.sessions.currentOrLast('g'))?.id).toBe(open.id);
    const id = await roll('g', {});
    await store.db.roll.update({ where: { id }, data: { sessionId: open.id, seedIndex: 0 } });
    expect((await span('g')).sessions).toEqual([expect.objectContaining({ id: open.id, kind: 'play', commitment: 'c2', secret: null, closedAt: null })]);
    await store.db.playSession.update({ where: { id: open.id }, data: { closedAt: new Date(), openKey: null } });
    expect((await span('g')).sessions).toEqual([expect.objectContaining({ id: open.id, secret: 'new' })]);
  });
});
