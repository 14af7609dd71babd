// The contest's views on their own: a round stored before both failing against a defender meant "nothing changes"
// is shown as it was decided then, on the contest message and its result.
import { describe, expect, it } from 'vitest';
import { applyContestAction, postContest, proposeContest, type ContestActor, type ContestState } from '../../src/engine/systems/tactalk/contest.js';
import { contestEmbed } from '../../src/views/contest/message.js';
import { contestResultMessage } from '../../src/views/contest/prompts.js';
import { textOf } from '../helpers/sandbox.js';
import { scriptedD100 } from '../helpers/dice.js';

const kat: ContestActor = { userId: 'sasha', isDispatcher: false, name: 'Kat' };
const troy: ContestActor = { userId: 'mike', isDispatcher: false, name: 'Troy' };

/** Kat attacks, Troy defends, both fail (D100s of 1): as rolled now. */
function bothFailed(): ContestState {
  const choice = (role: 'attacker' | 'defender', name: string, level: number) => ({ role, skill: { name, level }, conditionModifiers: [], archetypeModifiers: [] });
  let state = postContest(proposeContest({ challengerId: 'sasha', opponentId: 'mike', challengerOperator: { id: 1, name: 'Kat' }, intent: 'Kat disarms Troy', stakes: 'Troy is disarmed', addsOwnSkill: false, choice: choice('attacker', 'CQC', 37) }));
  state = applyContestAction(state, { type: 'accept', stakes: 'Kat is kicked', operator: { id: 2, name: 'Troy' }, choice: choice('defender', 'Shotgun Handling', 35) }, troy, scriptedD100());
  return applyContestAction(state, { type: 'agree' }, kat, scriptedD100(1, 1));
}

const view = (state: ContestState) => ({ id: 7, state, expiresAt: new Date(0), timeoutMinutes: 15 });

describe('a contest round in which both failed against a defender', () => {
  it('as rolled now: nothing changes, and neither stated outcome is shown as happening', () => {
    const state = bothFailed();
    expect(state.rounds[0]!.winner).toBe('nobody');
    const message = textOf({ content: '', embeds: [contestEmbed(view(state)).toJSON()] });
    expect(message).toContain("🚫 **Both failed: nothing changes.** Kat's intent fails, and Troy's stated outcome does not happen either.");
    expect(message).not.toMatch(/wins\.|suffers/);
  });

  it('as stored before the reading changed: the defender won, shown as it was decided then', () => {
    const rolled = bothFailed();
    const legacy: ContestState = { ...rolled, rounds: [{ ...rolled.rounds[0]!, winner: 'opponent' }] };
    const message = textOf({ content: '', embeds: [contestEmbed(view(legacy)).toJSON()] });
    expect(message).toContain("🏆 **Troy wins.** Both failed: the defender wins (as both failing was read when this round was rolled).\nKat suffers Troy's stated outcome:\n> Kat is kicked");
    expect(message).toContain('Round 1: Kat ❌ · Troy ❌ → **Troy wins**');
    const result = contestResultMessage(view(legacy), legacy.rounds[0]!, null);
    expect(textOf({ content: result.content, embeds: result.embeds ?? [] })).toContain('🎲 Contest #7: Troy wins');
  });
});
