/**
 * The text form of a linked challenge roll, as a Dispatcher would say it:
 *   "Handgun Handling +Acuity vs 90; Driving -10 vs 110"
 * Each part: a skill name, then any number of `+Archetype` and `±N` terms, then `vs CL`.
 * The CL may be left out of a part when a common one is given for the whole roll.
 */
import { z } from 'zod';
import { UserError } from '../../../errors.js';
import { cleanName, nameKey } from '../../names.js';

export const LINKED_ROLL_MAX_PARTS = 10;
export const LINKED_ROLL_MAX_LENGTH = 1000;

export const linkedRollPartSchema = z.object({ skill: z.string(), archetypes: z.array(z.string()), situationalModifier: z.number(), challengeLevel: z.number() });
export type LinkedRollPart = z.infer<typeof linkedRollPartSchema>;

const TERM = /^([+-])\s*(.+)$/;

/** How a part is written, shown after every refusal of one. */
const PART_EXAMPLE = 'A part reads like `Handgun Handling +Acuity -10 vs 90`; parts are separated by `;`.';

function fail(partNumber: number, text: string, problem: string): never {
  throw new UserError(`Linked roll, part ${partNumber} (\`${text}\`): ${problem} ${PART_EXAMPLE}`);
}

export function parseLinkedRoll(text: string, commonChallengeLevel?: number): LinkedRollPart[] {
  if (text.length > LINKED_ROLL_MAX_LENGTH) {
    throw new UserError(`A linked roll may be at most ${LINKED_ROLL_MAX_LENGTH} characters long.`);
  }
  const parts = text.split(/[;\n]/).map((part) => part.trim()).filter((part) => part.length > 0);
  if (parts.length < 2) {
    throw new UserError(
      'A linked roll needs at least two challenge rolls separated by `;`, e.g. `Handgun Handling +Acuity vs 90; Driving vs 110`.',
    );
  }
  if (parts.length > LINKED_ROLL_MAX_PARTS) {
    throw new UserError(`A linked roll may have at most ${LINKED_ROLL_MAX_PARTS} parts; this one has ${parts.length}.`);
  }
  const parsed = parts.map((part, index) => parsePart(part, index + 1, commonChallengeLevel));
  refuseRepeatedSkill(parsed);
  return parsed;
}

/**
 * Seed 000: a linked roll is a series of challenge rolls "which each test a single Skill required to perform the
 * complex action", so no skill is tested twice (as a contest's linked side refuses). Names match as sheets match them.
 */
function refuseRepeatedSkill(parts: LinkedRollPart[]): void {
  const first = new Map<string, number>();
  parts.forEach((part, index) => {
    const key = nameKey(part.skill);
    const earlier = first.get(key);
    if (earlier === undefined) return void first.set(key, index);
    throw new UserError(
      // The contest's linked side says it in the same words (contest.ts checkLinkedParts).
      `**${parts[earlier]!.skill}** is named twice in the linked roll; each skill is rolled once. Parts ${earlier + 1} and ${index + 1} test the same skill, ` +
        'and each part of a linked roll tests a different one: keep one part for it (a part may add several archetypes and a modifier), and name the other skill the action needs.',
    );
  });
}

function parsePart(part: string, partNumber: number, commonChallengeLevel: number | undefined): LinkedRollPart {
  let body = part;
  let challengeLevel = commonChallengeLevel;
  const versus = /\bvs\.?\s*(\S*)\s*$/i.exec(part);
  if (versus) {
    const level = versus[1] ?? '';
    if (!/^\d+$/.test(level)) fail(partNumber, part, `\`vs\` must be followed by a Challenge Level (a whole number), not \`${level || 'nothing'}\`.`);
    challengeLevel = Number(level);
    body = part.slice(0, versus.index).trim();
  } else if (/\bvs\b/i.test(part)) {
    fail(partNumber, part, '`vs <Challenge Level>` must come last.');
  }
  if (challengeLevel === undefined) {
    fail(partNumber, part, 'no Challenge Level: end the part with `vs <number>` or give a common `cl`.');
  }
  // Terms start at a + or − that follows a space, so a hyphen inside a skill name ("Close-Quarters") stays.
  const [skillText = '', ...termTexts] = body.split(/\s+(?=[+-])/);
  const skill = cleanName(skillText);
  if (skill.length === 0 || /^[+-]/.test(skill)) fail(partNumber, part, 'it must start with a skill name.');
  const archetypes: string[] = [];
  let situationalModifier = 0;
  for (const termText of termTexts) {
    const term = TERM.exec(termText.trim());
    if (!term) fail(partNumber, part, `cannot read \`${termText.trim()}\`.`);
    const [, sign, value = ''] = term;
    if (/^\d+$/.test(value.trim())) {
      situationalModifier += (sign === '-' ? -1 : 1) * Number(value.trim());
    } else if (sign === '+') {
      archetypes.push(cleanName(value));
    } else {
      fail(partNumber, part, `\`-${value.trim()}\`: archetype modifiers are added with \`+Name\`; a penalty is a number, like \`-10\`.`);
    }
  }
  return { skill, archetypes, situationalModifier, challengeLevel };
}
