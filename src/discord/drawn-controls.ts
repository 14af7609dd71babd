/**
 * The controls a message shows, and those this process last drew on each message. The responder records a press's
 * update once Discord took it (`recordDrawn`); the stored messages (src/discord/stored-message.ts) read it back to
 * tell a message that lags behind the store from one drawn since the press. It imports neither, so both can use it.
 */

import { isRollAgainRow } from '../views/roll-again.js';

/** A control as a message shows it: its custom_id, whether it is greyed, and what its menu has picked. */
export interface ShownControl {
  customId: string | undefined;
  disabled: boolean;
  picked: string[];
}

/**
 * The controls in action rows (as sent to Discord, or as builders). A typed roll's Roll again row is left out: it is
 * on the message whatever state the command stored, so it tells nothing of that state.
 */
export function controlsIn(rows: readonly unknown[]): ShownControl[] {
  return rows.flatMap((row) => {
    const json = typeof (row as { toJSON?: unknown }).toJSON === 'function' ? (row as { toJSON(): unknown }).toJSON() : row;
    if (isRollAgainRow(json as { components?: Array<{ custom_id?: string }> })) return [];
    return ((json as { components?: unknown[] }).components ?? []).map((component) => {
      const { custom_id, disabled, options } = component as { custom_id?: string; disabled?: boolean; options?: { value: string; default?: boolean }[] };
      return { customId: custom_id, disabled: disabled === true, picked: (options ?? []).filter((option) => option.default).map((option) => option.value) };
    });
  });
}

/** The controls as one comparable string: two messages show the same controls when their keys are equal. */
export const controlsKey = (controls: ShownControl[]) => JSON.stringify(controls.map(({ customId, disabled, picked }) => [customId, disabled, picked]));

/**
 * The controls this process last drew on a message (a press's update that Discord took), and when. A press carries
 * the message as it was when pressed: two presses at once both carry the old one, and the second, handled after the
 * first was drawn, would take the message for one that lags. What was drawn since the press is newer.
 */
const drawn = new Map<string, { controls: string; at: number }>();
const DRAWN_KEPT = 10_000;

/** Called once Discord took a press's update of its message (src/discord/responder.ts). */
export function recordDrawn(messageId: string, components: readonly unknown[] | undefined): void {
  drawn.delete(messageId);
  drawn.set(messageId, { controls: controlsKey(controlsIn(components ?? [])), at: Date.now() });
  // The oldest go first: a message pressed again soon is drawn again, and so stays.
  if (drawn.size > DRAWN_KEPT) drawn.delete(drawn.keys().next().value!);
}

/** What this process last drew on the message (its controls' key) and when, if it drew it lately. */
export function lastDrawn(messageId: string): { controls: string; at: number } | undefined {
  return drawn.get(messageId);
}
