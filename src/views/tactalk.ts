/** Tac Talk as the views show it: a new player's first steps, and its challenges and contest rounds replayed. */
import type { RederivedBy } from '../engine/replay-kind.js';
import type { ChallengeResult } from '../engine/systems/tactalk/challenge.js';
import { tactalk } from '../engine/systems/tactalk/index.js';
import { challengeLines } from './challenge.js';
import { contestSideRollText } from './contest/rounds.js';
import { defineSystemView, type Fields } from './system-view.js';

type TactalkRederived = RederivedBy<typeof tactalk.replays>;

function challengeFields(results: readonly ChallengeResult[]): Fields {
  return results.map((result, index) => [`${results.length > 1 ? `${index + 1}. ` : ''}${result.input.skill.name} vs CL ${result.input.challengeLevel}`, challengeLines(result).join('\n')]);
}

function contestFields({ result, names, bothFail }: Extract<TactalkRederived, { kind: 'contest' }>): Fields {
  // Rounds rolled since issue 23 keep the Operators' names; older ones name each side by its part in the contest.
  const name = { challenger: names?.challenger ?? 'the challenger', opponent: names?.opponent ?? 'the opponent' };
  const title = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const sides = [
    [title(name.challenger), result.challenger, { roll: result.opponent, name: name.opponent }],
    [title(name.opponent), result.opponent, { roll: result.challenger, name: name.challenger }],
  ] as const;
  const bothFailed = !result.challenger.success && !result.opponent.success;
  const winner =
    result.winner === 'tie'
      ? 'Tie'
      : result.winner === 'nobody'
        ? 'Nobody: both failed, nothing changes'
        : `${title(name[result.winner])}${bothFailed && bothFail === 'defender' ? ' (the defender: when this round was rolled, both failing went to the defender)' : ''}`;
  return [
    ...sides.map(([label, side, against]): [string, string, boolean] => {
      const { skills, dice } = contestSideRollText(side, against);
      return [`${label} (${side.role}): ${skills}`, dice, true];
    }),
    ['Winner', winner],
  ];
}

export const tactalkView = defineSystemView(tactalk, {
  start: { sheet: [{ what: 'Add a skill', command: '/sheet skill set name:Climbing level:40' }], roll: '/roll challenge skill:Climbing cl:90' },
  replay: {
    challenge: ({ result }) => challengeFields([result]),
    linked: ({ result }) => challengeFields(result.results),
    contest: contestFields,
  },
});
