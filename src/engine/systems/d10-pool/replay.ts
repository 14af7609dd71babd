/** d10 pool rolls rolled again from their seeds: basic, advanced, each cumulative step, phase initiative. */
import { z } from 'zod';
import { inputsOf, seeded } from '../../replay-kind.js';
import { resolveCumulativeStep } from './cumulative.js';
import { phaseInitiativeDice, rollPhaseInitiative } from './initiative.js';
import { poolDice, resolveAdvancedRoll, resolvePoolRoll } from './pool.js';

// Situations, aiming and the rest came later: rolls stored before them have none of them.
const settings = { dice: z.number(), targetNumber: z.number().nullable(), modifier: z.number(), calm: z.boolean(), situations: z.array(z.string()).optional() };
const poolFields = { ...settings, aimPhases: z.number().optional() };
const progress = z.looseObject({ total: z.number(), successes: z.number() });

export const d10PoolReplays = {
  d10: seeded(inputsOf('d10', z.looseObject(poolFields)), (inputs, rng) => {
    const result = resolvePoolRoll(inputs, rng);
    return { kind: 'd10' as const, result, dice: poolDice(result) };
  }),
  'd10-advanced': seeded(
    inputsOf('d10-advanced', z.looseObject({ ...poolFields, secondary: z.number(), mode: z.enum(['additive', 'subtractive']), halve: z.boolean() })),
    (inputs, rng) => {
      const result = resolveAdvancedRoll(inputs, rng);
      return { kind: 'd10-advanced' as const, result, dice: poolDice(result) };
    },
  ),
  // Each step stores the running state before it, so it replays on its own.
  'd10-extended': seeded(
    inputsOf(
      'd10-extended',
      z.looseObject({
        ...settings,
        target: z.number().nullable(),
        count: z.number().nullable(),
        maxRolls: z.number(),
        cumulativeId: z.string(),
        step: z.number(),
        before: progress,
      }),
    ),
    (inputs, rng) => {
      const result = resolveCumulativeStep(inputs, rng);
      return { kind: 'd10-extended' as const, result, dice: poolDice(result.roll) };
    },
  ),
  'd10-initiative': seeded(
    inputsOf('d10-initiative', z.looseObject({ phase: z.number(), entries: z.array(z.looseObject({ name: z.string(), dice: z.number(), modifier: z.number() })) })),
    (inputs, rng) => {
      const result = rollPhaseInitiative(inputs, rng);
      return { kind: 'd10-initiative' as const, result, dice: phaseInitiativeDice(result) };
    },
  ),
};
