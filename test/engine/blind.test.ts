import { describe, expect, it } from 'vitest';
import { awaitsReveal, isHiddenFrom, isRevealed } from '../../src/engine/blind.js';

const at = new Date('2026-11-27T06:00:00Z');

describe('the blind rule', () => {
  it('hides a blind roll not yet revealed from everyone but Dispatchers', () => {
    expect(isHiddenFrom({ blind: true, revealedAt: null }, false)).toBe(true);
    expect(isHiddenFrom({ blind: true, revealedAt: null }, true)).toBe(false);
  });

  it('hides nothing once revealed, and nothing of a roll that was never blind', () => {
    expect(isHiddenFrom({ blind: true, revealedAt: at }, false)).toBe(false);
    expect(isHiddenFrom({ blind: false, revealedAt: null }, false)).toBe(false);
  });

  it('says whether a blind roll waits for its reveal or was revealed', () => {
    expect([awaitsReveal({ blind: true, revealedAt: null }), isRevealed({ blind: true, revealedAt: null })]).toEqual([true, false]);
    expect([awaitsReveal({ blind: true, revealedAt: at }), isRevealed({ blind: true, revealedAt: at })]).toEqual([false, true]);
    expect([awaitsReveal({ blind: false, revealedAt: null }), isRevealed({ blind: false, revealedAt: null })]).toEqual([false, false]);
  });
});
