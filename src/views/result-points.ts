/**
 * Die-code checks (RULES 3, seed 002) as embeds: every die, the pips, each helper's dice, the opposition, the result
 * points and the effect roll; the condition tracks of the roller and the target, the button that spends the points;
 * concessions, the end of a scene and action points.
 */
import { ButtonStyle, ComponentType, EmbedBuilder, MessageFlags } from 'discord.js';
import {
  bandMiddle,
  describeOpposition,
  difficultyNamed,
  outcomesAbove,
  pointsToSpend,
  resultPointsDistribution,
  type CodeCheckResult,
} from '../engine/systems/result-points/check.js';
import { formatDieCode, type CodeRoll, type DieCode } from '../engine/systems/result-points/die-code.js';
import { resultPoints } from '../engine/systems/result-points/index.js';
import { RANK_VALUE_MAX, RANK_VALUE_MIN, rankOfValue, type Ability } from '../engine/systems/result-points/abilities.js';
import { sceneNumber, type SceneRecord } from '../engine/systems/result-points/scene.js';
import { OUT_OF_ACTION_AT, trackState, type TrackState } from '../engine/systems/result-points/tracks.js';
import { percentOf } from '../engine/odds.js';
import type { EntryKind } from '../engine/sheet.js';
import { rollFooter } from './challenge.js';
import { rollActionIds } from './component-id.js';
import { escapeMarkdown, signed } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody, ReplyPayload } from './messages.js';
import { replayFieldsOfInitiative } from './initiative.js';
import { defineSystemView, entryNumberAsStored } from './system-view.js';

const COLOR = { success: 0x2e9e5b, failure: 0xc0392b, neutral: 0x7f8c8d } as const;

/** `[4][2][6] + 2 = 14`: every die, then the pips. */
export function formatCodeRoll(roll: CodeRoll): string {
  const dice = roll.dice.map((die) => `[${die}]`).join('');
  return `\`${dice}\`${roll.code.pips === 0 ? '' : ` ${signed(roll.code.pips)}`} = ${roll.total}`;
}

/**
 * `Difficulty **Moderate (13)**: the middle of its band, 11–15`. A check stored when a name meant the top of its band
 * holds that number and says so; a number given outright is shown as itself.
 */
export function difficultyLine(against: { value: number; name: string | null }): string {
  if (against.name === null) return `Difficulty **${against.value}**`;
  const named = `Difficulty **${escapeMarkdown(against.name)} (${against.value})**`;
  const band = difficultyNamed(against.name);
  if (!band) return named;
  const range = `${band.min}–${band.max}`;
  if (against.value === bandMiddle(band)) return `${named}: the middle of its band, ${range}`;
  if (against.value === band.max) return `${named}: the top of its band, ${range}, as a named difficulty was read when this was rolled`;
  return named;
}

/** `3D+2`, or `Blaster 3D+2` for a die code read from an ability of a sheet (the name escaped). */
export function codeLabel(code: DieCode, ability?: string): string {
  return ability ? `${escapeMarkdown(ability)} ${formatDieCode(code)}` : formatDieCode(code);
}

function oppositionLine(result: CodeCheckResult): string | null {
  const { against } = result.input;
  switch (against.kind) {
    case 'standing':
      return null;
    case 'difficulty':
      return difficultyLine(against);
    case 'fixed': {
      const line = against.code
        ? `Fixed resistance ${codeLabel(against.code, against.ability)} = 3 × ${against.code.dice}${against.code.pips === 0 ? '' : ` ${signed(against.code.pips)}`} = **${against.value}**`
        : `Fixed resistance **${against.value}**`;
      return against.conceded === undefined ? line : `${line}: ${escapeMarkdown(against.conceded)} conceded the scene, so resists only with fixed values (nothing rolled)`;
    }
    case 'active':
      return `Opponent rolls ${codeLabel(against.code, against.ability)}: ${formatCodeRoll(result.opponent!)} → **${result.opposition}**`;
  }
}

