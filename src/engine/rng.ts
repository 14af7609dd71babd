import { randomBytes } from 'node:crypto';
import seedrandom from 'seedrandom';

/** A source of uniform integers. Every engine function takes one, so a roll is reproducible from its seed. */
export interface Rng {
  /** A uniform integer in [0, n), 1 ≤ n ≤ 2^32. */
  int(n: number): number;
}

const TWO_32 = 2 ** 32;

/**
 * The generator behind every roll: seedrandom's ARC4 stream. Integers are drawn by rejection sampling over
 * 32-bit words, so no face is favoured (no modulo bias).
 */
export function seededRng(seed: string): Rng {
  const source = seedrandom(seed);
  return {
    int(n: number): number {
      if (!Number.isInteger(n) || n < 1 || n > TWO_32) throw new RangeError(`int(n) needs 1 ≤ n ≤ 2^32, got ${n}`);
      const limit = TWO_32 - (TWO_32 % n);
      for (;;) {
        const word = source.int32() >>> 0;
        if (word < limit) return word % n;
      }
    },
  };
}

/** A fresh seed for a new roll: 64 random bits from the operating system, as hex. */
export function newSeed(): string {
  return randomBytes(8).toString('hex');
}
