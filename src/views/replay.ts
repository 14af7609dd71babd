/** The answer to /roll replay: the stored roll re-derived from its seed, and whether the dice match. */
import { EmbedBuilder, type APIEmbedField } from 'discord.js';
import type { Rederived } from '../engine/replay.js';
import { challengeLines } from './challenge.js';
import { contestSideRollText } from './contest.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';
import { outcomeLines } from './tables.js';
import { diceReplayField } from './dice.js';
import { replayFieldsOfCheck, replayFieldsOfScene } from './result-points.js';
import { replayFieldsOfPool } from './d10-pool.js';
import { replayFieldsOfD6 } from './d6-pool.js';
import { replayFieldsOfTactics } from './tactics.js';
import { replayFieldsOfInitiative } from './initiative.js';

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

function fieldsOf(rederived: Rederived): APIEmbedField[] {
  const field = (name: string, value: string, inline = false) => ({
    name: truncate(name, DISCORD_LIMITS.fieldName),
    value: truncate(value, DISCORD_LIMITS.fieldValue),
    inline,
  });
  if (rederived.kind === 'dice') return [diceReplayField(rederived.result)];
  if (rederived.kind === 'contest') {
    const { result } = rederived;
    // The roll keeps no Operator names: each CL is named as the other side's skill, as on the result message.
    const sides = [
      ['Challenger', result.challenger, { roll: result.opponent, name: 'the opponent' }],
      ['Opponent', result.opponent, { roll: result.challenger, name: 'the challenger' }],
    ] as const;
    return [
      ...sides.map(([label, side, against]) => {
        const { skills, dice } = contestSideRollText(side, against);
        return field(`${label} (${side.role}): ${skills}`, dice, true);
      }),
      field('Winner', result.winner === 'tie' ? 'Tie' : result.winner === 'challenger' ? 'The challenger' : 'The opponent'),
    ];
  }
  if (rederived.kind === 'outcome') {
    const { result } = rederived;
    return [field(`${result.input.table.name} (the table as it was rolled)`, outcomeLines(result).join('\n'))];
  }
  if (rederived.kind === 'code') return replayFieldsOfCheck(rederived.result).map(([name, value]) => field(name, value));
  if (rederived.kind === 'code-scene') return replayFieldsOfScene(rederived.result).map(([name, value]) => field(name, value));
  if (rederived.kind === 'd10' || rederived.kind === 'd10-advanced' || rederived.kind === 'd10-extended') {
    return replayFieldsOfPool(rederived).map(([name, value]) => field(name, value));
  }
  if (rederived.kind === 'pool' || rederived.kind === 'pool-opposed' || rederived.kind === 'pool-push' || rederived.kind === 'pool-condition' || rederived.kind === 'pool-tiebreak') {
    return replayFieldsOfD6(rederived).map(([name, value]) => field(name, value));
  }
  if (rederived.kind === 'check' || rederived.kind === 'attack' || rederived.kind === 'damage' || rederived.kind === 'psi' || rederived.kind === 'social' || rederived.kind === 'reaction') {
    return replayFieldsOfTactics(rederived.kind, rederived.result).map(([name, value]) => field(name, value));
  }
  if (rederived.kind === 'code-initiative' || rederived.kind === 'd10-initiative') return replayFieldsOfInitiative(rederived).map(([name, value]) => field(name, value));
  const results = rederived.kind === 'challenge' ? [rederived.result] : rederived.result.results;
  return results.map((result, index) =>
    field(`${results.length > 1 ? `${index + 1}. ` : ''}${result.input.skill.name} vs CL ${result.input.challengeLevel}`, challengeLines(result).join('\n')),
  );
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