function pointsLine(result: CodeCheckResult): string {
  const band = result.effectiveness;
  const reading = band ? `**${band.name}** (${band.min}–${band.max === 30 ? '30 and above' : band.max}): ${band.meaning}` : null;
  if (result.opposition === null) {
    return band ? `Result points **${result.resultPoints}** → ${reading}` : `Result points **${result.resultPoints}**: 0 or less, **no effect**`;
  }
  const sum = `Result points ${result.total} − ${result.opposition} = **${result.resultPoints}**`;
  return band ? `${sum} → success, ${reading}` : `${sum}: 0 or less, **failure**`;
}

/** The exact chance the result points are above 0 (success, or for a standing check any effect). */
export function codeCheckChance(result: CodeCheckResult): number {
  const distribution = resultPointsDistribution(result.input);
  return percentOf(outcomesAbove(distribution, 0), distribution.outcomes);
}

/** The lines that explain a check: each roll, the total, the opposition, the result points and the odds. */
export function codeCheckLines(result: CodeCheckResult): string[] {
  const lines = [`🎲 ${codeLabel(result.input.code, result.input.ability)}: ${formatCodeRoll(result.roll)}`];
  result.boosts.forEach((roll) => lines.push(`➕ Boost ${formatDieCode(roll.code)}: ${formatCodeRoll(roll)}`));
  result.penalties.forEach((roll) => lines.push(`➖ Penalty ${formatDieCode(roll.code)}: ${formatCodeRoll(roll)}`));
  if (result.boosts.length + result.penalties.length > 0) {
    const terms = [...result.boosts.map((roll) => signed(roll.total)), ...result.penalties.map((roll) => signed(-roll.total))].join(' ');
    lines.push(`Total ${result.roll.total} ${terms} = **${result.total}**`);
  } else {
    lines.push(`Total **${result.total}**`);
  }
  const opposition = oppositionLine(result);
  if (opposition) lines.push(opposition);
  lines.push(pointsLine(result));
  if (result.input.effect) {
    const effect = formatDieCode(result.input.effect);
    lines.push(result.effect ? `💥 Effect roll ${effect}: ${formatCodeRoll(result.effect)}` : `💥 Effect roll ${effect}: not rolled, the check did not succeed`);
  }
  lines.push(`${result.opposition === null ? 'Chance of an effect' : 'Chance of success'}: ${codeCheckChance(result)}%`);
  return lines;
}

export function codeCheckTitle(result: CodeCheckResult): string {
  const what = `${codeLabel(result.input.code, result.input.ability)}${result.input.against.kind === 'standing' ? '' : ` vs ${escapeMarkdown(describeOpposition(result.input.against))}`}`;
  const band = result.effectiveness?.name;
  if (result.success === null) return `🎲 ${what}: ${band ? `${band} (${result.resultPoints})` : 'no effect'}`;
  return `${result.success ? '✅' : '❌'} ${what}: ${result.success ? `success, ${band}` : 'failure'} (${result.resultPoints} result points)`;
}

/** The characters a check was made by and against, as stored with it: their tracks as they were when it was rolled. */
export interface CodeCheckFacts {
  /** The roller's sheet (their active one, or the NPC a Dispatcher rolled for). */
  roller?: { sheetId: number; name: string; tracks: Array<{ attribute: string; points: number }> };
  /** Whom the check acts against, and the condition track its points go on. */
  target?: { sheetId: number; name: string; track: { attribute: string; points: number } | null };
}

/** The points spent on the target's track, once (stored under an id derived from the check's). */
export interface SpentPoints {
  markerId: string;
  sheet: string;
  track: string;
  amount: number;
  before: number;
  after: number;
}

export interface CodeCheckMessageState {
  who: string;
  rollId: string | null;
  result: CodeCheckResult;
  facts: CodeCheckFacts;
  spent?: SpentPoints;
}

/** `code:spend:<roll id>`: spend a check's points on its target's track. */
export const codeIds = rollActionIds('code', ['spend']);
export type SpendPress = NonNullable<ReturnType<typeof codeIds.parse>>;

/** `Wounds 7 (Adequate)`, `Wounds 27 (Overwhelming): out of action`, `Wounds 0`. */
export function formatTrack(track: TrackState): string {
  const level = track.level ? ` (${track.level.name})` : '';
  return `${escapeMarkdown(track.name)} ${track.points}${level}${track.outOfAction ? ': **out of action**' : ''}`;
}

