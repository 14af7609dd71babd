/**
 * One initiative tracker for every system that has an initiative rule (seed 002's tactical scenes, seed 004's
 * phases): who takes part, the order their initiative gives, whose turn it is, and the round (or phase) counted.
 * Each system's own rule makes the numbers (src/engine/systems/result-points/initiative.ts,
 * src/engine/systems/d10-pool/initiative.ts); this file orders them and steps through them. Pure: no dice here, no
 * clock, no Discord. A change is a new state; a step that would need new dice (a d10 tracker's next phase) says so,
 * and the caller rolls them with the system's rule and hands the totals back (`beginRolledCycle`).
 */
import { z } from 'zod';
import { UserError } from '../errors.js';
import { initiativeRuleIdSchema, type InitiativeRule as RuleOfSystem } from './initiative-rule.js';
import { Refused } from './refusals.js';
import { initiativeRules, systemIdSchema, systemsWithoutInitiative, type SystemId } from './systems/index.js';
import { dieCodeSchema } from './systems/result-points/die-code.js';

/** A tracker holds at most this many combatants (one embed line each, well inside Discord's limits). */
export const COMBATANTS_MAX = 25;

/** How a system orders its scene: the facts the tracker needs, as each system's rule file states them. */
export type InitiativeRule = RuleOfSystem<SystemId>;

/** The systems whose seeds give no initiative rule: the tracker offers them a manual order, highest first. */
export function manualRule(system: SystemId): InitiativeRule {
  return { id: 'manual', system, first: 'highest', cycle: 'round', rolled: 'never' };
}

/** Every rule a tracker can follow, as the systems list them; `manual` is made per system by `manualRule`. */
export const INITIATIVE_RULES: readonly InitiativeRule[] = initiativeRules;

/** The systems a tracker offers a manual order, in the order the systems are listed. */
export const MANUAL_SYSTEMS: readonly SystemId[] = systemsWithoutInitiative;

/** The rule a stored tracker follows (its id and system are in its state). */
export function ruleOf(state: Pick<TrackerState, 'rule' | 'system'>): InitiativeRule {
  if (state.rule === 'manual') return manualRule(state.system);
  const rule = INITIATIVE_RULES.find((candidate) => candidate.id === state.rule);
  if (!rule) throw new Error(`unknown initiative rule ${state.rule}`);
  return rule;
}

/** Where a combatant's initiative comes from, as it was given. */
const initiativeSourceSchema = z.discriminatedUnion('kind', [
  /** A value given: melee's fixed ability value (typed as a die code, read 3·N + P, or as the value), a manual order value. */
  z.object({ kind: z.literal('value'), value: z.number(), code: dieCodeSchema.nullable() }),
  /** A chase: the position, set by the Dispatcher (1 leads). */
  z.object({ kind: z.literal('position'), position: z.number() }),
  /** A debate: the ability check's die code, rolled on joining. */
  z.object({ kind: z.literal('code'), code: dieCodeSchema }),
  /** Seed 004: the initiative pool (d10s) and what is added to it, rolled each phase. */
  z.object({ kind: z.literal('pool'), dice: z.number(), modifier: z.number() }),
]);
export type InitiativeSource = z.infer<typeof initiativeSourceSchema>;

/** A combatant's initiative in one cycle (or, with cycle 0, in every cycle). */
const initiativeMarkSchema = z.object({
  /** The round or phase it holds for; 0 = every one (a fixed value, a debate check rolled once). */
  cycle: z.number(),
  total: z.number(),
  /** The faces rolled, for the embed; null when nothing was rolled. */
  dice: z.array(z.array(z.number())).nullable(),
  /** The roll in the roll log that made it. */
  rollId: z.string().nullable(),
});
export type InitiativeMark = z.infer<typeof initiativeMarkSchema>;

const combatantSchema = z.object({
  /** `player:<user id>` or `npc:<name key>`: the same person or NPC cannot be in twice. */
  key: z.string(),
  name: z.string(),
  /** The player whose sheet this is; null for an NPC (an NPC is never pinged). */
  playerId: z.string().nullable(),
  sheetId: z.number().nullable(),
  source: initiativeSourceSchema,
  /** Who joined first wins a tie: a count kept by the tracker. */
  joined: z.number(),
  /** The initiative per cycle: one mark for cycle 0, or (rolled each phase) the last two phases'. */
  marks: z.array(initiativeMarkSchema),
});
export type Combatant = z.infer<typeof combatantSchema>;

/** A tracker as the store keeps it. */
export const trackerStateSchema = z.object({
  rule: initiativeRuleIdSchema,
  system: systemIdSchema,
  /** Who started it. */
  dispatcherId: z.string(),
  combatants: z.array(combatantSchema),
  /** The round or phase under way; 0 before the Dispatcher begins. */
  cycle: z.number(),
  /** Whose turn it is; null before the beginning, and once everyone in the cycle has acted (Next starts the next). */
  turn: z.string().nullable(),
  /** Rolled each phase: the latest phase with rolled initiative (Previous may look one phase back, before it). */
  rolledThrough: z.number(),
  /** The next `joined` number. */
  joinCount: z.number(),
});
export type TrackerState = z.infer<typeof trackerStateSchema>;

