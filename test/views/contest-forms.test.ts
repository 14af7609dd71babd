// Each contest form's fields are named once, in the view that draws it: the ids its modal draws are exactly the ones
// its reader reads, and the reader turns the text into typed values or refuses it.
import { describe, expect, it } from 'vitest';
import { postContest, proposeContest } from '../../src/engine/systems/tactalk/contest.js';
import { acceptModal, adjustModal, readAcceptForm, readAdjustForm, readSkillSearchForm, skillSearchModal } from '../../src/views/contest/forms.js';
import { typedBackText, type FormText } from '../../src/views/messages.js';

/** The custom_ids of a modal's inputs and menus, wherever they sit in it. */
function fieldIds(modal: { toJSON(): unknown }): string[] {
  const ids: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if ((record.type === 3 || record.type === 4) && typeof record.custom_id === 'string') ids.push(record.custom_id);
    Object.values(record).forEach(walk);
  };
  walk((modal.toJSON() as { components: unknown }).components);
  return ids.sort();
}

/** A form's text from `values`, noting which ids were read. */
function submitted(values: Record<string, string>): { text: FormText; read: Set<string> } {
  const read = new Set<string>();
  return { read, text: (id) => (read.add(id), values[id] ?? '') };
}

const state = postContest(proposeContest({ challengerId: 'sasha', opponentId: 'mike', challengerOperator: { id: 1, name: 'Kat' }, intent: 'Disarm Troy', stakes: 'Troy is disarmed', addsOwnSkill: false }));

describe('the contest forms', () => {
  it('read exactly the fields their modals draw', () => {
    const accept = submitted({ role: 'Defender', stakes: 'Kat is kicked', skill: 'CQC', archetypes: 'Grit' });
    expect(readAcceptForm(accept.text)).toEqual({ stakes: 'Kat is kicked', role: 'defender', skill: 'CQC', archetypes: 'Grit' });
    expect([...accept.read].sort()).toEqual(fieldIds(acceptModal(1, { name: 'Troy', skills: [{ name: 'CQC', level: 40 }], archetypes: [] })));

    const search = submitted({ skill: 'Driving' });
    expect(readSkillSearchForm(search.text)).toEqual({ skill: 'Driving' });
    expect([...search.read].sort()).toEqual(fieldIds(skillSearchModal(1, 'opponent')));

    const adjust = submitted({ modifiers: '0, −10', opponent_skill: 'Handgun Handling +Acuity; Driving -10', challenger_archetypes: 'Grit' });
    expect(readAdjustForm(adjust.text)).toEqual({
      challenger: { skill: { kind: 'none' }, archetypes: 'Grit', situational: 0 },
      opponent: {
        skill: {
          kind: 'linked',
          parts: [
            { skill: 'Handgun Handling', archetypes: ['Acuity'], situationalModifier: 0, challengeLevel: 0 },
            { skill: 'Driving', archetypes: [], situationalModifier: -10, challengeLevel: 0 },
          ],
        },
        archetypes: '',
        situational: -10,
      },
    });
    expect([...adjust.read].sort()).toEqual(fieldIds(adjustModal(1, state)));
  });

  it('refuse what cannot be read, and show back what was typed', () => {
    expect(() => readAcceptForm(submitted({ stakes: 'x' }).text)).toThrow('Pick your role: **Attacker** or **Defender**.');
    expect(() => readAdjustForm(submitted({ modifiers: '5' }).text)).toThrow('Situational modifiers: write two whole numbers');
    expect(() => readAdjustForm(submitted({ modifiers: '0, 0', challenger_skill: 'CQC vs 40; Driving' }).text)).toThrow('leave out `vs`');
    expect(() => readAdjustForm(submitted({ modifiers: '0, 0', challenger_skill: 'CQC;' }).text)).toThrow('A linked roll needs at least two skills');
    expect(readAdjustForm(submitted({ modifiers: '0, 0', challenger_skill: 'CQC' }).text).challenger.skill).toEqual({ kind: 'one', name: 'CQC' });
    expect(typedBackText([['modifiers', '5'], ['opponent_skill', '']])).toBe('\nWhat you typed:\n- modifiers: `5`\n- opponent_skill: (empty)');
  });
});
