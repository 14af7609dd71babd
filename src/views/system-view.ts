/**
 * What the views show of a rule system, declared as one object next to the system's own views
 * (src/views/<system>.ts): how a new player starts in it, and how each kind of roll it stores shows in /roll replay.
 * `systemViews` builds what /help and /roll replay read from the engine's list of systems and a view for each
 * (src/views/systems.ts builds the bot's own), so a new system's view is one object and one entry in that list.
 */
import type { KindsOfSystems, RederivedBy } from '../engine/replay-kind.js';
import type { EntryKind } from '../engine/sheet.js';
import type { RuleSystem } from '../engine/systems/system.js';
import { signedCompact } from './format.js';

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
  /**
   * How a sheet entry's number shows after its name on /sheet show (markdown), when the system reads it otherwise
   * than as a number (a die-code ability's 11 is its rank, 3D+2); without it, `entryNumberAsStored`.
   */
  entryNumber?: (kind: EntryKind, value: number) => string;
}

/** A sheet entry's number as stored, in bold: a skill's level or an attribute's value, an archetype's or condition's modifier signed. */
export function entryNumberAsStored(kind: EntryKind, value: number): string {
  return `**${kind === 'archetype' || kind === 'condition' ? signedCompact(value) : value}**`;
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
  /** How an entry's number shows on a sheet of the system (markdown): its view's `entryNumber`, else as stored. */
  entryNumber(system: string, kind: EntryKind, value: number): string;
}

/**
 * What the views show of the listed systems, from one view each, in the systems' order: a system without its view
 * fails the type check, and a view out of place, or two views of one kind, fails on loading.
 */
export function systemViews<const S extends readonly RuleSystem[]>(systems: S, views: { readonly [I in keyof S]: ViewOf<S[I]> }): SystemViews<S> {
  // The views' fields differ in the rolls they take; gathered by kind, each is only ever given its own kind's roll.
  const replay: Record<string, unknown> = {};
  const starts = new Map<string, StartSteps>();
  const numbers = new Map<string, NonNullable<SystemView<RuleSystem>['entryNumber']>>();
  systems.forEach((system, index) => {
    const view = (views as ReadonlyArray<{ system: string; start: StartSteps; replay: object; entryNumber?: SystemView<RuleSystem>['entryNumber'] }>)[index];
    if (view?.system !== system.id) throw new Error(`The view of ${system.id} is not in its place: the views are listed in the systems' order.`);
    starts.set(system.id, view.start);
    if (view.entryNumber) numbers.set(system.id, view.entryNumber);
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
    entryNumber(system, kind, value) {
      return (numbers.get(system) ?? entryNumberAsStored)(kind, value);
    },
  };
}
