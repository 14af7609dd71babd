/** Die-code rolls rolled again from their seeds: checks, points spent on a track, scene records, debate initiative. */
import { z } from 'zod';
import { fractionOf, inputsOf, seeded, type ReplayKind } from '../../replay-kind.js';
import { codeCheckDice, outcomesAbove, resolveCodeCheck, resultPointsDistribution } from './check.js';
import { debateInitiativeDice, rollDebateInitiative } from './initiative.js';
import type { SceneRecord } from './scene.js';

const code = z.looseObject({ dice: z.number(), pips: z.number() });
const opposition = z.discriminatedUnion('kind', [
  z.looseObject({ kind: z.literal('standing') }),
  z.looseObject({ kind: z.literal('difficulty'), value: z.number(), name: z.string().nullable() }),
  z.looseObject({ kind: z.literal('fixed'), value: z.number(), code: code.nullable(), conceded: z.string().optional() }),
  z.looseObject({ kind: z.literal('active'), code }),
]);
// Checks stored before effect rolls existed have no `effect`.
const check = z.looseObject({ code, boost: z.array(code), penalty: z.array(code), against: opposition, effect: code.optional() });

/** Points spent on a track store the check's inputs, seed and dice: they replay as the check they came from. */
function codeCheck(kind: 'code' | 'code-spend') {
  return seeded(inputsOf(kind, check), (inputs, rng) => {
    const result = resolveCodeCheck(inputs, rng);
    return { kind: 'code' as const, result, dice: codeCheckDice(result) };
  });
}

const sceneRecord = z.looseObject({ event: z.enum(['concede', 'end', 'action-point']), scene: z.number(), channelId: z.string() });

/** A concession, a scene's end or an action point: no dice, stored so each is made once; replays as recorded. */
const scene: ReplayKind<SceneRecord, { kind: 'code-scene'; result: SceneRecord; dice: never[] }> = {
  // A cast: a record is read by what every event holds (its event, scene and channel) and shown as stored, so
  // a concession's or an action point's own fields, which SceneRecord types by event, are not checked here.
  parse: inputsOf('code-scene', sceneRecord) as (inputs: unknown) => SceneRecord,
  rederive: (inputs) => ({ kind: 'code-scene', result: inputs, dice: [] }),
};

export const resultPointsReplays = {
  code: {
    ...codeCheck('code'),
    // Against an opposition: the chance of result points above 0, as the check shows it; a standing check has no
    // verdict. Points spent on a track (code-spend) replay as their check but are no new trial.
    calibration: ({ result }) => {
      if (result.success === null) return {};
      const distribution = resultPointsDistribution(result.input);
      return { odds: fractionOf(outcomesAbove(distribution, 0), distribution.outcomes) };
    },
  } satisfies ReturnType<typeof codeCheck>,
  'code-spend': codeCheck('code-spend'),
  'code-scene': scene,
  'code-initiative': seeded(inputsOf('code-initiative', z.looseObject({ entries: z.array(z.looseObject({ name: z.string(), code })) })), (inputs, rng) => {
    const result = rollDebateInitiative(inputs, rng);
    return { kind: 'code-initiative' as const, result, dice: debateInitiativeDice(result) };
  }),
};
