/** d100 roll-under tactics (seed 001): checks, attacks, damage, psi, social and reaction checks, movement. */
import { defineSystem } from '../system.js';
import { d100TacticsReplays } from './replay.js';
import { D100_TACTICS_SHEET } from './sheet.js';

export const d100Tactics = defineSystem({
  id: 'd100-tactics',
  name: 'd100 roll-under tactics',
  command: '/tactics',
  sheet: D100_TACTICS_SHEET,
  replays: d100TacticsReplays,
  initiative: [],
});
