/**
 * What a submitted form holds, read off the interaction as text, and shown back to its sender when the form is
 * refused: a sent form cannot be reopened as it was, so what was typed must not be lost with the refusal.
 */
import type { BaseInteraction } from 'discord.js';
import { typedBackText, type FormText } from '../views/messages.js';

/** A submitted form's text by field id (empty for anything but a form's submit). */
export function formText(interaction: BaseInteraction): FormText {
  return (id) => {
    if (!interaction.isModalSubmit()) return '';
    const data = interaction.fields.fields.get(id);
    if (!data) return '';
    if ('value' in data && typeof data.value === 'string') return data.value;
    if ('values' in data && Array.isArray(data.values)) return data.values.join(', ');
    return '';
  };
}

/** Everything a refused form held, to end its refusal with; empty for anything but a form's submit. */
export function typedBack(interaction: BaseInteraction): string {
  if (!interaction.isModalSubmit()) return '';
  const text = formText(interaction);
  return typedBackText([...interaction.fields.fields.keys()].map((id) => [id, text(id)] as const));
}
