/** Discord's size limits, in one place, and the helpers that keep every message inside them. */
export const DISCORD_LIMITS = {
  content: 2000,
  embedTitle: 256,
  embedDescription: 4096,
  embedFields: 25,
  fieldName: 256,
  fieldValue: 1024,
  footer: 2048,
  embedTotal: 6000,
  customId: 100,
  autocompleteChoices: 25,
  choiceName: 100,
  choiceValue: 100,
  selectOptions: 25,
  buttonLabel: 80,
  /** A form's title, a field's label, and the description under it. */
  formTitle: 45,
  formLabel: 45,
  formLabelDescription: 100,
  /** A text field's or a menu's placeholder, and a menu option's label and value. */
  placeholder: 100,
  optionLabel: 100,
  optionValue: 100,
  /** Rows of components a message holds. */
  actionRows: 5,
  /** The name a webhook's message is posted under (an NPC's). */
  webhookUsername: 80,
} as const;

/** Shortens text to `max` characters, marking the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/** Whether Discord takes this as the name a webhook posts under: 1 to 80 characters, without "discord" or "clyde". */
export function usableWebhookName(name: string): boolean {
  return name.length >= 1 && name.length <= DISCORD_LIMITS.webhookUsername && !/discord|clyde/i.test(name);
}

/** Every message the bot sends carries this unless a ping is the point: user text must never ping anyone. */
export const NO_PINGS = { parse: [] as never[] };
