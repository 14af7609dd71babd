/**
 * One row of `npm run bench -- scale` (bench/scale.ts): each file of bench/scale/ but this one exports
 * `measure(): Promise<ScaleRow[]>`, run in file-name order, each against a fake Discord (and a throwaway PostgreSQL
 * server where it needs one) of its own.
 */
export interface ScaleRow {
  /** What is measured, e.g. "first start, 5,000 servers on 3 shards: REST calls". */
  row: string;
  /** The figure as printed, e.g. "3 calls, 1.2 s, peak 12 req/s". */
  figure: string;
  /** The goal the issue sets, e.g. "≤ 50 req/s"; absent when there is none. */
  goal?: string;
  /** Whether the goal was met; absent when there is none. */
  met?: boolean;
  /** Every figure behind the row, written to bench/results/scale.json. */
  details?: Record<string, unknown>;
}

export type MeasureScale = () => Promise<ScaleRow[]>;
