/** d10 pool rolls rolled again from their seeds: basic, advanced, each cumulative step, phase initiative. */
import { arrayOf, boolean, inputsOf, nullable, number, object, oneOf, optional, seeded, string } from '../../replay-kind.js';
import { resolveCumulativeStep, type CumulativeStepInput } from './cumulative.js';
import { phaseInitiativeDice, rollPhaseInitiative, type PhaseInitiativeInput } from './initiative.js';
import { poolDice, resolveAdvancedRoll, resolvePoolRoll, type AdvancedInput, type PoolInput } from './pool.js';

// Situations, aiming and the rest came later: rolls stored before them have none of them.
const poolFields = { dice: number, targetNumber: nullable(number), modifier: number, calm: boolean, situations: optional(arrayOf(string)), aimPhases: optional(number) };
const progress = object({ total: number, successes: number });

export const d10PoolReplays = {
  d10: seeded(inputsOf<PoolInput>('d10', object(poolFields)), (inputs, rng) => {
    const result = resolvePoolRoll(inputs, rng);
    return { kind: 'd10' as const, result, dice: poolDice(result) };
  }),
  'd10-advanced': seeded(
    inputsOf<AdvancedInput>('d10-advanced', object({ ...poolFields, secondary: number, mode: oneOf('additive', 'subtractive'), halve: boolean })),
    (inputs, rng) => {
      const result = resolveAdvancedRoll(inputs, rng);
      return { kind: 'd10-advanced' as const, result, dice: poolDice(result) };
    },
  ),
  // Each step stores the running state before it, so it replays on its own.
  'd10-extended': seeded(
    inputsOf<CumulativeStepInput>(
      'd10-extended',
      object({ dice: number, targetNumber: nullable(number), modifier: number, calm: boolean, situations: optional(arrayOf(string)), target: nullable(number), count: nullable(number), maxRolls: number, cumulativeId: string, step: number, before: progress }),
    ),
    (inputs, rng) => {
      const result = resolveCumulativeStep(inputs, rng);
      return { kind: 'd10-extended' as const, result, dice: poolDice(result.roll) };
    },
  ),
  'd10-initiative': seeded(
    inputsOf<PhaseInitiativeInput>('d10-initiative', object({ phase: number, entries: arrayOf(object({ name: string, dice: number, modifier: number })) })),
    (inputs, rng) => {
      const result = rollPhaseInitiative(inputs, rng);
      return { kind: 'd10-initiative' as const, result, dice: phaseInitiativeDice(result) };
    },
  ),
};
