/**
 * The limits on what a player opens (issue 22), on PostgreSQL with two bot processes: starts at once, in both
 * processes, never open more contests or leave more intents waiting than the limit. The count and the insert are one
 * serializable transaction; two that would pass the limit together conflict, and the one run again counts the other.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { proposeContest } from '../../src/engine/systems/tactalk/contest.js';
import { stateIntent } from '../../src/engine/systems/tactalk/roll-request.js';
import type { Store } from '../../src/store/index.js';
import { twoProcessStores } from '../helpers/database.js';

let a: Store;
let b: Store;
let close: () => Promise<void>;
beforeEach(async () => {
  ({ a, b, close } = await twoProcessStores());
});
afterEach(() => close());

const MOST = 3;
const TRIALS = 20;
const NOW = new Date();
const LATER = new Date(NOW.getTime() + 15 * 60_000);

describe('limits under starts at once in two processes (PostgreSQL)', () => {
  it(`six contest starts against one player open at most ${MOST} (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const guildId = `g${trial}`;
      const start = (store: Store, challenger: number) =>
        store.contests.start(
          {
            guildId,
            channelId: 'c',
            state: proposeContest({ challengerId: `p${challenger}`, opponentId: 'mike', challengerOperator: { id: challenger, name: 'Kat' }, intent: 'Disarm', stakes: 'Disarmed', addsOwnSkill: false }),
            expiresAt: LATER,
          },
          MOST,
          NOW,
        );
      const started = await Promise.all([0, 1, 2, 3, 4, 5].map((challenger) => start(challenger % 2 === 0 ? a : b, challenger)));
      expect(started.filter((outcome) => !('full' in outcome)), `trial ${trial}`).toHaveLength(MOST);
      expect(started.filter((outcome) => 'full' in outcome).map((outcome) => (outcome as { full: string }).full)).toEqual(['mike', 'mike', 'mike']);
      expect(await a.db.contest.count({ where: { guildId } })).toBe(MOST);
    }
  });

  it(`ten intents at once from one player leave at most ${MOST} waiting (${TRIALS} trials)`, async () => {
    for (let trial = 0; trial < TRIALS; trial++) {
      const guildId = `g${trial}`;
      const state = stateIntent({ playerId: 'mike', operatorName: 'Troy', intent: 'Climb', outcome: 'Up' });
      const stated = await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? a : b).rollRequests.stateIntent(guildId, 'c', state, MOST, NOW)));
      expect(stated.filter(Boolean), `trial ${trial}`).toHaveLength(MOST);
      expect(await a.db.rollRequest.count({ where: { guildId } })).toBe(MOST);
    }
  });
});
