// What tests read in the bot's text and build as its input: Markdown still live after escapes, a sheet to show.
import type { OperatorSheet } from '../../src/engine/sheet.js';

/** The Markdown Discord would still read in `text` once its escapes (a backslash and the character after) are set aside. */
export function liveMarkdown(text: string): string[] {
  const bare = text.replace(/\\[\s\S]/g, '');
  const found: string[] = [];
  if (bare.includes('`')) found.push('code');
  if (/^\s*#/m.test(bare)) found.push('heading');
  if (/^\s*>/m.test(bare)) found.push('quote');
  if (/^\s*([-+*]|\d+\.)\s/m.test(bare)) found.push('list');
  if (bare.includes('](')) found.push('link');
  return found;
}

/** Mike's sheet Troy on server g, empty but for what the test gives it. */
export function troySheet(contents: Partial<OperatorSheet> = {}): OperatorSheet {
  return { id: 1, guildId: 'g', ownerId: 'mike', name: 'Troy', system: 'tactalk', active: true, notes: '', skills: [], archetypes: [], conditions: [], attributes: [], ...contents };
}