/** `Wounds 22 → **27** (Overwhelming): **out of action**`. */
export function trackChange(before: number, after: TrackState): string {
  return `${escapeMarkdown(after.name)} ${before} → **${after.points}**${after.level ? ` (${after.level.name})` : ''}${after.outOfAction ? `: **out of action** (${OUT_OF_ACTION_AT} or more)` : ''}`;
}

/** The lines about the characters: the roller's tracks, the target and its track, what was spent on it. */
function characterLines(state: CodeCheckMessageState): string[] {
  const { roller, target } = state.facts;
  const lines: string[] = [];
  if (roller && roller.tracks.length > 0) {
    lines.push(`📋 ${escapeMarkdown(roller.name)}: ${roller.tracks.map((track) => formatTrack(trackState(track.attribute, track.points))).join(' · ')}`);
  }
  if (target) {
    const track = target.track ? trackState(target.track.attribute, target.track.points) : null;
    lines.push(`🎯 Against ${escapeMarkdown(target.name)}${track ? `: ${formatTrack(track)}` : ''}`);
    if (state.spent) {
      const after = trackState(state.spent.track, state.spent.after);
      lines.push(`✅ Spent **${state.spent.amount}** on ${escapeMarkdown(state.spent.sheet)}'s ${trackChange(state.spent.before, after)} · \`${state.spent.markerId}\``);
    } else if (track && pointsToSpend(state.result) === 0) {
      lines.push(`Nothing to spend on ${escapeMarkdown(track.name)}: ${state.result.resultPoints > 0 ? 'the effect roll came to 0 or less' : 'the check did not succeed'}.`);
    }
  }
  return lines;
}

/** The check as posted: with a Spend button while its points can still go on the target's track. */
export function codeCheckMessage(state: CodeCheckMessageState): MessageBody {
  const { result } = state;
  const color = result.success === null ? COLOR.neutral : result.success ? COLOR.success : COLOR.failure;
  const embed = new EmbedBuilder()
    .setColor(color)
    .setTitle(truncate(codeCheckTitle(result), DISCORD_LIMITS.embedTitle))
    .setDescription(truncate([`**${escapeMarkdown(state.who)}**`, ...codeCheckLines(result), ...characterLines(state)].join('\n'), DISCORD_LIMITS.embedDescription))
    .setFooter({ text: rollFooter(state.rollId) });
  const amount = pointsToSpend(result);
  const { target } = state.facts;
  const offer = !state.spent && state.rollId !== null && amount > 0 && target?.track;
  const label = offer ? `Spend ${amount} on ${target.name}'s ${trackState(target.track!.attribute, 0).name}` : '';
  return {
    embeds: [embed.toJSON()],
    components: offer
      ? [{ type: ComponentType.ActionRow, components: [{ type: ComponentType.Button, style: ButtonStyle.Danger, custom_id: codeIds.encode({ action: 'spend', rollId: state.rollId! }), label: truncate(label, DISCORD_LIMITS.buttonLabel) }] }]
      : [],
    allowedMentions: NO_PINGS,
  };
}

/** A character's tracks, action points and whether they conceded: `/code status`. */
export function statusLines(sheet: { name: string; npc: boolean; abilities?: Ability[]; tracks: TrackState[]; actionPoints: number; conceded: boolean }): string[] {
  const lines = [
    ...(sheet.abilities === undefined
      ? []
      : [sheet.abilities.length > 0 ? `Abilities: ${sheet.abilities.map((ability) => codeLabel(ability.code, ability.name)).join(' · ')}` : 'Abilities: *none* (add one with `/code ability`)']),
    sheet.tracks.length > 0 ? `Condition tracks: ${sheet.tracks.map(formatTrack).join(' · ')}` : 'Condition tracks: *none* (add one with `/code track`)',
  ];
  if (!sheet.npc) lines.push(`Action points: **${sheet.actionPoints}**`);
  if (sheet.conceded) lines.push(`**Conceded** the scene: takes no more actions and resists only with fixed values until it ends${sheet.npc ? '' : '; then gains an action point'}.`);
  if (sheet.tracks.some((track) => track.outOfAction)) lines.push(`**Out of action** (a track at ${OUT_OF_ACTION_AT} or more).`);
  return lines;
}

