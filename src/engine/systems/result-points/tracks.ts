/**
 * Condition tracks, concession and action points (seed 002), read from a sheet. Pure: a sheet in, facts out.
 *
 * The seed says result points "are spent on conditions", that characters act "upon a condition track", and that a
 * tactical scene usually ends when one side takes the other "out of action by acting on their condition track". It
 * gives a track no length, no levels and no penalty. Our reading (docs/systems.md):
 * - a track is a sheet attribute named `<name> track` (e.g. `Wounds track`) holding the points spent on it;
 * - its level is the effectiveness band of those points (1–5 Minimal … 26–30 Overwhelming), the only scale of
 *   result points the seed has;
 * - a character whose track reaches Overwhelming (26) is out of action: "so effective that the results are not
 *   easily undone". No other penalty: the seed names none.
 */
import { UserError } from '../../../errors.js';
import { Refused } from '../../refusals.js';
import { nameKey, visibleName } from '../../names.js';
import { SHEET_LIMITS, validName, type ConditionEntry, type OperatorSheet } from '../../sheet.js';
import { effectivenessOf, EFFECTIVENESS, type Band } from './check.js';

export const TRACK_SUFFIX = ' track';
/** The first point of the Overwhelming band: a track this full takes its character out of action. */
export const OUT_OF_ACTION_AT = EFFECTIVENESS[EFFECTIVENESS.length - 1]!.min;
/** A track holds what any sheet attribute may hold. */
export const TRACK_MAX = SHEET_LIMITS.attributeMagnitude;

/** The condition a character who conceded the scene carries until it ends (visible on `/sheet show`). */
export const CONCEDED = 'Conceded';
/** The attribute that counts a player's action points. */
export const ACTION_POINTS = 'Action points';

export interface TrackState {
  /** The track's name as shown: `Wounds`. */
  name: string;
  /** The sheet attribute holding it: `Wounds track`. */
  attribute: string;
  points: number;
  /** The effectiveness band of its points; null at 0. */
  level: Band | null;
  outOfAction: boolean;
}

export function isTrackAttribute(name: string): boolean {
  return nameKey(name).endsWith(TRACK_SUFFIX) && nameKey(name).length > TRACK_SUFFIX.length;
}

/** `Wounds` or `Wounds track` → `Wounds track`, checked as a sheet attribute name. */
export function trackAttributeName(typed: string): string {
  const name = validName('track', typed);
  const full = isTrackAttribute(name) ? name : `${name}${TRACK_SUFFIX}`;
  if (full.length > SHEET_LIMITS.nameLength) {
    throw new UserError(`A track name is at most ${SHEET_LIMITS.nameLength - TRACK_SUFFIX.length} characters (it is kept as "<name>${TRACK_SUFFIX}").`);
  }
  return full;
}

/** `Wounds track` → `Wounds`. */
export function trackName(attribute: string): string {
  return isTrackAttribute(attribute) ? attribute.slice(0, attribute.length - TRACK_SUFFIX.length) : attribute;
}

export function trackState(attribute: string, points: number): TrackState {
  return { name: trackName(attribute), attribute, points, level: effectivenessOf(points), outOfAction: points >= OUT_OF_ACTION_AT };
}

/** Every condition track on a sheet, in the sheet's order. */
export function tracksOf(sheet: Pick<OperatorSheet, 'attributes'>): TrackState[] {
  return sheet.attributes.filter((entry) => isTrackAttribute(entry.name)).map((entry) => trackState(entry.name, entry.value));
}

/** The track of a sheet named as typed (`Wounds` or `Wounds track`), or null. */
export function findTrack(sheet: Pick<OperatorSheet, 'attributes'>, typed: string): TrackState | null {
  const key = nameKey(trackAttributeName(typed));
  const entry = sheet.attributes.find((attribute) => nameKey(attribute.name) === key);
  return entry ? trackState(entry.name, entry.value) : null;
}

/** Points spent on a track: added, kept within 0 … TRACK_MAX. */
export function addToTrack(points: number, amount: number): number {
  return Math.min(TRACK_MAX, Math.max(0, points + amount));
}

export function isConceded(sheet: Pick<OperatorSheet, 'conditions'>): boolean {
  return sheet.conditions.some((condition) => nameKey(condition.name) === nameKey(CONCEDED));
}

/** The concession as a condition: it changes no roll (0), so Tac Talk or pool rolls of the sheet are unaffected. */
export function concededCondition(): ConditionEntry {
  return { name: CONCEDED, modifier: 0, skills: null, expiresAt: null };
}

/** A player's action points: the sheet's `Action points` attribute, 0 when it has none. */
export function actionPointsOf(sheet: Pick<OperatorSheet, 'attributes'>): number {
  return sheet.attributes.find((entry) => nameKey(entry.name) === nameKey(ACTION_POINTS))?.value ?? 0;
}

/**
 * Whether the character may act: not after conceding (seed 002: "their character may take no more actions"), not
 * once out of action on a track. The refusal names why and what would change it.
 */
export function requireMayAct(sheet: Pick<OperatorSheet, 'name' | 'attributes' | 'conditions'>): void {
  const who = visibleName(sheet.name);
  if (isConceded(sheet)) {
    throw new Refused({ kind: 'conceded', who });
  }
  const out = tracksOf(sheet).find((track) => track.outOfAction);
  if (out) {
    throw new Refused({ kind: 'out-of-action', who, track: out.name, points: out.points, outAt: OUT_OF_ACTION_AT });
  }
}
