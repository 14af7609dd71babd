import { diceForD100 } from '../../src/engine/dice.js';
import type { Rng } from '../../src/engine/rng.js';

/** An Rng that makes the D100s come up as given, in order (each D100 is two draws: tens, then ones). */
export function scriptedD100(...values: number[]): Rng {
  const draws = values.flatMap((value) => {
    const dice = diceForD100(value);
    return [dice.tens, dice.ones];
  });
  let next = 0;
  return {
    int(n: number): number {
      if (next >= draws.length) throw new Error(`scripted dice ran out after ${values.length} D100s`);
      const draw = draws[next++]!;
      if (draw >= n) throw new Error(`scripted draw ${draw} is not below ${n}`);
      return draw;
    },
  };
}