export function statusReply(sheet: Parameters<typeof statusLines>[0], share: boolean): ReplyPayload {
  const embed = new EmbedBuilder()
    .setColor(COLOR.neutral)
    .setTitle(truncate(`📋 ${escapeMarkdown(sheet.name)}${sheet.npc ? ' (NPC)' : ''}`, DISCORD_LIMITS.embedTitle))
    .setDescription(truncate(statusLines(sheet).join('\n'), DISCORD_LIMITS.embedDescription));
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS, ...(share ? {} : { flags: MessageFlags.Ephemeral }) };
}

/** What the end of a scene did for each character who conceded in it. */
export type SceneEndLine =
  | { kind: 'action-point'; sheet: string; before: number; after: number }
  | { kind: 'npc'; sheet: string }
  | { kind: 'already'; sheet: string }
  | { kind: 'gone'; sheet: string };

export function sceneEndReply(scene: number, lines: SceneEndLine[]): ReplyPayload {
  const described = lines.map((line) => {
    const name = `**${escapeMarkdown(line.sheet)}**`;
    if (line.kind === 'action-point') return `${name} conceded: action points ${line.before} → **${line.after}**`;
    if (line.kind === 'npc') return `${name} (NPC) conceded`;
    if (line.kind === 'already') return `${name} conceded: the action point was already given`;
    return `${name} conceded, but the sheet no longer exists: no action point`;
  });
  const embed = new EmbedBuilder()
    .setColor(COLOR.neutral)
    .setTitle(`🎬 Scene ${sceneNumber(scene)} of this channel ends`)
    .setDescription(
      truncate(
        [
          described.length > 0 ? described.join('\n') : 'Nobody conceded.',
          `Everyone may act again. Scene ${sceneNumber(scene + 1)} begins.`,
        ].join('\n'),
        DISCORD_LIMITS.embedDescription,
      ),
    );
  return { embeds: [embed.toJSON()], allowedMentions: NO_PINGS };
}

/** A record of a scene replayed: what was recorded, no dice. */
export function replayFieldsOfScene(record: SceneRecord): Array<[string, string]> {
  const scene = `Scene ${sceneNumber(record.scene)} of <#${record.channelId}>`;
  if (record.event === 'concede') return [[`${scene}: a concession`, `${escapeMarkdown(record.sheet)} conceded${record.playerId === null ? ' (NPC)' : ''}. No dice.`]];
  if (record.event === 'end') return [[`${scene}: its end`, 'A Dispatcher ended the scene. No dice.']];
  return [[`${scene}: an action point`, `${escapeMarkdown(record.sheet)}: action points ${record.before} → ${record.after} for conceding. No dice.`]];
}

/** A replayed check, as [name, value] fields for the replay embed. */
export function replayFieldsOfCheck(result: CodeCheckResult): Array<[string, string]> {
  return [[codeCheckTitle(result), codeCheckLines(result).join('\n')]];
}

/** An ability on /sheet show: its rank as the player typed it, its fixed value beside it (**3D+2** (11)); others as stored. */
export function entryNumberOfCode(kind: EntryKind, value: number): string {
  if (kind === 'skill' && Number.isInteger(value) && value >= RANK_VALUE_MIN && value <= RANK_VALUE_MAX) return `**${formatDieCode(rankOfValue(value))}** (${value})`;
  return entryNumberAsStored(kind, value);
}

export const resultPointsView = defineSystemView(resultPoints, {
  start: {
    sheet: [{ what: 'Give it an ability (its rank as a die code)', command: '/code ability name:Blaster code:3D+2' }],
    roll: '/code roll code:Blaster difficulty:moderate',
  },
  entryNumber: entryNumberOfCode,
  replay: {
    code: ({ result }) => replayFieldsOfCheck(result),
    'code-scene': ({ result }) => replayFieldsOfScene(result),
    'code-initiative': replayFieldsOfInitiative,
  },
});
