/**
 * The contest's component ids (`contest:<action>:<contest id>…`): which presses are a move alone (`PLAIN_PRESSES`),
 * which open a form or submit one, the form each opens (`origin`), and the skill menu's search value. The words of
 * posted ids never change: buttons already on Discord carry them. The buttons themselves are drawn in message.ts.
 */
import type { ContestRole, ContestSideName, PlainMove } from '../../engine/systems/tactalk/contest.js';
import { BUTTON, componentIds, oneOf, SELECT, wholeNumber } from '../component-id.js';

/** The skill menu's last option when a sheet has more skills than a menu holds: it opens the search form. */
export const SKILL_SEARCH_VALUE = '__search__';

/** The presses that are a move alone, each with the move it makes; the id's word stays as posted buttons carry it. */
export const PLAIN_PRESSES = {
  decline: 'decline',
  agree: 'agree',
  withdraw: 'withdraw',
  cancel: 'cancel',
  ready: 'ready',
  again: 'anotherRound',
  accepttie: 'acceptTie',
} as const satisfies Record<string, PlainMove>;
export type PlainPress = keyof typeof PLAIN_PRESSES;

/** The presses that open a form, and the submits of those forms (`-form`). */
export const FORM_PRESSES = ['accept', 'acceptform', 'adjust', 'adjustform'] as const;
export type ContestPress = PlainPress | (typeof FORM_PRESSES)[number];
const CONTEST_PRESSES: readonly ContestPress[] = [...FORM_PRESSES, ...(Object.keys(PLAIN_PRESSES) as PlainPress[])];

export type ContestControl =
  | { action: PlainPress; contestId: number }
  | { action: (typeof FORM_PRESSES)[number]; contestId: number }
  | { action: 'role'; contestId: number; role: ContestRole }
  | { action: 'skill' | 'searchform'; contestId: number; side: ContestSideName };

/** Whether a press is a move alone (PLAIN_PRESSES names it). */
export function isPlainPress(control: ContestControl): control is { action: PlainPress; contestId: number } {
  return Object.hasOwn(PLAIN_PRESSES, control.action);
}

/** The presses that may answer with a form, each the one `origin` below names as opening it (the skill menu: the search). */
export const opensForm = (control: ContestControl): boolean => control.action === 'accept' || control.action === 'adjust' || control.action === 'skill';

/** `contest:<action>:<contest id>`, and the role or side after it for `role`, `skill` and `searchform`. */
export const contestIds = componentIds<ContestControl>('contest', {
  write: (control) => [control.action, control.contestId, ...('role' in control ? [control.role] : 'side' in control ? [control.side] : [])],
  read: ([action, idText, arg, ...rest]) => {
    const contestId = wholeNumber(idText);
    if (contestId === null || rest.length > 0) return null;
    if (action === 'role') {
      const role = oneOf(arg, ['attacker', 'defender']);
      return role && { action, contestId, role };
    }
    if (action === 'skill' || action === 'searchform') {
      const side = oneOf(arg, ['challenger', 'opponent']);
      return side && { action, contestId, side };
    }
    const press = oneOf(action, CONTEST_PRESSES);
    return press && arg === undefined ? { action: press, contestId } : null;
  },
  // The skill menu is a select; each form is opened by the press on the contest's message named here.
  origin: (control) => {
    const { contestId } = control;
    if (control.action === 'skill') return SELECT;
    if (control.action === 'acceptform') return { formOpenedBy: [{ action: 'accept', contestId }] };
    if (control.action === 'adjustform') return { formOpenedBy: [{ action: 'adjust', contestId }] };
    if (control.action === 'searchform') return { formOpenedBy: [{ action: 'skill', contestId, side: control.side }] };
    return BUTTON;
  },
});
