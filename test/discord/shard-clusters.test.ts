import { describe, expect, it } from 'vitest';
import { DEFAULT_RESPAWN_POLICY, planClusters, respawnDelay } from '../../src/discord/shards.js';

const shardsOf = (ids: number[], perProcess: number | 'auto', cores?: number): number[][] => planClusters(ids, perProcess, cores).map((plan) => plan.shards);

describe('the shard manager groups its shards into cluster processes', () => {
  it('runs ceil(shards / SHARDS_PER_PROCESS) processes, shards in order, as even as can be', () => {
    expect(shardsOf([0, 1, 2], 1)).toEqual([[0], [1], [2]]);
    expect(shardsOf([0, 1, 2, 3], 2)).toEqual([[0, 1], [2, 3]]);
    expect(shardsOf([0, 1, 2, 3, 4], 2)).toEqual([[0, 1], [2, 3], [4]]);
    expect(shardsOf([0, 1, 2, 3], 16)).toEqual([[0, 1, 2, 3]]);
    // SHARD_IDS of one machine among several: its own shards only.
    expect(shardsOf([4, 5, 6, 7], 2)).toEqual([[4, 5], [6, 7]]);
  });

  it('with auto, spreads the shards over one process per core, never more processes than shards', () => {
    expect(shardsOf(Array.from({ length: 16 }, (_, id) => id), 'auto', 4)).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]);
    expect(shardsOf([0, 1, 2, 3, 4], 'auto', 2)).toEqual([[0, 1, 2], [3, 4]]);
    expect(shardsOf([0, 1], 'auto', 8)).toEqual([[0], [1]]);
    expect(planClusters([0, 1, 2], 'auto', 2).map((plan) => plan.id)).toEqual([0, 1]);
  });
});

describe('a dead cluster is respawned after a capped exponential backoff', () => {
  const noJitter = () => 0;
  it('waits 5 s, then 10 s, 20 s … for deaths in a row, never more than 5 minutes', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((deaths) => respawnDelay(deaths, DEFAULT_RESPAWN_POLICY, noJitter))).toEqual([
      5_000, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000, 300_000,
    ]);
  });

  it('adds up to a fifth at random, so clusters that died together come back apart, and never less than the pace of IDENTIFYs', () => {
    expect(respawnDelay(1, DEFAULT_RESPAWN_POLICY, () => 0.999)).toBeLessThanOrEqual(6_000);
    expect(respawnDelay(1, DEFAULT_RESPAWN_POLICY, () => 0.5)).toBe(5_500);
    expect(respawnDelay(10, DEFAULT_RESPAWN_POLICY, () => 1)).toBe(360_000);
  });
});
