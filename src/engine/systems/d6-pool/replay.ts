/** d6 pool rolls rolled again from their seeds: a roll, its opposition, a push, the condition it cost, a tie-break. */
import { arrayOf, inputsOf, nullable, number, object, oneOf, seeded, string, type ReplayKind } from '../../replay-kind.js';
import { d6Faces, resolveD6Pool, resolvePush, resolveTieBreak, tieBreakFaces, type D6PoolInput, type PoolConditionRecord, type PushInput, type TieBreakInput } from './pool.js';

const attribute = oneOf('STR', 'AGI', 'WIT', 'EMP');
const sheet = object({ id: number, name: string });
const pool = object({ skill: string, attribute, skillLevel: number, attributeValue: number, gear: number, modifiers: arrayOf(object({ name: string, value: number })), sheet: nullable(sheet) });

function poolRoll<K extends 'pool' | 'pool-opposed'>(kind: K) {
  return seeded(inputsOf<D6PoolInput>(kind, pool), (inputs, rng) => {
    const result = resolveD6Pool(inputs, rng);
    return { kind, result, dice: d6Faces(result.dice) };
  });
}

/** The condition a push cost: no dice, stored so the pick is made once; it replays as what was picked. */
const condition: ReplayKind<PoolConditionRecord, { kind: 'pool-condition'; result: PoolConditionRecord; dice: never[] }> = {
  parse: inputsOf<PoolConditionRecord>('pool-condition', object({ rollId: string, sheet, condition: string })),
  rederive: (inputs) => ({ kind: 'pool-condition', result: inputs, dice: [] }),
};

export const d6PoolReplays = {
  pool: poolRoll('pool'),
  'pool-opposed': poolRoll('pool-opposed'),
  // A push stores the dice it pushed, so it replays on its own.
  'pool-push': seeded(
    inputsOf<PushInput>('pool-push', object({ rollId: string, attribute, dice: arrayOf(object({ source: oneOf('skill', 'gear', 'attribute'), face: number })) })),
    (inputs, rng) => {
      const result = resolvePush(inputs, rng);
      return { kind: 'pool-push' as const, result, dice: d6Faces(result.dice) };
    },
  ),
  'pool-condition': condition,
  // Both pools of an opposed roll rolled again from their first inputs, the active party's first.
  'pool-tiebreak': seeded(inputsOf<TieBreakInput>('pool-tiebreak', object({ rollId: string, round: number, active: pool, opponent: pool })), (inputs, rng) => {
    const result = resolveTieBreak(inputs, rng);
    return { kind: 'pool-tiebreak' as const, result, dice: tieBreakFaces(result) };
  }),
};
