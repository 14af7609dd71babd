/** Exact odds are counts of equally likely outcomes; shown as percentages. */

/** A count of outcomes as a percentage with one decimal, rounded to nearest. */
export function percentOf(count: bigint, outcomes: bigint): number {
  if (outcomes <= 0n) throw new RangeError('no outcomes to count against');
  return Number((count * 1000n + outcomes / 2n) / outcomes) / 10;
}
