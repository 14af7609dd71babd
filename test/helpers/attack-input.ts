import type { AttackInput } from '../../src/engine/systems/d100-tactics/tactics.js';

/** A d100 tactics attack as `/tactics attack` stores it: Mike's rifle on Sasha in half cover, changed where given. */
export function attackInput(target: Partial<AttackInput['target']> = {}, rest: Partial<AttackInput> = {}): AttackInput {
  return {
    attacker: { name: 'Mike', aim: 70, crit: 20 },
    target: { name: 'Sasha', sheetId: 0, defense: 10, dodge: 25, armor: 1, ...target },
    critBonus: 0,
    dodgeBonus: 0,
    dashing: false,
    weaponBase: 4,
    weaponRange: 3,
    cover: 'half',
    flanked: false,
    marked: false,
    melee: false,
    proficient: true,
    modifier: 0,
    flankingNeedsOwnCrit: false,
    ...rest,
  };
}
