import type { Rng } from '../../src/engine/rng.js';

/**
 * An Rng that makes dice show the given faces, in order: a d6 or d10 face f (1-based) is the draw f − 1.
 * Fails the test when the script runs out or a face does not fit the die asked for.
 */
export function scriptedFaces(...faces: number[]): Rng & { remaining(): number } {
  let next = 0;
  return {
    int(n: number): number {
      if (next >= faces.length) throw new Error(`scripted faces ran out after ${faces.length} dice`);
      const face = faces[next++]!;
      if (!Number.isInteger(face) || face < 1 || face > n) throw new Error(`scripted face ${face} does not fit a d${n}`);
      return face - 1;
    },
    remaining: () => faces.length - next,
  };
}

/** Every sequence of `length` faces of a d`sides`, in order (for enumerating small pools exactly). */
export function* allFaces(length: number, sides: number): Generator<number[]> {
  const faces = new Array<number>(length).fill(1);
  for (;;) {
    yield [...faces];
    let position = length - 1;
    while (position >= 0 && faces[position] === sides) faces[position--] = 1;
    if (position < 0) return;
    faces[position]!++;
  }
}
