/**
 * Every rule system as the views show it: one list of their views (each declared next to its system's own views),
 * in the order of the engine's list of systems, read by /help's first steps and /roll replay.
 */
import { SYSTEMS } from '../engine/systems/index.js';
import { d10PoolView } from './d10-pool.js';
import { d6PoolView } from './d6-pool.js';
import { resultPointsView } from './result-points.js';
import { systemViews } from './system-view.js';
import { tactalkView } from './tactalk.js';
import { d100TacticsView } from './tactics.js';

export const SYSTEM_VIEWS = systemViews(SYSTEMS, [tactalkView, d100TacticsView, resultPointsView, d6PoolView, d10PoolView]);
