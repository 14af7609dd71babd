/** The answer to /roll replay: the stored roll re-derived from its seed, and whether the dice match. */
import { EmbedBuilder } from 'discord.js';
import type { Rederived } from '../engine/replay.js';
import { challengeLines } from './challenge.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';

export interface ReplayFacts {
  rollId: string;
  userId: string;
  createdAt: Date;
  seed: string;
  matches: boolean;
}

export function replayReply(facts: ReplayFacts, rederived: Rederived): ReplyPayload {
  const results = rederived.kind === 'challenge' ? [rederived.result] : rederived.result.results;
  const embed = new EmbedBuilder()
    .setColor(facts.matches ? 0x2e9e5b : 0xc0392b)
    .setTitle(facts.matches ? `🔁 Roll ${facts.rollId}: the dice match` : `⚠️ Roll ${facts.rollId}: the dice do NOT match`)
    .setDescription(
      truncate(
        [
          `Rolled by <@${facts.userId}> <t:${Math.floor(facts.createdAt.getTime() / 1000)}:f>. Re-rolled from its stored seed \`${facts.seed}\` with the same inputs:`,
          facts.matches ? 'Same dice, same result: this roll is exactly what the engine gives for that seed.' : 'The stored dice differ from what the seed gives. Please report this roll id.',
        ].join('\n'),
        DISCORD_LIMITS.embedDescription,
      ),
    );
  results.slice(0, DISCORD_LIMITS.embedFields).forEach((result, index) => {
    embed.addFields({
      name: truncate(`${results.length > 1 ? `${index + 1}. ` : ''}${result.input.skill.name} vs CL ${result.input.challengeLevel}`, DISCORD_LIMITS.fieldName),
      value: truncate(challengeLines(result).join('\n'), DISCORD_LIMITS.fieldValue),
    });
  });
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS };
}
