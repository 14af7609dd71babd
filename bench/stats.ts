/** Summary statistics for the benchmark: percentiles by linear interpolation between closest ranks. */

export interface Summary {
  n: number;
  mean: number;
  min: number;
  median: number;
  p95: number;
  p99: number;
  max: number;
}

/** The q-quantile (0 ≤ q ≤ 1) of already sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.ceil(position);
  const low = sorted[below]!;
  const high = sorted[above]!;
  return low + (high - low) * (position - below);
}

export function median(values: readonly number[]): number {
  return quantile([...values].sort((a, b) => a - b), 0.5);
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    n: sorted.length,
    mean: sorted.length ? sum / sorted.length : Number.NaN,
    min: sorted[0] ?? Number.NaN,
    median: quantile(sorted, 0.5),
    p95: quantile(sorted, 0.95),
    p99: quantile(sorted, 0.99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Rounds for JSON output (3 decimals by default). */
export function round(value: number, decimals = 3): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

export function roundSummary(summary: Summary): Summary {
  return Object.fromEntries(Object.entries(summary).map(([key, value]) => [key, key === 'n' ? value : round(value)])) as unknown as Summary;
}
