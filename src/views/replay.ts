/** The answer to /roll replay: the stored roll re-derived from its seed, and whether the dice match. */
import { EmbedBuilder, type APIEmbedField } from 'discord.js';
import type { Rederived } from '../engine/replay.js';
import type { ChallengeResult } from '../engine/systems/tactalk/challenge.js';
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

type Fields = Array<[name: string, value: string, inline?: boolean]>;
/** What a stored roll re-derives as: points spent and applied attacks replay as the check and the attack they came from. */
type ReplayedKind = Rederived['kind'];
type FieldsOf<K extends ReplayedKind> = (rederived: Extract<Rederived, { kind: K }>) => Fields;

function challengeFields(results: readonly ChallengeResult[]): Fields {
  return results.map((result, index) => [`${results.length > 1 ? `${index + 1}. ` : ''}${result.input.skill.name} vs CL ${result.input.challengeLevel}`, challengeLines(result).join('\n')]);
}

function contestFields({ result, names, bothFail }: Extract<Rederived, { kind: 'contest' }>): Fields {
  // Rounds rolled since issue 23 keep the Operators' names; older ones name each side by its part in the contest.
  const name = { challenger: names?.challenger ?? 'the challenger', opponent: names?.opponent ?? 'the opponent' };
  const title = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  const sides = [
    [title(name.challenger), result.challenger, { roll: result.opponent, name: name.opponent }],
    [title(name.opponent), result.opponent, { roll: result.challenger, name: name.challenger }],
  ] as const;
  const bothFailed = !result.challenger.success && !result.opponent.success;
  const winner =
    result.winner === 'tie'
      ? 'Tie'
      : result.winner === 'nobody'
        ? 'Nobody: both failed, nothing changes'
        : `${title(name[result.winner])}${bothFailed && bothFail === 'defender' ? ' (the defender: when this round was rolled, both failing went to the defender)' : ''}`;
  return [
    ...sides.map(([label, side, against]): [string, string, boolean] => {
      const { skills, dice } = contestSideRollText(side, against);
      return [`${label} (${side.role}): ${skills}`, dice, true];
    }),
    ['Winner', winner],
  ];
}

/** What each kind of roll shows when replayed, next to the view that shows it when rolled; a new kind must be added here. */
const REPLAY_FIELDS: { [K in ReplayedKind]: FieldsOf<K> } = {
  dice: (rederived) => {
    const { name, value } = diceReplayField(rederived.result);
    return [[name, value]];
  },
  outcome: ({ result }) => [[`${result.input.table.name} (the table as it was rolled)`, outcomeLines(result).join('\n')]],
  challenge: ({ result }) => challengeFields([result]),
  linked: ({ result }) => challengeFields(result.results),
  contest: contestFields,
  code: ({ result }) => replayFieldsOfCheck(result),
  'code-scene': ({ result }) => replayFieldsOfScene(result),
  'code-initiative': replayFieldsOfInitiative,
  'd10-initiative': replayFieldsOfInitiative,
  d10: replayFieldsOfPool,
  'd10-advanced': replayFieldsOfPool,
  'd10-extended': replayFieldsOfPool,
  pool: replayFieldsOfD6,
  'pool-opposed': replayFieldsOfD6,
  'pool-push': replayFieldsOfD6,
  'pool-condition': replayFieldsOfD6,
  'pool-tiebreak': replayFieldsOfD6,
  check: ({ kind, result }) => replayFieldsOfTactics(kind, result),
  attack: ({ kind, result }) => replayFieldsOfTactics(kind, result),
  damage: ({ kind, result }) => replayFieldsOfTactics(kind, result),
  psi: ({ kind, result }) => replayFieldsOfTactics(kind, result),
  social: ({ kind, result }) => replayFieldsOfTactics(kind, result),
  reaction: ({ kind, result }) => replayFieldsOfTactics(kind, result),
};

function fieldsOf(rederived: Rederived): APIEmbedField[] {
  const fieldsOfKind = REPLAY_FIELDS[rederived.kind] as FieldsOf<ReplayedKind>;
  return fieldsOfKind(rederived as never).map(([name, value, inline = false]) => ({ name: truncate(name, DISCORD_LIMITS.fieldName), value: truncate(value, DISCORD_LIMITS.fieldValue), inline }));
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
