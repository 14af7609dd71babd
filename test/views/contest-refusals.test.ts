// The contest refuses as data (src/engine/systems/tactalk/contest.ts); the view words every kind, and whoever shows a
// UserError reads those words through userErrorText.
import { describe, expect, it } from 'vitest';
import { ContestRefusal, type ContestRefusalData, type ContestRefusalKind } from '../../src/engine/systems/tactalk/contest.js';
import { contestRefusalText } from '../../src/views/contest/words.js';
import { userErrorText } from '../../src/views/messages.js';

/** One refusal of every kind: the Record makes the type checker refuse a kind left out. */
const EXAMPLES: Record<ContestRefusalKind, ContestRefusalData> = {
  'not-a-player': { kind: 'not-a-player' },
  'only-side': { kind: 'only-side', side: 'opponent' },
  'dispatcher-only': { kind: 'dispatcher-only', adjust: true },
  'not-posted': { kind: 'not-posted' },
  'already-posted': { kind: 'already-posted' },
  over: { kind: 'over' },
  'step-past': { kind: 'step-past' },
  'dice-rolled': { kind: 'dice-rolled' },
  'agree-instead': { kind: 'agree-instead' },
  'pick-skill-first': { kind: 'pick-skill-first' },
  'already-ready': { kind: 'already-ready' },
  'already-chose': { kind: 'already-chose', choice: 'accept', other: 'Kat' },
  'no-skill-left': { kind: 'no-skill-left', who: 'Kat', rolled: ['CQC'], next: 'ready', instead: 'withdraw' },
  'skill-set-by-dispatcher': { kind: 'skill-set-by-dispatcher' },
  'skill-rolled': { kind: 'skill-rolled', skill: 'CQC' },
  'linked-too-few': { kind: 'linked-too-few' },
  'linked-too-many': { kind: 'linked-too-many', most: 5, count: 6 },
  'linked-twice': { kind: 'linked-twice', skill: 'Driving' },
  'not-your-menu': { kind: 'not-your-menu', owner: null },
  'sheet-gone': { kind: 'sheet-gone', operator: 'Troy' },
  'not-adjustable': { kind: 'not-adjustable', over: false },
};

describe('every kind of contest refusal is worded', () => {
  it.each(Object.entries(EXAMPLES))('%s', (kind, refusal) => {
    expect(refusal.kind).toBe(kind);
    const words = contestRefusalText(refusal);
    expect(words.length).toBeGreaterThan(20);
    expect(words).not.toMatch(/undefined|null|\[object/);
    // Raised, it is a UserError like any other: its words reach the user, its message (for logs) names the kind.
    const raised = new ContestRefusal(refusal);
    expect(userErrorText(raised)).toBe(words);
    expect(raised.message).toContain(kind);
  });

  it('says who may instead, and what to do', () => {
    expect(contestRefusalText(EXAMPLES['no-skill-left'])).toBe(
      "Kat has no skill left that was not rolled in this contest (rolled: **CQC**), and a skill is never rolled twice in a contest. Add one to Kat's sheet with `/sheet skill set` and press **Ready** again: the menu then offers it, or **Withdraw**.",
    );
    expect(contestRefusalText(EXAMPLES['not-your-menu'])).toBe('This menu is for the other player’s player only.');
    expect(new ContestRefusal(EXAMPLES['dispatcher-only']).reason).toBe('dispatcherOnly');
    expect(new ContestRefusal({ kind: 'not-adjustable', over: true }).reason).toBe('over');
  });
});