export function newTracker(rule: InitiativeRule, dispatcherId: string): TrackerState {
  return { rule: rule.id, system: rule.system, dispatcherId, combatants: [], cycle: 0, turn: null, rolledThrough: 0, joinCount: 0 };
}

/** The cycle a new mark is for: every cycle, or (rolled each phase) the latest phase rolled, or the first. */
export function markCycle(state: TrackerState): number {
  return ruleOf(state).rolled === 'each cycle' ? Math.max(1, state.cycle, state.rolledThrough) : 0;
}

/** A combatant's initiative in `cycle`, or null when they have none there (they joined after it was rolled). */
export function initiativeIn(combatant: Combatant, cycle: number): InitiativeMark | null {
  return combatant.marks.find((mark) => mark.cycle === cycle) ?? combatant.marks.find((mark) => mark.cycle === 0) ?? null;
}

export interface OrderEntry {
  combatant: Combatant;
  mark: InitiativeMark;
}

/**
 * The order of `cycle` (default: the one under way, or the first before the beginning): who has initiative there,
 * highest or lowest first as the rule says; a tie goes to who joined first.
 */
export function orderOf(state: TrackerState, cycle = Math.max(1, state.cycle)): OrderEntry[] {
  const sign = ruleOf(state).first === 'highest' ? -1 : 1;
  return state.combatants
    .flatMap((combatant) => {
      const mark = initiativeIn(combatant, cycle);
      return mark ? [{ combatant, mark }] : [];
    })
    .sort((a, b) => sign * (a.mark.total - b.mark.total) || a.combatant.joined - b.combatant.joined);
}

/** The combatant whose turn it is, if anyone's. */
export function currentCombatant(state: TrackerState): Combatant | null {
  return state.combatants.find((combatant) => combatant.key === state.turn) ?? null;
}

export function findCombatant(state: TrackerState, key: string): Combatant | null {
  return state.combatants.find((combatant) => combatant.key === key) ?? null;
}

export const playerKey = (userId: string): string => `player:${userId}`;

export interface NewCombatant {
  key: string;
  name: string;
  playerId: string | null;
  sheetId: number | null;
  source: InitiativeSource;
  /** Its initiative: for cycle `markCycle(state)`. */
  total: number;
  dice: number[][] | null;
  rollId: string | null;
}

const sameName = (a: string, b: string) => a.normalize('NFKC').trim().toLowerCase() === b.normalize('NFKC').trim().toLowerCase();

/** Whether one more can join: the limit, and no second entry for the same player or name. */
export function checkCanJoin(state: TrackerState, entry: Pick<NewCombatant, 'key' | 'name' | 'playerId'>): void {
  const already = findCombatant(state, entry.key);
  if (already) {
    throw new Refused({ kind: 'already-in-initiative', name: already.name, player: Boolean(entry.playerId) });
  }
  const namesake = state.combatants.find((combatant) => sameName(combatant.name, entry.name));
  if (namesake) throw new UserError(`There is already a combatant named **${namesake.name}** here: give ${entry.playerId ? 'your sheet' : 'the NPC'} another name.`);
  if (state.combatants.length >= COMBATANTS_MAX) throw new UserError(`This initiative already has ${COMBATANTS_MAX} combatants, the most one tracker holds. Remove one first.`);
}

/**
 * Adds a combatant. Whose turn it is does not change: someone whose initiative puts them before the current turn
 * acts from the next round (or phase) on.
 */
export function addCombatant(state: TrackerState, entry: NewCombatant): TrackerState {
  checkCanJoin(state, entry);
  const combatant: Combatant = {
    key: entry.key,
    name: entry.name,
    playerId: entry.playerId,
    sheetId: entry.sheetId,
    source: entry.source,
    joined: state.joinCount,
    marks: [{ cycle: markCycle(state), total: entry.total, dice: entry.dice, rollId: entry.rollId }],
  };
  return { ...state, combatants: [...state.combatants, combatant], joinCount: state.joinCount + 1 };
}

/**
 * Removes a combatant. When it was their turn, the turn passes to whoever comes after them in this cycle; when
 * they were the last, everyone has acted and Next begins the next cycle.
 */
export function removeCombatant(state: TrackerState, key: string): TrackerState {
  if (!findCombatant(state, key)) throw new Error(`no combatant ${key}`);
  let turn = state.turn;
  if (turn === key) {
    const order = orderOf(state);
    const at = order.findIndex((entry) => entry.combatant.key === key);
    turn = order[at + 1]?.combatant.key ?? null;
  }
  return { ...state, combatants: state.combatants.filter((combatant) => combatant.key !== key), turn };
}

