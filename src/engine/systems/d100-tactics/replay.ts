/** d100 tactics rolls rolled again from their seeds: checks, attacks (applied or not), damage, psi, social, reactions. */
import { z } from 'zod';
import { inputsOf, seeded, type Calibration } from '../../replay-kind.js';
import { storedModifier } from '../tactalk/replay.js';
import {
  attackDice,
  checkDice,
  COVER_BONUS,
  resolveAttack,
  resolveCheck,
  resolvePsi,
  resolveReaction,
  resolveSocial,
  rollDamage,
  type AttackInput,
  type CheckResult,
  type Cover,
} from './tactics.js';

/** A check's chance as it shows it ("chance 75%"): one face of the D100 is one percent. */
const checkCalibration = (check: CheckResult): Calibration => ({ odds: check.chance / 100, d100: check.d100.value });

// Attacks stored before issue 12 have no Crit or Dodge bonus and no Dash, those before issue 23 no flanking reading:
// only what every attack stored is required.
const attack = z.looseObject({
  attacker: z.looseObject({ name: z.string(), aim: z.number(), crit: z.number() }),
  target: z.looseObject({ name: z.string(), sheetId: z.number().nullable(), defense: z.number(), dodge: z.number(), armor: z.number() }),
  critBonus: z.number().optional(),
  dodgeBonus: z.number().optional(),
  dashing: z.boolean().optional(),
  weaponBase: z.number(),
  weaponRange: z.number(),
  // Object.keys types the keys of COVER_BONUS as strings: they are its Cover names.
  cover: z.enum(Object.keys(COVER_BONUS) as Cover[]),
  flanked: z.boolean(),
  marked: z.boolean(),
  melee: z.boolean(),
  proficient: z.boolean(),
  modifier: z.number(),
  flankingNeedsOwnCrit: z.boolean().optional(),
});

/** An applied attack stores the attack's inputs, seed and dice: it replays as the attack it applied. */
function attackRoll(kind: 'attack' | 'attack-applied') {
  // A cast: AttackInput is an attack as rolled today, its bonuses, Dash and flanking reading required;
  // resolveAttack completes an older one (completeAttackInput), so the stored shape, which may lack them, is typed
  // as the engine reads it.
  const parse = inputsOf(kind, attack) as (inputs: unknown) => AttackInput;
  return seeded(parse, (inputs, rng) => {
    const result = resolveAttack(inputs, rng);
    return { kind: 'attack' as const, result, dice: attackDice(result) };
  });
}

export const d100TacticsReplays = {
  check: seeded(inputsOf('check', z.looseObject({ attribute: storedModifier, modifiers: z.array(storedModifier) })), (inputs, rng) => {
    const result = resolveCheck(inputs, rng);
    return { kind: 'check' as const, result, dice: checkDice(result) };
  }, ({ result }) => checkCalibration(result)),
  attack: attackRoll('attack'),
  'attack-applied': attackRoll('attack-applied'),
  damage: seeded(inputsOf('damage', z.looseObject({ base: z.number(), range: z.number() })), (inputs, rng) => {
    const result = rollDamage(inputs, rng);
    return { kind: 'damage' as const, result, dice: [result.face] };
  }),
  psi: seeded(
    inputsOf('psi', z.looseObject({ psi: z.number(), difficulty: z.number(), target: z.looseObject({ name: z.string(), will: z.number() }).nullable(), collar: z.boolean() })),
    (inputs, rng) => {
      const result = resolvePsi(inputs, rng);
      return { kind: 'psi' as const, result, dice: checkDice(result.check) };
    },
    ({ result }) => checkCalibration(result.check),
  ),
  social: seeded(
    inputsOf(
      'social',
      z.looseObject({ will: z.number(), speciesDistance: z.number(), alien: z.boolean(), psionicListener: z.boolean(), speakerPsionic: z.boolean(), modifier: z.number() }),
    ),
    (inputs, rng) => {
      const result = resolveSocial(inputs, rng);
      return { kind: 'social' as const, result, dice: checkDice(result.check) };
    },
    ({ result }) => checkCalibration(result.check),
  ),
  reaction: seeded(inputsOf('reaction', z.looseObject({ kind: z.enum(['defense', 'dodge']), value: z.number(), modifier: z.number() })), (inputs, rng) => {
    const result = resolveReaction(inputs, rng);
    return { kind: 'reaction' as const, result, dice: checkDice(result.check) };
  }, ({ result }) => checkCalibration(result.check)),
};
