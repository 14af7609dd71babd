// Play sessions (commit and reveal): the open session's lifecycle, seeds derived from its secret, and their indexes.
import { describe, expect, it } from 'vitest';
import { commitmentOf, derivedSeed, seedMatchesSecret, seedOrigin } from '../../src/engine/commitment.js';
import { openStore, type Store } from '../../src/store/index.js';
import { seedNoteOfRoll } from '../../src/store/seed-notes.js';
import { freshDatabaseUrl, freshStoreEachTest, onPostgres } from '../helpers/database.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

const DAY_ONE = new Date('2026-11-27T20:00:00Z');
const DAY_TWO = new Date('2026-11-28T00:00:01Z');

function roll(seed: string, guildId = 'g') {
  return { guildId, channelId: 'c', userId: 'mike', kind: 'challenge', inputs: { skill: { name: 'Climbing', level: 40 }, archetypes: [], modifiers: [], challengeLevel: 90 }, seed, dice: { tens: 4, ones: 8 }, result: {}, total: 88, challengeLevel: 90, success: false };
}

function seedOf(guildId = 'g'): string {
  const seed = store.sessions.nextSeed(guildId);
  if (seed === null) throw new Error('no session loaded');
  return seed;
}

describe('play sessions', () => {
  it("makes the day a session at its first need, derives each seed from its secret and index, and publishes the secret only once it is closed", async () => {
    expect(store.sessions.nextSeed('g')).toBeNull();
    const day = await store.sessions.prepare('g', DAY_ONE);
    expect(day).toMatchObject({ kind: 'day', day: '2026-11-27', secret: null, closedAt: null });
    expect(day.commitment).toMatch(/^[0-9a-f]{64}$/);
    const seeds = [seedOf(), seedOf(), seedOf()];
    expect(seeds.map(seedOrigin)).toEqual([0, 1, 2].map((seedIndex) => ({ sessionId: day.id, seedIndex })));
    // A second prepare the same day keeps the session and its counter.
    expect((await store.sessions.prepare('g', DAY_ONE)).id).toBe(day.id);
    expect(seedOrigin(seedOf())).toEqual({ sessionId: day.id, seedIndex: 3 });
    expect(await store.sessions.find('g', day.id)).toMatchObject({ secret: null });
    expect((await store.sessions.forProof('g', [day.id]))[0]).toMatchObject({ id: day.id, secret: null, closedAt: null });

    const closed = await store.sessions.closeOpen('g', DAY_ONE);
    expect(closed).toMatchObject({ id: day.id, closedAt: DAY_ONE });
    expect(commitmentOf(closed!.secret!)).toBe(day.commitment);
    for (const seed of seeds) expect(seedMatchesSecret(seed, closed!.secret!)).toBe(true);
    expect((await store.sessions.forProof('g', [day.id]))[0]).toMatchObject({ secret: closed!.secret, commitment: day.commitment });
    // Closed: no seed comes from a secret that is published, and the next session is a new one.
    expect(store.sessions.nextSeed('g')).toBeNull();
    expect(await store.sessions.closeOpen('g', DAY_ONE)).toBeNull();
    const next = await store.sessions.prepare('g', DAY_ONE);
    expect(next.id).not.toBe(day.id);
    expect(seedOrigin(seedOf())).toEqual({ sessionId: next.id, seedIndex: 0 });
  });

  it("opening a play session closes the day's first, its secret published with it", async () => {
    const day = await store.sessions.prepare('g', DAY_ONE);
    seedOf();
    const { opened, closed } = await store.sessions.openPlay('g', { title: 'The docks heist', channelId: 'c', openedBy: 'dispatcher', now: DAY_ONE });
    expect(closed).toMatchObject({ id: day.id, kind: 'day' });
    expect(commitmentOf(closed!.secret!)).toBe(day.commitment);
    expect(opened).toMatchObject({ kind: 'play', title: 'The docks heist', openedBy: 'dispatcher', secret: null });
    expect(await store.sessions.current('g')).toMatchObject({ id: opened.id });
    expect(seedOrigin(seedOf())).toEqual({ sessionId: opened.id, seedIndex: 0 });
    // A play session outlasts midnight: a new day does not close it.
    expect((await store.sessions.prepare('g', DAY_TWO)).id).toBe(opened.id);
    expect(seedOrigin(seedOf())).toEqual({ sessionId: opened.id, seedIndex: 1 });
    // Opening another closes this one the same way.
    const again = await store.sessions.openPlay('g', { title: 'Part two', channelId: 'c', openedBy: 'dispatcher', now: DAY_TWO });
    expect(again.closed).toMatchObject({ id: opened.id, kind: 'play' });
    expect(commitmentOf(again.closed!.secret!)).toBe(opened.commitment);
  });

  it("closes yesterday's day session at the first need of a new day, and starts the day's own", async () => {
    const yesterday = await store.sessions.prepare('g', DAY_ONE);
    expect(store.sessions.isReady('g', DAY_ONE)).toBe(true);
    expect(store.sessions.isReady('g', DAY_TWO)).toBe(false);
    const today = await store.sessions.prepare('g', DAY_TWO);
    expect(today).toMatchObject({ kind: 'day', day: '2026-11-28' });
    expect(today.id).not.toBe(yesterday.id);
    expect(await store.sessions.find('g', yesterday.id)).toMatchObject({ closedAt: DAY_TWO });
    expect((await store.sessions.find('g', yesterday.id))!.secret).not.toBeNull();
    expect(await store.sessions.lastClosed('g')).toMatchObject({ id: yesterday.id });
  });

  it('stores each roll with its seed’s session and index, and notes them for its message', async () => {
    const day = await store.sessions.prepare('g', DAY_ONE);
    const seed = seedOf();
    const id = await store.rolls.record(roll(seed));
    expect(await store.db.roll.findUnique({ where: { id }, select: { sessionId: true, seedIndex: true } })).toEqual({ sessionId: day.id, seedIndex: 0 });
    expect(seedNoteOfRoll(id)).toEqual({ sessionId: day.id, seedIndex: 0, dayCommitment: day.commitment });
    const second = await store.rolls.record(roll(seedOf()));
    expect(seedNoteOfRoll(second)).toEqual({ sessionId: day.id, seedIndex: 1, dayCommitment: null });
    // A seed of its own (every roll before commit and reveal) names no session.
    const own = await store.rolls.record(roll('0123456789abcdef'));
    expect(await store.db.roll.findUnique({ where: { id: own }, select: { sessionId: true, seedIndex: true } })).toEqual({ sessionId: null, seedIndex: null });
    expect(seedNoteOfRoll(own)).toBeNull();
    expect(await store.sessions.rollCount('g', day.id)).toBe(2);
  });

  it('never gives two seeds one index: prepares at once load one session, and the counter is shared', async () => {
    const prepared = await Promise.all(Array.from({ length: 20 }, () => store.sessions.prepare('g', DAY_ONE)));
    expect(new Set(prepared.map((session) => session.id)).size).toBe(1);
    expect(await store.db.playSession.count({ where: { guildId: 'g' } })).toBe(1);
    const seeds = await Promise.all(Array.from({ length: 50 }, async () => store.rolls.record(roll(seedOf())).then(() => undefined)));
    expect(seeds).toHaveLength(50);
    const indexes = (await store.db.roll.findMany({ where: { sessionId: prepared[0]!.id }, select: { seedIndex: true } })).map((row) => row.seedIndex);
    expect(new Set(indexes).size).toBe(50);
    expect(Math.max(...(indexes as number[]))).toBe(49);
  });

  it('keeps servers apart: each its own session and counter, another server’s session not found', async () => {
    const mine = await store.sessions.prepare('g', DAY_ONE);
    const theirs = await store.sessions.prepare('h', DAY_ONE);
    expect(theirs.id).not.toBe(mine.id);
    expect(seedOrigin(seedOf('g'))).toEqual({ sessionId: mine.id, seedIndex: 0 });
    expect(seedOrigin(seedOf('h'))).toEqual({ sessionId: theirs.id, seedIndex: 0 });
    expect(await store.sessions.find('h', mine.id)).toBeNull();
    expect(await store.sessions.forProof('h', [mine.id])).toEqual([]);
    await store.sessions.closeOpen('g', DAY_ONE);
    expect(await store.sessions.current('h')).toMatchObject({ id: theirs.id });
  });
});

describe.skipIf(onPostgres)('a restarted bot', () => {
  it('resumes the open session’s seeds past the highest index the roll log holds', async () => {
    const url = freshDatabaseUrl();
    const first = await openStore(url);
    const session = await first.sessions.prepare('g', DAY_ONE);
    const secretOf = async (opened: Store) => (await opened.db.playSession.findUniqueOrThrow({ where: { id: session.id } })).secret;
    for (let index = 0; index < 3; index++) await first.rolls.record(roll(first.sessions.nextSeed('g')!));
    await first.close();

    const second = await openStore(url);
    try {
      expect(second.sessions.nextSeed('g')).toBeNull();
      expect((await second.sessions.prepare('g', DAY_ONE)).id).toBe(session.id);
      const seed = second.sessions.nextSeed('g')!;
      expect(seed).toBe(derivedSeed(await secretOf(second), { sessionId: session.id, seedIndex: 3 }));
    } finally {
      await second.close();
    }
  });
});
