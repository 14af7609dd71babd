/** d100 tactics rolls rolled again from their seeds: checks, attacks (applied or not), damage, psi, social, reactions. */
import { boolean, inputsOf, modifier, arrayOf, nullable, number, object, oneOf, optional, seeded, string } from '../../replay-kind.js';
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
  type CheckInput,
  type DamageInput,
  type PsiInput,
  type ReactionInput,
  type SocialInput,
} from './tactics.js';

// Attacks stored before issue 12 have no Crit or Dodge bonus and no Dash: only what every attack stored is required.
const attack = object({
  attacker: object({ name: string, aim: number, crit: number }),
  target: object({ name: string, sheetId: nullable(number), defense: number, dodge: number, armor: number }),
  critBonus: optional(number),
  dodgeBonus: optional(number),
  dashing: optional(boolean),
  weaponBase: number,
  weaponRange: number,
  cover: oneOf(...Object.keys(COVER_BONUS)),
  flanked: boolean,
  marked: boolean,
  melee: boolean,
  proficient: boolean,
  modifier: number,
});

/** An applied attack stores the attack's inputs, seed and dice: it replays as the attack it applied. */
function attackRoll(kind: 'attack' | 'attack-applied') {
  return seeded(inputsOf<AttackInput>(kind, attack), (inputs, rng) => {
    const result = resolveAttack(inputs, rng);
    return { kind: 'attack' as const, result, dice: attackDice(result) };
  });
}

export const d100TacticsReplays = {
  check: seeded(inputsOf<CheckInput>('check', object({ attribute: modifier, modifiers: arrayOf(modifier) })), (inputs, rng) => {
    const result = resolveCheck(inputs, rng);
    return { kind: 'check' as const, result, dice: checkDice(result) };
  }),
  attack: attackRoll('attack'),
  'attack-applied': attackRoll('attack-applied'),
  damage: seeded(inputsOf<DamageInput>('damage', object({ base: number, range: number })), (inputs, rng) => {
    const result = rollDamage(inputs, rng);
    return { kind: 'damage' as const, result, dice: [result.face] };
  }),
  psi: seeded(inputsOf<PsiInput>('psi', object({ psi: number, difficulty: number, target: nullable(object({ name: string, will: number })), collar: boolean })), (inputs, rng) => {
    const result = resolvePsi(inputs, rng);
    return { kind: 'psi' as const, result, dice: checkDice(result.check) };
  }),
  social: seeded(
    inputsOf<SocialInput>('social', object({ will: number, speciesDistance: number, alien: boolean, psionicListener: boolean, speakerPsionic: boolean, modifier: number })),
    (inputs, rng) => {
      const result = resolveSocial(inputs, rng);
      return { kind: 'social' as const, result, dice: checkDice(result.check) };
    },
  ),
  reaction: seeded(inputsOf<ReactionInput>('reaction', object({ kind: oneOf('defense', 'dodge'), value: number, modifier: number })), (inputs, rng) => {
    const result = resolveReaction(inputs, rng);
    return { kind: 'reaction' as const, result, dice: checkDice(result.check) };
  }),
};
