/**
 * The custom_ids of the bot's buttons, menus and forms. Each command that draws components owns one family of ids,
 * `<command>:<part>:<part>…`: the router finds the command by the family (the part before the first `:`) and hands
 * its handler the value the id stands for, parsed by the family's own `parse`. Each family is defined next to the
 * view that draws its components (`contestIds` in src/views/contest/ids.ts…); ids already posted on Discord keep
 * working only while a family reads the ids it wrote before, so change a family's parts with care.
 */
import { DISCORD_LIMITS } from './limits.js';

/** What a user works on a message: a button, or a select menu. */
export type PressKind = 'button' | 'select';

/**
 * Where a control comes from, declared by its family next to the view that draws it; the router honours a control
 * only from there (src/discord/control-origin.ts). A press (`pressed`: the kinds it may be; a control of older
 * messages may be either) comes from a message that carries that very control. A form's submit (`formOpenedBy`:
 * the controls that open it) comes from a message that carries one of them: Discord sends the message a form was
 * opened from with its submit.
 */
export type ControlOrigin<T> = { pressed: readonly PressKind[] } | { formOpenedBy: readonly T[] };

/** The origin of most controls: a button on the message. */
export const BUTTON = { pressed: ['button'] } as const satisfies ControlOrigin<never>;
/** A select menu on the message. */
export const SELECT = { pressed: ['select'] } as const satisfies ControlOrigin<never>;

export interface ComponentIds<T> {
  /** The owning command's name: every id of the family starts with `<family>:`. */
  readonly family: string;
  /** The custom_id for `value`; throws (a bug) when it would not fit Discord's 100 characters. */
  encode(value: T): string;
  /** The value `customId` stands for; null when it is another family's, or not one this family writes. Never throws. */
  parse(customId: string): T | null;
  /** Where the control `value` stands for comes from: pressed on its message, or a form opened by a control there. */
  originOf(value: T): ControlOrigin<T>;
}

/** The family of a custom_id: the owning command's name. */
export function familyOf(customId: string): string {
  const colon = customId.indexOf(':');
  return colon < 0 ? customId : customId.slice(0, colon);
}

/**
 * A family of ids from how its values become the parts after `<family>:` and back. `read` gets the parts split on
 * `:` (a last part that may hold `:` itself is joined back by the family) and returns null for anything it did not
 * write. `origin` says where each control comes from (default: a button on the message).
 */
export function componentIds<T>(
  family: string,
  codec: { write(value: T): ReadonlyArray<string | number>; read(parts: string[]): T | null; origin?(value: T): ControlOrigin<T> },
): ComponentIds<T> {
  return {
    family,
    originOf: (value) => codec.origin?.(value) ?? BUTTON,
    encode(value) {
      const id = [family, ...codec.write(value)].join(':');
      if (id.length > DISCORD_LIMITS.customId) throw new Error(`the custom_id "${id}" is longer than Discord's ${DISCORD_LIMITS.customId} characters`);
      return id;
    },
    parse(customId) {
      if (familyOf(customId) !== family) return null;
      try {
        return codec.read(customId.split(':').slice(1));
      } catch {
        return null;
      }
    },
  };
}

/**
 * `<family>:<action>:<row id>`: the ids of presses that each act on one stored thing (a request, a sheet), all
 * buttons; `forms` names each action that is a form's submit, with the action whose button opens it (on the same row).
 */
export function actionIds<const A extends string, const K extends string>(
  family: string,
  actions: readonly A[],
  key: K,
  forms: Partial<Record<A, A>> = {},
): ComponentIds<{ action: A } & { [P in K]: number }> {
  type Control = { action: A } & { [P in K]: number };
  return componentIds<Control>(family, {
    write: (control) => [control.action, control[key]],
    read: ([actionText, idText, ...rest]) => {
      const action = oneOf(actionText, actions);
      const id = wholeNumber(idText);
      return action && id !== null && rest.length === 0 ? ({ action, [key]: id } as Control) : null;
    },
    origin: (control) => {
      const opener = forms[control.action];
      return opener === undefined ? BUTTON : { formOpenedBy: [{ action: opener, [key]: control[key] } as Control] };
    },
  });
}

/** A roll id written in an id: the roll log's id, as the bot writes it (no `:`). */
export function rollIdIn(text: string | undefined): string | null {
  return text && /^[\w-]{1,40}$/.test(text) ? text : null;
}

/** `<family>:<action>:<roll id>`: the ids of presses on a roll's message. */
export function rollActionIds<const A extends string>(family: string, actions: readonly A[]): ComponentIds<{ action: A; rollId: string }> {
  return componentIds(family, {
    write: ({ action, rollId }) => [action, rollId],
    read: ([actionText, rollText, ...rest]) => {
      const action = oneOf(actionText, actions);
      const rollId = rollIdIn(rollText);
      return action && rollId && rest.length === 0 ? { action, rollId } : null;
    },
  });
}

/**
 * A press or a form submit whose control is not on the message it came from (a button of another message, a form
 * its message never offered, a button's id sent as a form's or the other way round): forged, or the message moved
 * on since. Nothing is done.
 */
export function controlNotOnMessageText(kind: 'press' | 'form'): string {
  return kind === 'form'
    ? 'This form does not belong to the message it was sent from (that message may have changed since the form opened), so nothing was changed. Use the buttons on the message as it is now.'
    : 'This control is not on the message it was sent from, so nothing was changed. Use the buttons on the message as it is now.';
}

/** A press whose custom_id its command does not read: a control of an older version of the bot, or a forged one. */
export function outdatedControlText(command: string): string {
  return `This button is from an older version of the bot, or was not made by it. Run \`/${command}\` again for fresh buttons.`;
}

/** A whole number written in an id (a row id, a step, a version): digits only, as the bot writes them; else null. */
export function wholeNumber(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,15}$/.test(text)) return null;
  return Number(text);
}

/** `text` when it is one of `choices`, else null: a verb or a side read from an id. */
export function oneOf<const C extends string>(text: string | undefined, choices: readonly C[]): C | null {
  return choices.includes(text as C) ? (text as C) : null;
}
