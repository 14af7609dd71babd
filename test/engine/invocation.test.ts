// What a member typed for a roll (src/engine/invocation.ts): kept only within its limit, read back only when it is
// one, and shown as typed.
import { describe, expect, it } from 'vitest';
import { INVOCATION_MAX_CHARS, invocationJson, invocationText, readInvocation, type RollInvocation } from '../../src/engine/invocation.js';

const challenge: RollInvocation = { command: 'roll', path: 'challenge', options: [{ name: 'skill', type: 3, value: 'Climbing' }, { name: 'cl', type: 4, value: 90 }, { name: 'force', type: 5, value: false }] };

describe('a roll invocation', () => {
  it('is kept as JSON and read back the same', () => {
    expect(readInvocation(invocationJson(challenge))).toEqual(challenge);
    expect(readInvocation(challenge)).toEqual(challenge);
  });

  it(`is not kept past ${INVOCATION_MAX_CHARS} characters`, () => {
    const empty: RollInvocation = { command: 'roll', path: 'dice', options: [{ name: 'expression', type: 3, value: '' }] };
    const room = INVOCATION_MAX_CHARS - JSON.stringify(empty).length;
    expect(invocationJson({ ...empty, options: [{ name: 'expression', type: 3, value: 'd'.repeat(room) }] })).not.toBeNull();
    expect(invocationJson({ ...empty, options: [{ name: 'expression', type: 3, value: 'd'.repeat(room + 1) }] })).toBeNull();
  });

  it('reads as nothing when it is not one: not JSON, a type it never holds, a missing part', () => {
    expect(readInvocation('{')).toBeNull();
    expect(readInvocation({ ...challenge, options: [{ name: 'file', type: 11, value: 'x' }] })).toBeNull();
    expect(readInvocation({ command: 'roll', options: [] })).toBeNull();
    expect(readInvocation(null)).toBeNull();
  });

  it('shows as typed, a member by id and never as a mention', () => {
    expect(invocationText(challenge)).toBe('/roll challenge skill:Climbing cl:90 force:false');
    expect(invocationText({ command: 'pool', path: '', options: [{ name: 'against', type: 6, value: '123' }] })).toBe('/pool against:<user 123>');
  });
});
