/** Building a challenge roll's inputs from an Operator sheet: the skill's level, the named archetypes, the conditions. */
import { archetypeModifiers, conditionModifiers, findSkill, type OperatorSheet } from '../../sheet.js';
import type { ChallengeInput } from './challenge.js';
import type { LinkedRollPart } from './linked-notation.js';

export function challengeFromSheet(
  sheet: OperatorSheet,
  part: LinkedRollPart,
  options: { force: boolean; hidden: boolean; otherwise?: string },
  now: Date,
): ChallengeInput {
  const skill = findSkill(sheet, part.skill, options.otherwise);
  return {
    skill: { name: skill.name, level: skill.level },
    archetypeModifiers: archetypeModifiers(sheet, part.archetypes),
    conditionModifiers: conditionModifiers(sheet, skill.name, now),
    situationalModifier: part.situationalModifier,
    challengeLevel: part.challengeLevel,
    force: options.force,
    hidden: options.hidden,
  };
}
