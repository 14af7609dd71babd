/**
 * A control is honoured only from its own message. Discord sends a press with the message it was pressed on, and a
 * form's submit with the message whose control opened it; a client can forge the custom_id, not that message. So a
 * press counts only when its message carries a component of exactly its custom_id and of its kind (a button's id is
 * not a select's), and a form's submit only when its message carries a control that opens that form, as its family
 * declares (`originOf`, src/views/component-id.ts). Anything else is refused before the handler runs: a modal id sent
 * as a button, `sheet:keep:1` submitted as a form against a roll's message, a button of another message.
 */
import { ComponentType, type Interaction, type Message } from 'discord.js';
import type { ComponentIds, PressKind } from '../views/component-id.js';
import { controlNotOnMessageText } from '../views/component-id.js';

type ComponentJson = { type?: number; custom_id?: string; components?: unknown; accessory?: unknown; component?: unknown };

const SELECT_TYPES: ReadonlySet<number> = new Set([
  ComponentType.StringSelect,
  ComponentType.UserSelect,
  ComponentType.RoleSelect,
  ComponentType.MentionableSelect,
  ComponentType.ChannelSelect,
]);

function kindOfType(type: number | undefined): PressKind | null {
  if (type === ComponentType.Button) return 'button';
  return type !== undefined && SELECT_TYPES.has(type) ? 'select' : null;
}

/** Every component of the message, through action rows, sections, containers and labels, as Discord's JSON. */
function* componentsOf(nodes: unknown): Generator<ComponentJson> {
  if (!Array.isArray(nodes)) return;
  for (const node of nodes) {
    if (typeof node !== 'object' || node === null) continue;
    const json = (typeof (node as { toJSON?: unknown }).toJSON === 'function' ? (node as { toJSON(): unknown }).toJSON() : node) as ComponentJson;
    yield json;
    yield* componentsOf(json.components);
    if (json.accessory) yield* componentsOf([json.accessory]);
    if (json.component) yield* componentsOf([json.component]);
  }
}

/** The kind of control the message carries under `customId` (a button or a select), or null when it carries none. */
function carried(message: Message, customId: string): PressKind | null {
  for (const component of componentsOf(message.components)) {
    if (component.custom_id === customId) return kindOfType(component.type);
  }
  return null;
}

/**
 * Why the bot must not act on this press or submit of `control` (the words a user reads), or null when it comes from
 * a message that carries it.
 */
export function controlRefusal<T>(interaction: Interaction, ids: ComponentIds<T>, control: T): string | null {
  const origin = ids.originOf(control);
  if (interaction.isModalSubmit()) {
    if (!('formOpenedBy' in origin) || !interaction.isFromMessage()) return controlNotOnMessageText('form');
    const message = interaction.message;
    const opened = origin.formOpenedBy.some((opener) => {
      const kind = carried(message, ids.encode(opener));
      const openerOrigin = ids.originOf(opener);
      return kind !== null && 'pressed' in openerOrigin && openerOrigin.pressed.includes(kind);
    });
    return opened ? null : controlNotOnMessageText('form');
  }
  if (!interaction.isMessageComponent()) return null;
  const pressed: PressKind | null = interaction.isButton() ? 'button' : interaction.isAnySelectMenu() ? 'select' : null;
  if (!('pressed' in origin) || pressed === null || !origin.pressed.includes(pressed)) return controlNotOnMessageText('press');
  return carried(interaction.message, interaction.customId) === pressed ? null : controlNotOnMessageText('press');
}
