/**
 * What every view of a contest is drawn from: `ContestView` (the stored state with its timeout, the sides' skills and
 * where it is posted), and the few pieces the other contest views share: a side's short name, links to its messages,
 * an embed field, the colours. It imports none of them, so every one can import it without a circle.
 */
import type { APIEmbedField } from 'discord.js';
import type { SkillEntry } from '../../engine/sheet.js';
import { sideName, type ContestSideName, type ContestState } from '../../engine/systems/tactalk/contest.js';
import { DISCORD_LIMITS, truncate } from '../limits.js';

export const COLOR = { open: 0x2c3e50, won: 0x2e9e5b, tie: 0xd4ac0d, over: 0x7f8c8d } as const;

export interface ContestView {
  id: number;
  state: ContestState;
  expiresAt: Date;
  timeoutMinutes: number;
  /** Each side's skills, for the skill menus (only needed while skills are picked). */
  skills?: Partial<Record<ContestSideName, SkillEntry[]>>;
  /** Where the contest is, for links to its message and to each round's result. */
  where?: { guildId: string; channelId: string; messageId: string | null };
}

/** A discord.com link to a message. */
export function messageLink(guildId: string, channelId: string, messageId: string): string {
  return `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
}

export function linkTo(view: ContestView, messageId: string | null | undefined): string | null {
  return view.where && messageId ? messageLink(view.where.guildId, view.where.channelId, messageId) : null;
}

/** A side by name: its Operator's, or the challenged player's own until they accept (see `sideName`). */
export function shortName(state: ContestState, side: ContestSideName): string {
  return sideName(state, side);
}

export function field(name: string, value: string, inline = false): APIEmbedField {
  return { name: truncate(name, DISCORD_LIMITS.fieldName), value: truncate(value || '—', DISCORD_LIMITS.fieldValue), inline };
}
