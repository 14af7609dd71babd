/**
 * What the views show of a rule system, declared as one object next to the system's own views
 * (src/views/<system>.ts): how a new player starts in it, and how each kind of roll it stores shows in /roll replay.
 * `systemViews` builds what /help and /roll replay read from the engine's list of systems and a view for each
 * (src/views/systems.ts builds the bot's own), so a new system's view is one object and one entry in that list.
 */
import type { KindsOfSystems, RederivedBy } from '../engine/replay-kind.js';
import type { RuleSystem } from '../engine/systems/system.js';

/** A replay's embed fields: name, value, and whether the field sits inline. */
export type Fields = Array<[name: string, value: string, inline?: boolean]>;

/** What each kind that rolls re-derive as shows when replayed; a kind without an entry fails the type check. */
export type ReplayFields<Out> = { [K in KindOf<Out>]: (rederived: Extract<Out, { kind: K }>) => Fields };
type KindOf<Out> = Out extends { kind: infer K extends string } ? K : never;

export interface StartStep {
  what: string;
  command: string;
}

/** A new player's first steps: what to put on the sheet, then the first roll, as typed. */
export interface StartSteps {
  sheet: StartStep[];
  roll: string;
}

export interface SystemView<S extends RuleSystem> {
  system: S['id'];
  /** How a new player starts in it, after `/sheet create`. */
  start: StartSteps;
  /** How each kind its rolls re-derive as shows in /roll replay (points spent show as their check, and so on). */
  replay: ReplayFields<RederivedBy<S['replays']>>;
}

/** A system's view, typed by the system it shows: every kind its rolls re-derive as needs its fields. */
export function defineSystemView<S extends RuleSystem>(system: S, view: Omit<SystemView<S>, 'system'>): SystemView<S> {
  return { system: system.id, ...view };
}

type ViewOf<S> = S extends RuleSystem ? SystemView<S> : never;

export interface SystemViews<S extends readonly RuleSystem[]> {
  /** How a new player starts in a system, after `/sheet create`. */
  start(system: S[number]['id']): StartSteps;
  /** How every kind the systems' rolls re-derive as shows in /roll replay. */
  replay: ReplayFields<RederivedBy<KindsOfSystems<S>>>;
}

/**
 * What the views show of the listed systems, from one view each, in the systems' order: a system without its view
 * fails the type check, and a view out of place, or two views of one kind, fails on loading.
 */
export function systemViews<const S extends readonly RuleSystem[]>(systems: S, views: { readonly [I in keyof S]: ViewOf<S[I]> }): SystemViews<S> {
  // The views' fields differ in the rolls they take; gathered by kind, each is only ever given its own kind's roll.
  const replay: Record<string, unknown> = {};
  const starts = new Map<string, StartSteps>();
  systems.forEach((system, index) => {
    const view = (views as ReadonlyArray<{ system: string; start: StartSteps; replay: object }>)[index];
    if (view?.system !== system.id) throw new Error(`The view of ${system.id} is not in its place: the views are listed in the systems' order.`);
    starts.set(system.id, view.start);
    for (const [kind, fields] of Object.entries(view.replay)) {
      if (Object.hasOwn(replay, kind)) throw new Error(`The replay of rolls of kind "${kind}" is shown by two views.`);
      replay[kind] = fields;
    }
  });
  return {
    start(system) {
      const start = starts.get(system);
      if (!start) throw new Error(`No view shows the system ${system}.`);
      return start;
    },
    replay: replay as SystemViews<S>['replay'],
  };
}
