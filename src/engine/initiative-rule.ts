/**
 * What an initiative rule is: the facts the tracker (initiative.ts) needs, as each system states them in its own
 * rule file and lists them in its declaration (systems/<system>/index.ts). Apart from the tracker, so a system's
 * rule file and the system list need not import the tracker that reads them.
 */
import { z } from 'zod';

/** The rules a tracker's stored state may name; `manual` is every system's without a rule of its own. */
export const initiativeRuleIdSchema = z.enum(['melee', 'chase', 'debate', 'd10-phase', 'manual']);
export type InitiativeRuleId = z.infer<typeof initiativeRuleIdSchema>;

/** How a system orders its scene; `System` is the id of the system whose rule it is. */
export interface InitiativeRule<System extends string = string> {
  id: InitiativeRuleId;
  system: System;
  /** Who goes first: the highest initiative (melee, debate) or the lowest (a chase's lead, seed 004's declarations). */
  first: 'highest' | 'lowest';
  /** What one pass through everyone is: a round (seed 002) or a phase of 3 s (seed 004). */
  cycle: 'round' | 'phase';
  /** When the numbers are rolled: never (a value given), once on joining (an ability check), or each phase. */
  rolled: 'never' | 'on joining' | 'each cycle';
}
