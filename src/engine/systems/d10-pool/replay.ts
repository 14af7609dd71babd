/** d10 pool rolls rolled again from their seeds: basic, advanced, each cumulative step, phase initiative. */
import { z } from 'zod';
import { fractionOf, inputsOf, seeded, type Calibration } from '../../replay-kind.js';
import { resolveCumulativeStep } from './cumulative.js';
import { phaseInitiativeDice, rollPhaseInitiative } from './initiative.js';
import { partialAllowed, poolDice, poolOdds, poolSize, resolveAdvancedRoll, resolvePoolRoll, type PoolResult } from './pool.js';

/** A roll against a TN: the chance of a success or a solid one, as its odds line shows it; none without a TN. */
function poolCalibration(result: PoolResult): Partial<Calibration> {
  const tn = result.input.targetNumber;
  if (tn === null) return {};
  const bonus = result.terms.reduce((sum, term) => sum + term.value, 0);
  const odds = poolOdds(poolSize(result.input), tn, bonus, result.input.calm, partialAllowed(result.input));
  return { odds: fractionOf(odds.solid + odds.success, odds.outcomes) };
}

// Situations, aiming and the rest came later: rolls stored before them have none of them.
const settings = { dice: z.number(), targetNumber: z.number().nullable(), modifier: z.number(), calm: z.boolean(), situations: z.array(z.string()).optional() };
const poolFields = { ...settings, aimPhases: z.number().optional() };
const progress = z.looseObject({ total: z.number(), successes: z.number() });

export const d10PoolReplays = {
  d10: seeded(inputsOf('d10', z.looseObject(poolFields)), (inputs, rng) => {
    const result = resolvePoolRoll(inputs, rng);
    return { kind: 'd10' as const, result, dice: poolDice(result) };
  }, ({ result }) => poolCalibration(result)),
  'd10-advanced': seeded(
    inputsOf('d10-advanced', z.looseObject({ ...poolFields, secondary: z.number(), mode: z.enum(['additive', 'subtractive']), halve: z.boolean() })),
    (inputs, rng) => {
      const result = resolveAdvancedRoll(inputs, rng);
      return { kind: 'd10-advanced' as const, result, dice: poolDice(result) };
    },
    ({ result }) => poolCalibration(result),
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
