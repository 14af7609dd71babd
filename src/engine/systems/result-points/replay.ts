/** Die-code rolls rolled again from their seeds: checks, points spent on a track, scene records, debate initiative. */
import { arrayOf, either, inputsOf, nullable, number, object, oneOf, optional, seeded, string, type ReplayKind } from '../../replay-kind.js';
import { codeCheckDice, resolveCodeCheck, type CodeCheckInput } from './check.js';
import { debateInitiativeDice, rollDebateInitiative, type DebateInitiativeInput } from './initiative.js';
import type { SceneRecord } from './scene.js';

const code = object({ dice: number, pips: number });
const opposition = either(
  [
    { when: (value) => value.kind === 'standing', check: object({}) },
    { when: (value) => value.kind === 'difficulty', check: object({ value: number, name: nullable(string) }) },
    { when: (value) => value.kind === 'fixed', check: object({ value: number, code: nullable(code), conceded: optional(string) }) },
    { when: (value) => value.kind === 'active', check: object({ code }) },
  ],
  'an opposition of kind "standing", "difficulty", "fixed" or "active"',
);
// Checks stored before effect rolls existed have no `effect`.
const check = object({ code, boost: arrayOf(code), penalty: arrayOf(code), against: opposition, effect: optional(code) });

/** Points spent on a track store the check's inputs, seed and dice: they replay as the check they came from. */
function codeCheck(kind: 'code' | 'code-spend') {
  return seeded(inputsOf<CodeCheckInput>(kind, check), (inputs, rng) => {
    const result = resolveCodeCheck(inputs, rng);
    return { kind: 'code' as const, result, dice: codeCheckDice(result) };
  });
}

const sceneRecord = object({ event: oneOf('concede', 'end', 'action-point'), scene: number, channelId: string });

/** A concession, a scene's end or an action point: no dice, stored so each is made once; replays as recorded. */
const scene: ReplayKind<SceneRecord, { kind: 'code-scene'; result: SceneRecord; dice: never[] }> = {
  parse: inputsOf<SceneRecord>('code-scene', sceneRecord),
  rederive: (inputs) => ({ kind: 'code-scene', result: inputs, dice: [] }),
};

export const resultPointsReplays = {
  code: codeCheck('code'),
  'code-spend': codeCheck('code-spend'),
  'code-scene': scene,
  'code-initiative': seeded(inputsOf<DebateInitiativeInput>('code-initiative', object({ entries: arrayOf(object({ name: string, code })) })), (inputs, rng) => {
    const result = rollDebateInitiative(inputs, rng);
    return { kind: 'code-initiative' as const, result, dice: debateInitiativeDice(result) };
  }),
};
