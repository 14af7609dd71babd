// The roll log keeps whether a roll is blind and when a Dispatcher revealed it, read the same by every way of
// reading it (one roll, a page, the newest of all servers), and reveals a roll once.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { freshStoreEachTest } from '../helpers/database.js';
import { challengeRoll } from '../helpers/rolls.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

function roll(blind: boolean) {
  return challengeRoll({ userId: 'kat', inputs: { skill: { name: 'Stealth', level: 45 } }, result: { total: 93 }, total: 93, challengeLevel: 77, blind });
}

describe('blind rolls in the roll log', () => {
  it('reads a blind roll as blind and not revealed, and any other roll as not blind, by every reader', async () => {
    const blind = await store.rolls.record(roll(true));
    const open = await store.rolls.record(roll(false));
    expect(await store.rolls.find('g', blind)).toMatchObject({ blind: true, revealedAt: null });
    expect(await store.rolls.find('g', open)).toMatchObject({ blind: false, revealedAt: null });
    const page = await store.rolls.page('g', { limit: 10 });
    expect(page.rolls.map(({ id, blind: isBlind, revealedAt }) => ({ id, isBlind, revealedAt }))).toEqual([
      { id: open, isBlind: false, revealedAt: null },
      { id: blind, isBlind: true, revealedAt: null },
    ]);
    expect((await store.rolls.latestOfAllServers(2)).map((stored) => stored.blind)).toEqual([false, true]);
  });

  it('reveals a blind roll once: the second reveal, and a reveal of a roll not blind or of another server, changes nothing', async () => {
    const blind = await store.rolls.record(roll(true));
    const open = await store.rolls.record(roll(false));
    const at = new Date('2026-11-27T06:00:00.000Z');
    expect(await store.rolls.reveal('other', blind, at)).toBe(false);
    expect(await store.rolls.reveal('g', blind, at)).toBe(true);
    expect(await store.rolls.reveal('g', blind, new Date(at.getTime() + 1000))).toBe(false);
    expect(await store.rolls.reveal('g', open, at)).toBe(false);
    expect((await store.rolls.find('g', blind))?.revealedAt).toEqual(at);
    expect((await store.rolls.page('g', { limit: 10 })).rolls.find((stored) => stored.id === blind)?.revealedAt).toEqual(at);
    expect((await store.rolls.find('g', open))?.revealedAt).toBeNull();
  });

  it('takes back a reveal whose post failed, so the next one reveals it', async () => {
    const blind = await store.rolls.record(roll(true));
    const at = new Date('2026-11-27T06:00:00.000Z');
    expect(await store.rolls.reveal('g', blind, at)).toBe(true);
    await store.rolls.unreveal('g', blind, at);
    expect((await store.rolls.find('g', blind))?.revealedAt).toBeNull();
    expect(await store.rolls.reveal('g', blind, at)).toBe(true);
  });
});
