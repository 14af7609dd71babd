/**
 * The custom_ids of the bot's buttons, menus and forms. Each command that draws components owns one family of ids,
 * `<command>:<part>:<part>…`: the router finds the command by the family (the part before the first `:`) and hands
 * its handler the value the id stands for, parsed by the family's own `parse`. Each family is defined next to the
 * view that draws its components (`contestIds` in src/views/contest.ts…); ids already posted on Discord keep
 * working only while a family reads the ids it wrote before, so change a family's parts with care.
 */
import { DISCORD_LIMITS } from './limits.js';

export interface ComponentIds<T> {
  /** The owning command's name: every id of the family starts with `<family>:`. */
  readonly family: string;
  /** The custom_id for `value`; throws (a bug) when it would not fit Discord's 100 characters. */
  encode(value: T): string;
  /** The value `customId` stands for; null when it is another family's, or not one this family writes. Never throws. */
  parse(customId: string): T | null;
}

/** The family of a custom_id: the owning command's name. */
export function familyOf(customId: string): string {
  const colon = customId.indexOf(':');
  return colon < 0 ? customId : customId.slice(0, colon);
}

/**
 * A family of ids from how its values become the parts after `<family>:` and back. `read` gets the parts split on
 * `:` (a last part that may hold `:` itself is joined back by the family) and returns null for anything it did not
 * write.
 */
export function componentIds<T>(family: string, codec: { write(value: T): ReadonlyArray<string | number>; read(parts: string[]): T | null }): ComponentIds<T> {
  return {
    family,
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

/** `<family>:<action>:<row id>`: the ids of presses that each act on one stored thing (a request, a sheet). */
export function actionIds<const A extends string, const K extends string>(family: string, actions: readonly A[], key: K): ComponentIds<{ action: A } & { [P in K]: number }> {
  type Control = { action: A } & { [P in K]: number };
  return componentIds<Control>(family, {
    write: (control) => [control.action, control[key]],
    read: ([actionText, idText, ...rest]) => {
      const action = oneOf(actionText, actions);
      const id = wholeNumber(idText);
      return action && id !== null && rest.length === 0 ? ({ action, [key]: id } as Control) : null;
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
