/** The answer to /roll replay: the stored roll re-derived from its seed, and whether the dice match. */
import { EmbedBuilder, type APIEmbedField } from 'discord.js';
import type { Rederived } from '../engine/replay.js';
import { diceReplayField } from './dice.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';
import type { Fields, ReplayFields } from './system-view.js';
import { SYSTEM_VIEWS } from './systems.js';
import { outcomeLines } from './tables.js';

export interface ReplayFacts {
  rollId: string;
  userId: string;
  createdAt: Date;
  seed: string;
  matches: boolean;
  /** The Outcome Roll a failed challenge's consequence led to, once made (rolls from before it: none). */
  consequenceRollId?: string | null;
}

/** The challenge roll an Outcome Roll was the consequence of (stored in its inputs as `after`; older rolls have none). */
function challengeRollBefore(rederived: Rederived): string | null {
  if (rederived.kind !== 'outcome') return null;
  const after = (rederived.result.input as { after?: unknown }).after;
  return typeof after === 'string' ? after : null;
}

/** How this roll is tied to another: an Outcome Roll to the challenge it followed, a challenge to its consequence. */
function linkLines(facts: ReplayFacts, rederived: Rederived | null): string[] {
  const before = rederived ? challengeRollBefore(rederived) : null;
  return [
    ...(before ? [`The consequence of failing challenge roll \`${before}\`: replay it with \`/roll replay id:${before}\`.`] : []),
    ...(facts.consequenceRollId ? [`Its failure led to the Outcome Roll \`${facts.consequenceRollId}\`.`] : []),
  ];
}

/**
 * What each kind of roll shows when replayed: the kinds of no system here, each system's in its view
 * (src/views/<system>.ts); a kind without an entry fails the type check.
 */
const REPLAY_FIELDS: ReplayFields<Rederived> = {
  dice: (rederived) => {
    const { name, value } = diceReplayField(rederived.result);
    return [[name, value]];
  },
  outcome: ({ result }) => [[`${result.input.table.name} (the table as it was rolled)`, outcomeLines(result).join('\n')]],
  ...SYSTEM_VIEWS.replay,
};

function fieldsOf(rederived: Rederived): APIEmbedField[] {
  // Each entry takes only its own kind's roll, which is this one's.
  const fieldsOfKind = REPLAY_FIELDS[rederived.kind] as (rederived: Rederived) => Fields;
  return fieldsOfKind(rederived).map(([name, value, inline = false]) => ({ name: truncate(name, DISCORD_LIMITS.fieldName), value: truncate(value, DISCORD_LIMITS.fieldValue), inline }));
}

export function replayReply(facts: ReplayFacts, rederived: Rederived): ReplyPayload {
  const embed = new EmbedBuilder()
    .setColor(facts.matches ? 0x2e9e5b : 0xc0392b)
    .setTitle(facts.matches ? `🔁 Roll ${facts.rollId}: the dice match` : `⚠️ Roll ${facts.rollId}: the dice do NOT match`)
    .setDescription(
      [
        `Rolled by <@${facts.userId}> <t:${Math.floor(facts.createdAt.getTime() / 1000)}:f>. Re-rolled from its stored seed \`${facts.seed}\` with the same inputs:`,
        facts.matches ? 'Same dice, same result: this roll is exactly what the engine gives for that seed.' : 'The stored dice differ from what the seed gives. Please report this roll id.',
        ...linkLines(facts, rederived),
      ].join('\n'),
    )
    .addFields(fieldsOf(rederived).slice(0, DISCORD_LIMITS.embedFields));
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS };
}

/** A roll against a hidden CL replayed for a player: whether the dice match, and not one number. */
export function hiddenReplayReply(facts: ReplayFacts): ReplyPayload {
  const embed = new EmbedBuilder()
    .setColor(facts.matches ? 0x2e9e5b : 0xc0392b)
    .setTitle(facts.matches ? `🔁 Roll ${facts.rollId}: the dice match` : `⚠️ Roll ${facts.rollId}: the dice do NOT match`)
    .setDescription(
      [
        `Rolled by <@${facts.userId}> <t:${Math.floor(facts.createdAt.getTime() / 1000)}:f> against a hidden Challenge Level. Its seed gives the stored dice${facts.matches ? '' : ' NOT'}; only a Dispatcher can see the numbers.`,
        ...linkLines(facts, null),
      ].join('\n'),
    );
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS };
}
