import { z } from 'zod';
import type { Rng } from './rng.js';

/** A D100 read as 2D10 (RULES 1.1): a tens die and a ones die, both 0–9; [0][0] is 100. */
export const d100Schema = z.object({ tens: z.int(), ones: z.int(), value: z.int() });
export type D100 = z.infer<typeof d100Schema>;

export function rollD100(rng: Rng): D100 {
  const tens = rng.int(10);
  const ones = rng.int(10);
  return d100FromDice(tens, ones);
}

export function d100FromDice(tens: number, ones: number): D100 {
  const value = tens * 10 + ones;
  return { tens, ones, value: value === 0 ? 100 : value };
}

/** The two dice that show a D100 value: 48 → [4][8], 100 → [0][0]. */
export function diceForD100(value: number): D100 {
  if (!Number.isInteger(value) || value < 1 || value > 100) throw new RangeError(`a D100 shows 1–100, not ${value}`);
  return value === 100 ? { tens: 0, ones: 0, value } : { tens: Math.floor(value / 10), ones: value % 10, value };
}
