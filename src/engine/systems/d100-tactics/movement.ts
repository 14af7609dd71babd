/**
 * Movement in d100 tactical combat (seed 001, "Move", "Dash" and "Movement"): what a path and the move actions
 * taken during it cost in Mobility points, against what a Move (Mobility) or a Dash (twice Mobility) allows.
 * Pure: no dice, nothing stored.
 */
import { UserError } from '../../../errors.js';

/** One point per square straight along the grid. */
export const STRAIGHT_COST = 1;
/** Diagonals alternate: 2 points for the first, 1 for the second, and repeat (three points per two diagonals). */
export const DIAGONAL_COSTS = [2, 1] as const;
/** Rough terrain: double the points to enter the square. */
export const ROUGH_MULTIPLIER = 2;
/** Dash: twice the Mobility score. */
export const DASH_MULTIPLIER = 2;
/** Move actions taken during movement, in Mobility points. */
export const MOVE_ACTION_COSTS = {
  /** Equipping: 4 in general; some heavy weapons 6 or 8; some sidearms are free. */
  equip: [0, 4, 6, 8],
  take: 4,
  pickUpPerson: 10,
  putDownPerson: 2,
} as const;
export const MOBILITY_MAX = 100;
export const PATH_SQUARES_MAX = 200;
export const TAKE_MAX = 10;
export const OTHER_MOVE_ACTIONS_MAX = 100;

export type StepKind = 'straight' | 'diagonal';

/** A run of squares as the path was written: `3s` is three straight squares, `2rd` two rough diagonals. */
export interface PathRun {
  kind: StepKind;
  rough: boolean;
  squares: number;
}

/** A run with what each of its squares cost, in order. */
export interface CostedRun extends PathRun {
  costs: number[];
  cost: number;
}

export interface MoveAction {
  name: string;
  cost: number;
}

export interface MoveInput {
  /** The mover's Mobility score. */
  mobility: number;
  /** A Dash (Full Action, twice Mobility) rather than a Move (Core Action, Mobility). */
  dash: boolean;
  path: PathRun[];
  actions: MoveAction[];
}

export interface MoveResult {
  input: MoveInput;
  runs: CostedRun[];
  squares: number;
  pathCost: number;
  actionsCost: number;
  /** pathCost + actionsCost. */
  cost: number;
  /** Mobility for a Move, twice it for a Dash. */
  allowance: number;
  /** allowance − cost: what is left (negative: too far). */
  left: number;
  fits: boolean;
}

const PATH_HELP =
  'Write the path as runs of squares in the order moved: a count and `s` (straight) or `d` (diagonal), `r` before it for rough terrain, e.g. `3s 2d 1rd 2rs`. A bare number is straight squares.';

/**
 * Reads a path such as `3s 2d 1rd`, `4 2d`, `s d d` or `3 straight, 2 rough diagonal`. The order matters: it
 * decides which diagonal is a first (2) or a second (1), and so what a rough one costs.
 */
export function parsePath(text: string): PathRun[] {
  const runs: PathRun[] = [];
  const token = /(\d+)?\s*(?:(?:(rough|r)\s*)?(straight|s|diagonal|d))?/iy;
  let at = 0;
  let squares = 0;
  const separators = /[\s,;+]+/y;
  while (at < text.length) {
    separators.lastIndex = at;
    if (separators.exec(text)) {
      at = separators.lastIndex;
      continue;
    }
    token.lastIndex = at;
    const match = token.exec(text);
    if (!match || match[0].length === 0) {
      throw new UserError(`The path \`${text.slice(0, 60)}\` could not be read at \`${text.slice(at, at + 12)}\`. ${PATH_HELP}`);
    }
    at = token.lastIndex;
    const count = match[1] === undefined ? 1 : Number(match[1]);
    if (count === 0) continue;
    squares += count;
    if (squares > PATH_SQUARES_MAX) throw new UserError(`A path is at most ${PATH_SQUARES_MAX} squares.`);
    const kind: StepKind = match[3] !== undefined && match[3].toLowerCase().startsWith('d') ? 'diagonal' : 'straight';
    runs.push({ kind, rough: match[2] !== undefined, squares: count });
  }
  if (runs.length === 0) throw new UserError(`The path is empty. ${PATH_HELP}`);
  return runs;
}

/** `3 straight`, `2 rough diagonal`, as a player says it. */
export function runName(run: PathRun): string {
  return `${run.squares} ${run.rough ? 'rough ' : ''}${run.kind}`;
}

/** What each square of the path costs: the diagonal count runs through the whole path, rough doubles a square. */
export function costPath(path: PathRun[]): CostedRun[] {
  let diagonals = 0;
  return path.map((run) => {
    const costs: number[] = [];
    for (let square = 0; square < run.squares; square++) {
      const base = run.kind === 'straight' ? STRAIGHT_COST : DIAGONAL_COSTS[diagonals++ % DIAGONAL_COSTS.length]!;
      costs.push(run.rough ? base * ROUGH_MULTIPLIER : base);
    }
    return { ...run, costs, cost: costs.reduce((sum, cost) => sum + cost, 0) };
  });
}

function checkInteger(value: number, min: number, max: number, what: string): void {
  if (!Number.isInteger(value) || value < min || value > max) throw new UserError(`${what} must be a whole number from ${min} to ${max}; ${value} is not.`);
}

export function validateMoveInput(input: MoveInput): void {
  checkInteger(input.mobility, 0, MOBILITY_MAX, 'Mobility');
  if (input.path.length === 0) throw new UserError(`The path is empty. ${PATH_HELP}`);
  const squares = input.path.reduce((sum, run) => sum + run.squares, 0);
  if (squares > PATH_SQUARES_MAX) throw new UserError(`A path is at most ${PATH_SQUARES_MAX} squares.`);
  for (const action of input.actions) checkInteger(action.cost, 0, OTHER_MOVE_ACTIONS_MAX, `The cost of ${action.name}`);
}

export function resolveMove(input: MoveInput): MoveResult {
  validateMoveInput(input);
  const runs = costPath(input.path);
  const pathCost = runs.reduce((sum, run) => sum + run.cost, 0);
  const actionsCost = input.actions.reduce((sum, action) => sum + action.cost, 0);
  const cost = pathCost + actionsCost;
  const allowance = input.dash ? input.mobility * DASH_MULTIPLIER : input.mobility;
  return {
    input,
    runs,
    squares: runs.reduce((sum, run) => sum + run.squares, 0),
    pathCost,
    actionsCost,
    cost,
    allowance,
    left: allowance - cost,
    fits: cost <= allowance,
  };
}
