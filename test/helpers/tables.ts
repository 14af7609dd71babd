// Outcome tables the tests share.
import type { OutcomeTable } from '../../src/engine/tables.js';

/** The investigation table of a hidden Lock Picking challenge: 101+ reveals the CL's band, 141+ the CL itself. */
export const LOCK_PICKING_INVESTIGATION: OutcomeTable = {
  name: 'Investigation: Lock Picking',
  die: 'd100',
  asks: 'Add your Lock Picking aptitude',
  skill: null,
  rows: [
    { min: 1, max: 100, text: 'You learn nothing.', next: null, reveals: null },
    { min: 101, max: 140, text: 'You judge the lock roughly.', next: null, reveals: 'band' },
    { min: 141, max: 200, text: 'You know this lock exactly.', next: null, reveals: 'cl' },
  ],
};
