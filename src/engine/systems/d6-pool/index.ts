/** d6 pools with pushing (seed 003): rolls, opposed rolls, pushes and the conditions they cost. */
import { defineSystem } from '../system.js';
import { d6PoolReplays } from './replay.js';
import { D6_POOL_SHEET } from './sheet.js';

export const d6Pool = defineSystem({
  id: 'd6-pool',
  name: 'd6 pools with pushing',
  command: '/pool',
  sheet: D6_POOL_SHEET,
  replays: d6PoolReplays,
  initiative: [],
});
