/** d6 pool rolls rolled again from their seeds: a roll, its opposition, a push, the condition it cost, a tie-break. */
import { z } from 'zod';
import { fractionOf, inputsOf, seeded, type ReplayKind } from '../../replay-kind.js';
import { storedModifier } from '../tactalk/replay.js';
import { d6Faces, resolveD6Pool, resolvePush, resolveTieBreak, successChance, tieBreakFaces, type PoolConditionRecord } from './pool.js';

const attribute = z.enum(['STR', 'AGI', 'WIT', 'EMP']);
const sheet = z.looseObject({ id: z.number(), name: z.string() });
const pool = z.looseObject({
  skill: z.string(),
  attribute,
  skillLevel: z.number(),
  attributeValue: z.number(),
  gear: z.number(),
  modifiers: z.array(storedModifier),
  sheet: sheet.nullable(),
});

function poolRoll<K extends 'pool' | 'pool-opposed'>(kind: K) {
  return seeded(
    inputsOf(kind, pool),
    (inputs, rng) => {
      const result = resolveD6Pool(inputs, rng);
      return { kind, result, dice: d6Faces(result.dice) };
    },
    // The odds the roll shows: at least one net success with the dice thrown (a push's odds hang on the dice kept,
    // so a push carries none).
    ({ result }) => {
      const chance = successChance(result.dice.length);
      return { odds: fractionOf(chance.favourable, chance.total) };
    },
  );
}

/** The condition a push cost: no dice, stored so the pick is made once; it replays as what was picked. */
const condition: ReplayKind<PoolConditionRecord, { kind: 'pool-condition'; result: PoolConditionRecord; dice: never[] }> = {
  parse: inputsOf('pool-condition', z.looseObject({ rollId: z.string(), sheet, condition: z.string() })),
  rederive: (inputs) => ({ kind: 'pool-condition', result: inputs, dice: [] }),
};

export const d6PoolReplays = {
  pool: poolRoll('pool'),
  'pool-opposed': poolRoll('pool-opposed'),
  // A push stores the dice it pushed, so it replays on its own.
  'pool-push': seeded(
    inputsOf('pool-push', z.looseObject({ rollId: z.string(), attribute, dice: z.array(z.looseObject({ source: z.enum(['skill', 'gear', 'attribute']), face: z.number() })) })),
    (inputs, rng) => {
      const result = resolvePush(inputs, rng);
      return { kind: 'pool-push' as const, result, dice: d6Faces(result.dice) };
    },
  ),
  'pool-condition': condition,
  // Both pools of an opposed roll rolled again from their first inputs, the active party's first.
  'pool-tiebreak': seeded(inputsOf('pool-tiebreak', z.looseObject({ rollId: z.string(), round: z.number(), active: pool, opponent: pool })), (inputs, rng) => {
    const result = resolveTieBreak(inputs, rng);
    return { kind: 'pool-tiebreak' as const, result, dice: tieBreakFaces(result) };
  }),
};
