// What a journal's since:/until: reads, and what roll requests and contests add to the story as they change.
import { describe, expect, it } from 'vitest';
import { contestJournal, parseJournalTime, requestJournal, startOfUtcDay } from '../../src/engine/journal.js';
import { normalizeRollRequest } from '../../src/engine/systems/tactalk/roll-request.js';
import { proposeContest } from '../../src/engine/systems/tactalk/contest.js';

describe('parseJournalTime', () => {
  it('reads scenes, this session, today, durations and ISO moments; nothing else', () => {
    expect(parseJournalTime('scene:12')).toEqual({ kind: 'scene', id: 12 });
    expect(parseJournalTime(' This Session ')).toEqual({ kind: 'session' });
    expect(parseJournalTime('session')).toEqual({ kind: 'session' });
    expect(parseJournalTime('today')).toEqual({ kind: 'today' });
    expect(parseJournalTime('2h')).toEqual({ kind: 'ago', ms: 7_200_000, typed: '2h' });
    expect(parseJournalTime('90 min')).toEqual({ kind: 'ago', ms: 5_400_000, typed: '90min' });
    expect(parseJournalTime('3d')).toEqual({ kind: 'ago', ms: 3 * 86_400_000, typed: '3d' });
    expect(parseJournalTime('1w')).toEqual({ kind: 'ago', ms: 604_800_000, typed: '1w' });
    expect(parseJournalTime('2026-11-27')).toEqual({ kind: 'at', date: new Date('2026-11-27T00:00:00Z') });
    expect(parseJournalTime('2026-11-27T19:30')).toEqual({ kind: 'at', date: new Date('2026-11-27T19:30:00Z') });
    expect(parseJournalTime('2026-11-27 19:30+02:00')).toEqual({ kind: 'at', date: new Date('2026-11-27T17:30:00Z') });
    for (const nonsense of ['', 'yesterday-ish', '0h', '99999w', '2026-13-45', 'scene:x']) expect(parseJournalTime(nonsense), nonsense).toBeNull();
  });

  it('today starts at 00:00 UTC', () => {
    expect(startOfUtcDay(new Date('2026-11-27T23:59:59Z'))).toEqual(new Date('2026-11-27T00:00:00Z'));
  });
});

describe('requestJournal', () => {
  const stated = normalizeRollRequest({ kind: 'challenge', dispatcherId: '', playerId: 'p', operatorName: 'Troy', intent: 'climb', outcome: 'on the roof', phase: 'stated' });
  const part = { skill: 'Climbing', archetypes: ['Agile'], situationalModifier: -10, challengeLevel: 120 };

  it('an intent, then a call (its CL kept out when hidden), then a decline', () => {
    expect(requestJournal(1, null, stated).map((write) => write.kind)).toEqual(['intent']);
    const called = { ...stated, dispatcherId: 'd', phase: 'open' as const, parts: [part], hidden: true, consequence: 'falls', consequenceTable: 'Fall Damage' };
    const [call] = requestJournal(1, stated, called);
    expect(call).toMatchObject({ kind: 'call', userId: 'd', details: { parts: [{ skill: 'Climbing', archetypes: ['Agile'], modifier: -10, challengeLevel: null }], hidden: true, consequence: 'falls' } });
    expect(requestJournal(1, called, { ...called, phase: 'declined' })).toEqual([{ kind: 'decline', userId: 'p', details: { requestId: 1, playerId: 'p' } }]);
    expect(requestJournal(1, called, { ...called, formDraft: null })).toEqual([]);
  });
});

describe('contestJournal', () => {
  it('nothing while proposed; the end of a declined challenge says so', () => {
    const proposed = { ...proposeContest({ challengerId: 'a', challengerOperator: { id: 1, name: 'Kat' }, opponentId: 'b', intent: 'disarm', stakes: 'disarmed', addsOwnSkill: false }), phase: 'proposed' as const };
    expect(contestJournal(1, proposed, proposed)).toEqual([]);
    const [end] = contestJournal(1, proposed, { ...proposed, phase: 'ended', endReason: { kind: 'declined', by: 'Troy' } });
    expect(end).toMatchObject({ kind: 'contest-end', details: { result: 'ended', reason: 'declined', winnerId: null, rounds: 0 } });
  });
});
