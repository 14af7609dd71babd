// Condition tracks, concession and action points of seed 002, read from a sheet.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../src/errors.js';
import type { OperatorSheet } from '../../../../src/engine/sheet.js';
import {
  ACTION_POINTS,
  actionPointsOf,
  addToTrack,
  CONCEDED,
  concededCondition,
  findTrack,
  isConceded,
  isTrackAttribute,
  OUT_OF_ACTION_AT,
  requireMayAct,
  trackAttributeName,
  trackName,
  tracksOf,
  trackState,
  TRACK_MAX,
} from '../../../../src/engine/systems/result-points/tracks.js';
import { toldSync } from '../../../helpers/told.js';

function sheet(attributes: Record<string, number>, conditions: string[] = []): Pick<OperatorSheet, 'name' | 'attributes' | 'conditions'> {
  return {
    name: 'Kat',
    attributes: Object.entries(attributes).map(([name, value]) => ({ name, value })),
    conditions: conditions.map((name) => ({ name, modifier: 0, skills: null, expiresAt: null })),
  };
}

describe('condition tracks', () => {
  it('are the sheet attributes named "<name> track"; the name is typed with or without "track"', () => {
    expect(trackAttributeName('Wounds')).toBe('Wounds track');
    expect(trackAttributeName('  wounds   TRACK ')).toBe('wounds TRACK');
    expect(trackName('Wounds track')).toBe('Wounds');
    expect(isTrackAttribute('Health')).toBe(false);
    expect(isTrackAttribute('Stress Track')).toBe(true);
    expect(() => trackAttributeName('   ')).toThrow(UserError);
    expect(() => trackAttributeName('x'.repeat(60))).toThrow(/at most 58 characters/);
    const kat = sheet({ 'Wounds track': 7, Health: 12, 'Stress track': 0 });
    expect(tracksOf(kat).map((track) => [track.name, track.points])).toEqual([['Wounds', 7], ['Stress', 0]]);
    expect(findTrack(kat, 'wounds')?.points).toBe(7);
    expect(findTrack(kat, 'Fatigue')).toBeNull();
  });

  it('have as level the effectiveness band of their points: 0 none, 1–5 Minimal … 26–30 Overwhelming', () => {
    const levels: Array<[number, string | null]> = [[0, null], [1, 'Minimal'], [5, 'Minimal'], [6, 'Adequate'], [15, 'Moderate'], [20, 'Complete'], [25, 'Excessive'], [26, 'Overwhelming'], [40, 'Overwhelming']];
    for (const [points, level] of levels) expect(trackState('Wounds track', points).level?.name ?? null, String(points)).toBe(level);
  });

  it('take their character out of action at Overwhelming (26 or more), not before', () => {
    expect(OUT_OF_ACTION_AT).toBe(26);
    expect(trackState('Wounds track', 25).outOfAction).toBe(false);
    expect(trackState('Wounds track', 26).outOfAction).toBe(true);
  });

  it('take spent points added, within 0 and the attribute bound', () => {
    expect(addToTrack(12, 9)).toBe(21);
    expect(addToTrack(995, 9)).toBe(TRACK_MAX);
    expect(addToTrack(3, -9)).toBe(0);
  });
});

describe('who may act', () => {
  it('a character out of action on any track may not, naming the track', () => {
    expect(toldSync(() => requireMayAct(sheet({ 'Wounds track': 26 })))).toMatch(/Kat is out of action: Wounds 26/);
    expect(() => requireMayAct(sheet({ 'Wounds track': 25, Health: 99 }))).not.toThrow();
  });

  it('a character who conceded may not (seed 002: "may take no more actions")', () => {
    expect(toldSync(() => requireMayAct(sheet({}, [CONCEDED])))).toMatch(/Kat conceded this scene and may take no more actions/);
    expect(isConceded(sheet({}, ['conceded']))).toBe(true);
    expect(isConceded(sheet({}, ['Wounded']))).toBe(false);
  });

  it('the concession is a condition that changes no roll', () => {
    expect(concededCondition()).toEqual({ name: CONCEDED, modifier: 0, skills: null, expiresAt: null });
  });
});

describe('action points', () => {
  it('are the sheet attribute "Action points", 0 when the sheet has none', () => {
    expect(actionPointsOf(sheet({ [ACTION_POINTS]: 2 }))).toBe(2);
    expect(actionPointsOf(sheet({ 'action POINTS': 1 }))).toBe(1);
    expect(actionPointsOf(sheet({}))).toBe(0);
  });
});
