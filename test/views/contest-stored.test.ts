// A contest stored before its end, its notice and the Dispatcher's changes were data held them as sentences: such a
// row still reads, and its message shows each sentence as it was stored. New contests store data the view words.
import { describe, expect, it } from 'vitest';
import { applyContestAction, contestStateSchema, postContest, proposeContest, type ContestActor, type ContestState } from '../../src/engine/systems/tactalk/contest.js';
import { readStored } from '../../src/store/stored-json.js';
import { contestEmbed } from '../../src/views/contest/message.js';
import { contestEndNotice, contestPrompt } from '../../src/views/contest/prompts.js';
import { contestHappened } from '../../src/views/contest/words.js';
import { scriptedD100 } from '../helpers/dice.js';

const troy: ContestActor = { userId: 'mike', isDispatcher: false, name: 'Troy' };
const dee: ContestActor = { userId: 'dee', isDispatcher: true, name: 'Dee' };

/** Kat attacks, Troy defends, both have confirmed their skills: the step a Dispatcher may still adjust. */
function confirming(): ContestState {
  const choice = (role: 'attacker' | 'defender', name: string, level: number) => ({ role, skill: { name, level }, conditionModifiers: [], archetypeModifiers: [] });
  const state = postContest(proposeContest({ challengerId: 'sasha', opponentId: 'mike', challengerOperator: { id: 1, name: 'Kat' }, intent: 'Kat disarms Troy', stakes: 'Troy is disarmed', addsOwnSkill: false, choice: choice('attacker', 'CQC', 37) }));
  return applyContestAction(state, { type: 'accept', stakes: 'Kat is kicked', operator: { id: 2, name: 'Troy' }, choice: choice('defender', 'Shotgun Handling', 35) }, troy, scriptedD100());
}

const view = (state: ContestState) => ({ id: 7, state, expiresAt: new Date(0), timeoutMinutes: 15 });
const shown = (state: ContestState) => {
  const embed = contestEmbed(view(state)).toJSON();
  return [embed.description ?? '', ...(embed.fields ?? []).map((field) => `${field.name}\n${field.value}`)].join('\n');
};
/** A stored row's state column, read as the store reads it. */
const read = (state: unknown) => readStored(contestStateSchema, JSON.stringify(state), { table: 'Contest', id: 1, column: 'state' });

describe('a contest stored with sentences, before they were data', () => {
  it('still reads, and its message shows the notice and the Dispatcher’s changes as stored', () => {
    const stored = {
      ...JSON.parse(JSON.stringify(confirming())),
      changes: ["Dee set Troy's modifiers: situational +5"],
      notice: 'The Dispatcher changed Troy’s modifiers: both confirm again, Kat by agreeing (Troy had confirmed).',
    };
    const state = read(stored);
    expect(state.notice).toBe(stored.notice);
    const message = shown(state);
    expect(message).toContain("Dee set Troy's modifiers: situational +5");
    expect(message).toContain('⚠️ The Dispatcher changed Troy’s modifiers: both confirm again, Kat by agreeing (Troy had confirmed).');
    // The turn prompt after a move that left the stored notice as it was names the move, not the old notice.
    expect(contestHappened(state, state, [{ type: 'agree' }], 'Kat')).toBe('Kat agreed to the terms');
    expect(contestPrompt(view(state), 'opponent', contestHappened(state, state, [{ type: 'agree' }], 'Kat'))?.content).toContain('Kat agreed to the terms');
  });

  it('an ended one still reads, and its message and end notice give the reason as stored', () => {
    const stored = { ...JSON.parse(JSON.stringify(applyContestAction(confirming(), { type: 'cancel' }, dee, scriptedD100()))), endReason: 'Cancelled by the Dispatcher Dee.' };
    const state = read(stored);
    expect(state.phase).toBe('ended');
    expect(shown(state)).toContain('⛔ Cancelled by the Dispatcher Dee.');
    expect(contestEndNotice(view(state), null).content).toContain('Contest #7 is over: Cancelled by the Dispatcher Dee.');
  });

  it('a new one stores data, worded as the sentences were', () => {
    const changed = applyContestAction(applyContestAction(confirming(), { type: 'setModifiers', side: 'opponent', archetypeModifiers: [], situationalModifier: 5 }, dee, scriptedD100()), { type: 'cancel' }, dee, scriptedD100());
    expect(changed.changes).toEqual([{ kind: 'modifiers', by: 'Dee', who: 'Troy', archetypes: [], situational: 5 }]);
    expect(changed.endReason).toEqual({ kind: 'cancelled', by: 'Dee' });
    const state = read(JSON.parse(JSON.stringify(changed)));
    expect(shown(state)).toContain("Dee set Troy's modifiers: situational +5");
    expect(shown(state)).toContain('⛔ Cancelled by the Dispatcher Dee.');
  });
});

describe('a contest’s notice, stored as data', () => {
  it('reads as the sentence it replaced: why, how both confirm again, who had confirmed', () => {
    const changed = applyContestAction(confirming(), { type: 'setModifiers', side: 'opponent', archetypeModifiers: [], situationalModifier: 5 }, dee, scriptedD100());
    expect(changed.notice).toEqual({ kind: 'modifiers', who: 'Troy', byAgreeing: true, cleared: ['opponent'] });
    expect(shown(changed)).toContain("⚠️ The Dispatcher changed Troy's modifiers: both confirm again, Kat by agreeing (Troy had confirmed).");
    expect(contestHappened(confirming(), changed, [{ type: 'setModifiers', side: 'opponent', archetypeModifiers: [], situationalModifier: 5 }], 'Dee')).toBe(
      "The Dispatcher changed Troy's modifiers: both confirm again, Kat by agreeing (Troy had confirmed)",
    );
  });
});
