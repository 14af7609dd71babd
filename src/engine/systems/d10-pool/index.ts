/** d10 pools (seed 004): basic, advanced and cumulative rolls, and initiative rolled each phase. */
import { defineSystem } from '../system.js';
import { D10_PHASE_RULE } from './initiative.js';
import { d10PoolReplays } from './replay.js';
import { D10_POOL_SHEET } from './sheet.js';

export const d10Pool = defineSystem({
  id: 'd10-pool',
  name: 'd10 pools',
  command: '/d10',
  sheet: D10_POOL_SHEET,
  replays: d10PoolReplays,
  initiative: [D10_PHASE_RULE],
});
