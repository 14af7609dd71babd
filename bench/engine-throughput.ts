/**
 * The engine alone: Tac Talk challenge rolls per second, the way the bot rolls (a new seed and a new seeded
 * generator per roll), with the seeding alone, and with one generator reused (what seeding costs).
 */
import seedrandom from 'seedrandom';
import { newSeed, seededRng, type Rng } from '../src/engine/rng.js';
import { resolveChallenge, type ChallengeInput } from '../src/engine/systems/tactalk/challenge.js';

export interface EngineFigures {
  /** newSeed() + seededRng(seed) + resolveChallenge per roll: what /roll challenge does. */
  newSeedPerRoll: number;
  /** seededRng(seed) + resolveChallenge per roll, with seeds made beforehand. */
  seededRngPerRoll: number;
  /** resolveChallenge with one generator for every roll. */
  oneRngReused: number;
  /** The floor: raw 32-bit draws from one seeded generator (seedrandom's ARC4), nothing else. */
  rawDraws: number;
}

/** The same roll the latency benchmark makes: Climbing 40 + Acuity 10 vs CL 90. */
export const CHALLENGE_INPUT: ChallengeInput = {
  skill: { name: 'Climbing', level: 40 },
  archetypeModifiers: [{ name: 'Acuity', value: 10 }],
  conditionModifiers: [],
  situationalModifier: 0,
  challengeLevel: 90,
  force: false,
  hidden: false,
};

/** Calls roll() in batches for about `ms` milliseconds; returns calls per second. */
function rate(roll: (i: number) => unknown, ms: number): number {
  let sink = 0;
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  do {
    for (let i = 0; i < 1000; i++) {
      if (roll(count + i) !== undefined) sink++;
    }
    count += 1000;
    elapsed = performance.now() - started;
  } while (elapsed < ms);
  if (sink !== count) throw new Error('a roll returned nothing'); // keeps the results alive
  return (count / elapsed) * 1000;
}

export function engineThroughput(msEach = 1000): EngineFigures {
  const seeds = Array.from({ length: 4096 }, () => newSeed());
  const shared: Rng = seededRng(newSeed());
  const raw = seedrandom(newSeed());
  // Warm up every path so the JIT has compiled them before the measured second.
  rate(() => resolveChallenge(CHALLENGE_INPUT, seededRng(newSeed())), 150);
  rate(() => resolveChallenge(CHALLENGE_INPUT, shared), 150);
  rate(() => raw.int32(), 150);
  return {
    newSeedPerRoll: rate(() => resolveChallenge(CHALLENGE_INPUT, seededRng(newSeed())), msEach),
    seededRngPerRoll: rate((i) => resolveChallenge(CHALLENGE_INPUT, seededRng(seeds[i & 4095]!)), msEach),
    oneRngReused: rate(() => resolveChallenge(CHALLENGE_INPUT, shared), msEach),
    rawDraws: rate(() => raw.int32(), msEach),
  };
}
