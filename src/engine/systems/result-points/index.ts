/** Die codes and result points (seed 002): checks, points spent on tracks, scenes, and three initiative rules. */
import { defineSystem } from '../system.js';
import { CHASE_RULE, DEBATE_RULE, MELEE_RULE } from './initiative.js';
import { resultPointsReplays } from './replay.js';
import { RESULT_POINTS_SHEET } from './sheet.js';

export const resultPoints = defineSystem({
  id: 'result-points',
  name: 'Die codes and result points',
  command: '/code',
  sheet: RESULT_POINTS_SHEET,
  replays: resultPointsReplays,
  initiative: [MELEE_RULE, CHASE_RULE, DEBATE_RULE],
});