/** A new value for a combatant's initiative (a chase's positions move; a melee value corrected). The turn stays. */
export function changeInitiative(state: TrackerState, key: string, source: InitiativeSource, total: number): TrackerState {
  if (ruleOf(state).rolled !== 'never') throw new UserError('Rolled initiative cannot be set: remove the combatant and add them again to roll anew.');
  return {
    ...state,
    combatants: state.combatants.map((combatant) => (combatant.key === key ? { ...combatant, source, marks: [{ cycle: 0, total, dice: null, rollId: null }] } : combatant)),
  };
}

/** The outcome of Next: the new state, or the cycle whose initiative must be rolled first (seed 004, each phase). */
export type StepOutcome = { state: TrackerState } | { rollFor: number };

function cycleWord(state: TrackerState): string {
  return ruleOf(state).cycle;
}

/** Starts `cycle` with its first in order; a cycle nobody has initiative in leaves the turn to no one. */
function enterCycle(state: TrackerState, cycle: number): TrackerState {
  return { ...state, cycle, turn: orderOf(state, cycle)[0]?.combatant.key ?? null };
}

/**
 * Next: the turn passes to the next in order; after the last, the next round (or phase) begins with the first.
 * Before the beginning, Next begins the first. A tracker whose initiative is rolled each phase asks for the roll
 * of a phase not yet rolled (`rollFor`); one already rolled (after a Previous into the phase before) is not rolled
 * again.
 */
export function nextTurn(state: TrackerState): StepOutcome {
  const rule = ruleOf(state);
  if (state.combatants.length === 0) throw new Refused({ kind: 'initiative-empty' });
  if (state.cycle === 0) {
    if (orderOf(state, 1).length === 0) throw new UserError('Nobody has initiative for the first round yet.');
    return { state: enterCycle(state, 1) };
  }
  const order = orderOf(state);
  const at = state.turn === null ? -1 : order.findIndex((entry) => entry.combatant.key === state.turn);
  if (state.turn !== null && at >= 0 && at + 1 < order.length) return { state: { ...state, turn: order[at + 1]!.combatant.key } };
  const cycle = state.cycle + 1;
  if (rule.rolled === 'each cycle' && state.rolledThrough < cycle) return { rollFor: cycle };
  return { state: enterCycle(state, cycle) };
}

/**
 * A new cycle's rolled initiative (seed 004: rolled again at the beginning of each phase), then that cycle begins
 * with the first in its order. Only the phase before is kept besides it, for Previous.
 */
export function beginRolledCycle(state: TrackerState, cycle: number, rolled: ReadonlyMap<string, Omit<InitiativeMark, 'cycle'>>): TrackerState {
  const combatants = state.combatants.map((combatant) => {
    const mark = rolled.get(combatant.key);
    const kept = combatant.marks.filter((old) => old.cycle >= cycle - 1 && old.cycle !== cycle);
    return { ...combatant, marks: mark ? [...kept, { ...mark, cycle }] : kept };
  });
  return enterCycle({ ...state, combatants, rolledThrough: Math.max(state.rolledThrough, cycle) }, cycle);
}

/**
 * Previous: the turn goes back to the one before in order; from the first, to the last of the round (or phase)
 * before. Not before the first turn of all; a phase's initiative is kept one phase back, not further.
 */
export function previousTurn(state: TrackerState): TrackerState {
  const word = cycleWord(state);
  if (state.cycle === 0) throw new UserError(`The initiative has not begun: there is no turn before. The Dispatcher begins it with **Begin**.`);
  const order = orderOf(state);
  if (state.turn === null) {
    const last = order.at(-1);
    if (last) return { ...state, turn: last.combatant.key };
  } else {
    const at = order.findIndex((entry) => entry.combatant.key === state.turn);
    if (at > 0) return { ...state, turn: order[at - 1]!.combatant.key };
  }
  const cycle = state.cycle - 1;
  if (cycle < 1) throw new UserError(`This is the first turn of the first ${word}: there is no turn before it.`);
  const before = orderOf(state, cycle);
  if (before.length === 0) {
    throw new UserError(
      ruleOf(state).rolled === 'each cycle'
        ? `The initiative of ${word} ${cycle} is no longer kept: Previous goes back one ${word}, not further.`
        : `Nobody had initiative in ${word} ${cycle}.`,
    );
  }
  return { ...state, cycle, turn: before.at(-1)!.combatant.key };
}

/** What a phase is in seed 004's time: 3 s; a round is 2 phases, a turn 2 rounds. */
export interface PhaseClock {
  phase: number;
  round: number;
  /** Seed 004's "turn" of 12 s (2 rounds), not whose turn it is. */
  turn: number;
  /** Seconds since the encounter began, at the phase's start. */
  startsAt: number;
}

export function phaseClock(phase: number): PhaseClock {
  return { phase, round: Math.ceil(phase / 2), turn: Math.ceil(phase / 4), startsAt: (phase - 1) * 3 };
}
