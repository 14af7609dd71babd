/** Tac Talk: challenges and linked challenges, contests and roll requests, rolled with `/roll`. */
import { defineSystem } from '../system.js';
import { tactalkReplays } from './replay.js';
import { TACTALK_SHEET } from './sheet.js';

export const tactalk = defineSystem({
  id: 'tactalk',
  name: 'Tac Talk (Decision Engine)',
  command: '/roll',
  sheet: TACTALK_SHEET,
  replays: tactalkReplays,
  initiative: [],
});
