/**
 * /code: die codes and result points (RULES 3, seed 002). Quick checks with the effect roll that follows a success,
 * the points spent on a target's condition track (a button, the roller's, once), conceding a scene (fixed
 * resistance only, an action point when a Dispatcher ends it) and spending action points.
 */
import type { AutocompleteInteraction, ButtonInteraction, ChatInputCommandInteraction } from 'discord.js';
import { defineCommand, rolledBy, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { answerFromStore } from '../src/discord/stored-message.js';
import { answerAsNpc, asNpcRoller } from '../src/discord/npc-voice.js';
import { UserError } from '../src/errors.js';
import { nameKey } from '../src/engine/names.js';
import { seededRng } from '../src/engine/rng.js';
import { isNpc, validName, type OperatorSheet } from '../src/engine/sheet.js';
import {
  bandMiddle,
  codeCheckDice,
  concededResistance,
  DIFFICULTIES,
  oppositionFrom,
  pointsToSpend,
  resolveCodeCheck,
  validateCodeCheck,
  type CodeCheckInput,
  type CodeCheckResult,
} from '../src/engine/systems/result-points/check.js';
import { fixedResistance, formatDieCode, parseDieCode, parseDieCodeList } from '../src/engine/systems/result-points/die-code.js';
import {
  abilitiesOf,
  dieCodeOrAbility,
  looksLikeDieCode,
  RANK_VALUE_MAX,
  RANK_VALUE_MIN,
  rankOfValue,
  valueOfRank,
} from '../src/engine/systems/result-points/abilities.js';
import { currentScene, SCENE_CONCESSIONS_MAX, SCENE_LABELS, sceneKey, sceneNumber, type SceneRecord } from '../src/engine/systems/result-points/scene.js';
import {
  ACTION_POINTS,
  actionPointsOf,
  addToTrack,
  CONCEDED,
  concededCondition,
  findTrack,
  isConceded,
  requireMayAct,
  trackAttributeName,
  trackName,
  tracksOf,
  TRACK_MAX,
  trackState,
} from '../src/engine/systems/result-points/tracks.js';
import type { SystemId } from '../src/engine/systems/index.js';
import { npcOwner } from '../src/store/operators.js';
import { derivedRollId } from '../src/store/rolls.js';
import { nameChoices, noSheetChoice } from '../src/views/autocomplete.js';
import { escapeMarkdown } from '../src/views/format.js';
import { DISCORD_LIMITS } from '../src/views/limits.js';
import { privateNote, publicNote } from '../src/views/messages.js';
import {
  codeCheckMessage,
  formatTrack,
  sceneEndReply,
  trackChange,
  codeIds,
  type SpendPress,
  statusReply,
  type CodeCheckFacts,
  type SceneEndLine,
} from '../src/views/result-points.js';
import { npcNameChoices } from './npc.js';
import { changeAttributeOnce } from './shared/roll-markers.js';
import { npcNamed, rollerSheet, targetSheet } from './shared/roll-sheets.js';

export const RESULT_POINTS_SYSTEM: SystemId = 'result-points';
/** The roll log entry that marks a check's points as spent on a track (once, under an id derived from the check's). */
export const SPENT_KIND = 'code-spend';
/** The roll log entries of a scene: a concession, its end, an action point granted (no dice). */
export const SCENE_KIND = 'code-scene';
const REASON_MAX = 100;
/** A die code, or the name of an ability (a sheet entry's name: at most 64 characters). */
const NAME_MAX = 64;

/** The sheets a check reads abilities from: the roller's (for `code`) and the target's (for `resistance` and `opponent`). */
export interface CheckSheets {
  roller?: OperatorSheet | null;
  target?: OperatorSheet | null;
}

/**
 * The check the options describe; every problem is a UserError naming the option. `code` is a die code or an
 * ability of the roller's sheet; `resistance` and `opponent` a die code or an ability of the target's sheet.
 */
export function codeCheckFromOptions(
  options: {
    code: string;
    difficulty?: string | null;
    resistance?: string | null;
    opponent?: string | null;
    boost?: string | null;
    penalty?: string | null;
    effect?: string | null;
  },
  sheets: CheckSheets = {},
): CodeCheckInput {
  const noRollerSheet = (name: string, notACode: string): never => {
    throw new UserError(
      `${notACode} Nor is **${escapeMarkdown(name.slice(0, NAME_MAX))}** an ability: you have no die-code sheet to read one from. ` +
        'Make one with `/sheet create name:… system:Die codes and result points`, then give it the ability with `/code ability`.',
    );
  };
  const noTarget = (name: string, notACode: string): never => {
    throw new UserError(`${notACode} To resist with an ability (**${escapeMarkdown(name.slice(0, NAME_MAX))}**), name whose it is: \`target\` (a member) or \`target_npc\` (Dispatchers, an NPC).`);
  };
  const rolled = dieCodeOrAbility(options.code, sheets.roller ?? null, 'die code', noRollerSheet);
  const input: CodeCheckInput = {
    code: rolled.code,
    ...(rolled.ability ? { ability: rolled.ability } : {}),
    boost: parseDieCodeList(options.boost, 'boost'),
    penalty: parseDieCodeList(options.penalty, 'penalty'),
    against: oppositionFrom(options, (text, what) => dieCodeOrAbility(text, sheets.target ?? null, what, noTarget)),
  };
  if (options.effect !== null && options.effect !== undefined && options.effect.trim() !== '') input.effect = parseDieCode(options.effect, 'effect roll');
  validateCodeCheck(input);
  return input;
}

/** A check as the roll log stores its inputs: the engine's input and the characters' facts beside it. */
type StoredCheckInputs = CodeCheckInput & CodeCheckFacts;

/** The sheet a track or status subcommand reads or changes: yours, or (Dispatchers only) a player's or an NPC's. */
async function characterSheet(interaction: ChatInputCommandInteraction, context: HandlerContext, action: string): Promise<OperatorSheet> {
  const player = interaction.options.getUser('player');
  const npc = interaction.options.getString('npc');
  if (player && npc !== null) throw new UserError('Name one character: `player` or `npc`, not both.');
  if (npc !== null) {
    await context.requireDispatcher(`${action} an NPC`);
    return context.store.operators.byNameOrActive(npcOwner(context.guildId), npc, RESULT_POINTS_SYSTEM);
  }
  if (!player || player.id === context.userId) return context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, RESULT_POINTS_SYSTEM);
  await context.requireDispatcher(`${action} another player`);
  return context.store.operators.requireActive({ guildId: context.guildId, ownerId: player.id }, RESULT_POINTS_SYSTEM, { someoneElse: `<@${player.id}>` });
}

const trackSnapshot = (sheet: OperatorSheet) => tracksOf(sheet).map((track) => ({ attribute: track.attribute, points: track.points }));

async function roll(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const roller = await rollerSheet(interaction, context, { system: RESULT_POINTS_SYSTEM }, 'optional');
  if (roller) requireMayAct(roller);
  const target = await targetSheet(interaction, context, { system: RESULT_POINTS_SYSTEM });
  // Read after the sheets: an ability named in `code` is the roller's, in `resistance` or `opponent` the target's.
  const input = codeCheckFromOptions(
    {
      code: interaction.options.getString('code', true),
      difficulty: interaction.options.getString('difficulty'),
      resistance: interaction.options.getString('resistance'),
      opponent: interaction.options.getString('opponent'),
      boost: interaction.options.getString('boost'),
      penalty: interaction.options.getString('penalty'),
      effect: interaction.options.getString('effect'),
    },
    { roller, target },
  );
  const typedTrack = interaction.options.getString('track');
  const facts: CodeCheckFacts = {};
  if (roller) facts.roller = { sheetId: roller.id, name: roller.name, tracks: trackSnapshot(roller) };
  if (typedTrack !== null && !target) {
    throw new UserError('`track` is a condition track of the one you act against: name them too, with `target` (a member) or `target_npc` (Dispatchers, an NPC).');
  }
  if (target) {
    const track = typedTrack === null ? null : findTrack(target, typedTrack);
    if (typedTrack !== null && !track) {
      const name = trackName(trackAttributeName(typedTrack));
      throw new UserError(
        `${escapeMarkdown(target.name)} has no ${escapeMarkdown(name)} track. Add it first: \`/code track name:${name}\` (by its player, or a Dispatcher with \`player\` or \`npc\`). Nothing was rolled.`,
      );
    }
    facts.target = { sheetId: target.id, name: target.name, track: track ? { attribute: track.attribute, points: track.points } : null };
    // Seed 002: "If a character acts against an opponent who has conceded, that opponent can only use fixed resistance values."
    if (isConceded(target)) input.against = concededResistance(input.against, target.name);
  }
  const seed = context.newSeed();
  const result = resolveCodeCheck(input, seededRng(seed));
  const inputs: StoredCheckInputs = { ...input, ...facts };
  const npc = interaction.options.getString('as_npc') !== null && roller ? { npc: roller.name } : {};
  const rollId = await context.store.rolls.record({
    ...rolledBy(context),
    kind: 'code',
    system: RESULT_POINTS_SYSTEM,
    inputs,
    seed,
    dice: codeCheckDice(result),
    result,
    total: result.total,
    challengeLevel: result.opposition,
    success: result.success,
    ...npc,
  });
  await answerAsNpc(interaction, context, asNpcRoller(interaction, roller), codeCheckMessage({ who: roller?.name ?? interaction.user.displayName, rollId, result, facts }));
}

/**
 * `code:spend:<check's roll id>`: the roller puts the check's points on the target's condition track, once. The
 * track is raised from the value stored when the change is made (two checks at once both count), and the marker,
 * under an id derived from the check's, lands in the same transaction: a second press, even a simultaneous one or
 * after a restart, finds it taken and changes nothing.
 */
async function spend(interaction: ButtonInteraction, context: HandlerContext, rollId: string): Promise<void> {
  const stored = await context.store.rolls.find(context.guildId, rollId);
  if (!stored || stored.kind !== 'code') throw new UserError('That check is not stored on this server, so its points cannot be spent.');
  if (stored.userId !== context.userId) {
    await context.answer.reply(privateNote(`Only <@${stored.userId}>, who rolled this check, can spend its points. Nothing was changed.`));
    return;
  }
  const result = stored.result as CodeCheckResult;
  const facts = stored.inputs as StoredCheckInputs;
  const markerId = derivedRollId(rollId, 'spend');
  const who = facts.roller?.name ?? interaction.user.displayName;
  // Spent already (perhaps by a press whose answer was lost): the message shows it, as the marker recorded it.
  const already = async () => {
    const marker = await context.store.rolls.find(context.guildId, markerId);
    const spent = (marker?.inputs as { spent?: { sheet: string; track: string; amount: number; before: number; after: number } } | undefined)?.spent;
    const payload = spent ? codeCheckMessage({ who, rollId, result, facts, spent: { markerId, ...spent } }) : { components: [] };
    await answerFromStore(interaction, context, payload, `This check's points were already spent (\`${markerId}\`). Nothing was changed.`);
  };
  if (await context.store.rolls.find(context.guildId, markerId)) return void (await already());
  const amount = pointsToSpend(result);
  const target = facts.target;
  if (amount <= 0 || !target?.track) throw new UserError('This check has no points to spend on a track.');
  const sheet = await context.store.operators.get(context.guildId, target.sheetId);
  if (!sheet) throw new UserError(`The sheet of ${escapeMarkdown(target.name)} no longer exists. Nothing was changed.`);
  const gone = `${escapeMarkdown(sheet.name)} no longer has the ${escapeMarkdown(trackName(target.track.attribute))} track. Nothing was changed.`;
  const track = findTrack(sheet, target.track.attribute);
  if (!track) throw new UserError(gone);
  const changed = await changeAttributeOnce(context, stored, sheet, track.attribute, (points) => addToTrack(points, amount), {
    id: markerId,
    kind: SPENT_KIND,
    system: RESULT_POINTS_SYSTEM,
    inputs: ({ before, after }) => ({ ...facts, spent: { checkId: rollId, sheetId: sheet.id, sheet: sheet.name, track: track.attribute, amount, before, after } }),
  });
  if (changed === 'already made') return void (await already());
  if (changed === null) throw new UserError(gone);
  await context.answer.update(
    codeCheckMessage({
      who,
      rollId,
      result,
      facts,
      spent: { markerId, sheet: sheet.name, track: changed.name, amount, before: changed.before, after: changed.after },
    }),
  );
}

/**
 * `/code ability`: an ability's rank on the character's sheet, given as a die code and kept as its fixed value
 * (3D+2 → 11, the seed's rank table read the other way), so `/code roll code:<ability>` rolls it.
 */
async function setAbility(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const name = validName('ability', interaction.options.getString('name', true));
  const code = parseDieCode(interaction.options.getString('code', true), 'rank');
  const value = valueOfRank(code);
  const sheet = await characterSheet(interaction, context, 'change the abilities of');
  const before = await context.store.operators.setSkill(sheet, name, value);
  const who = `**${escapeMarkdown(sheet.name)}**`;
  const rank = `**${formatDieCode(code)}** (kept as its fixed value, ${value})`;
  const was = before === null ? null : before >= RANK_VALUE_MIN && before <= RANK_VALUE_MAX ? formatDieCode(rankOfValue(before)) : String(before);
  await context.answer.reply(privateNote(was === null ? `${who} now has **${escapeMarkdown(name)}** ${rank}.` : `${who}: **${escapeMarkdown(name)}** ${was} → ${rank}.`));
}

/** A character's condition track: added at 0, shown, or set (recovering, or a Dispatcher's ruling). */
async function track(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const typed = interaction.options.getString('name', true);
  const attribute = trackAttributeName(typed);
  const points = interaction.options.getInteger('points');
  const sheet = await characterSheet(interaction, context, 'change the tracks of');
  const existing = findTrack(sheet, typed);
  const who = `**${escapeMarkdown(sheet.name)}**`;
  if (points === null && existing) {
    await context.answer.reply(publicNote(`${who}: ${formatTrack(existing)}.`));
    return;
  }
  const now = trackState(existing?.attribute ?? attribute, points ?? 0);
  await context.store.operators.setAttribute(sheet, now.attribute, now.points);
  await context.answer.reply(publicNote(existing ? `${who}: ${trackChange(existing.points, now)}.` : `${who} now has a ${escapeMarkdown(now.name)} track: ${formatTrack(now)}.`));
}

async function status(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await characterSheet(interaction, context, 'look at');
  await context.answer.reply(
    statusReply(
      { name: sheet.name, npc: isNpc(sheet), abilities: abilitiesOf(sheet), tracks: tracksOf(sheet), actionPoints: actionPointsOf(sheet), conceded: isConceded(sheet) },
      interaction.options.getBoolean('share') ?? false,
    ),
  );
}

// ---- scenes: conceding and the scene's end -------------------------------------------------------------------

const sceneId = (context: HandlerContext, scene: number, label: string) => derivedRollId(sceneKey(context.guildId, context.channelId, scene), label);

async function sceneEnded(context: HandlerContext, scene: number): Promise<boolean> {
  return (await context.store.rolls.find(context.guildId, sceneId(context, scene, SCENE_LABELS.end))) !== null;
}

function sceneRoll(context: HandlerContext, record: SceneRecord) {
  return { ...rolledBy(context), kind: SCENE_KIND, system: RESULT_POINTS_SYSTEM, inputs: record, seed: 'none', dice: [], result: record, total: null, challengeLevel: null, success: null };
}

/**
 * What the end of a scene does for one concession: the player's action point (once, under an id derived from the
 * scene and the sheet, written with the new count), and the Conceded condition removed.
 */
async function settle(context: HandlerContext, record: SceneRecord & { event: 'concede' }): Promise<SceneEndLine> {
  const sheet = await context.store.operators.get(context.guildId, record.sheetId);
  if (!sheet) return { kind: 'gone', sheet: record.sheet };
  let line: SceneEndLine = { kind: 'npc', sheet: sheet.name };
  if (record.playerId !== null) {
    const markerId = sceneId(context, record.scene, SCENE_LABELS.actionPoint(sheet.id));
    const grant = () =>
      context.store.operators.changeAttribute(
        sheet,
        ACTION_POINTS,
        (points) => Math.min(TRACK_MAX, points + 1),
        ({ before, after }) =>
          context.store.rolls.entry(
            markerId,
            sceneRoll(context, { event: 'action-point', scene: record.scene, channelId: record.channelId, sheetId: sheet.id, sheet: sheet.name, before, after }),
          ),
      );
    let granted = await grant();
    // The attribute is added when the player concedes; someone removed it since.
    if (granted === null) {
      await context.store.operators.setAttribute(sheet, ACTION_POINTS, 0);
      granted = await grant();
    }
    line = granted === 'already made' || granted === null ? { kind: 'already', sheet: sheet.name } : { kind: 'action-point', sheet: sheet.name, before: granted.before, after: granted.after };
  }
  await context.store.operators.remove('condition', sheet, CONCEDED);
  return line;
}

/**
 * `/code concede`: the character concedes this channel's scene. The concession takes the scene's first free slot
 * (written once: two at once take two slots), so the scene's end finds every one.
 */
async function concede(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const npc = interaction.options.getString('npc');
  let sheet: OperatorSheet;
  if (npc !== null) {
    await context.requireDispatcher('concede for an NPC');
    sheet = await context.store.operators.byNameOrActive(npcOwner(context.guildId), npc, RESULT_POINTS_SYSTEM);
  } else {
    sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, RESULT_POINTS_SYSTEM);
  }
  const name = `**${escapeMarkdown(sheet.name)}**`;
  if (isConceded(sheet)) throw new UserError(`${name} has already conceded; a Dispatcher ends the scene with \`/code scene-end\`. Nothing was changed.`);
  const scene = await currentScene((n) => sceneEnded(context, n));
  const playerId = isNpc(sheet) ? null : sheet.ownerId;
  // The action point's attribute is there before the concession is written, so its end only ever adds to it.
  if (playerId !== null && !sheet.attributes.some((entry) => nameKey(entry.name) === nameKey(ACTION_POINTS))) {
    await context.store.operators.setAttribute(sheet, ACTION_POINTS, 0);
  }
  const record: SceneRecord & { event: 'concede' } = { event: 'concede', scene, channelId: context.channelId, sheetId: sheet.id, sheet: sheet.name, playerId };
  let slot = 0;
  while (slot < SCENE_CONCESSIONS_MAX) {
    const id = sceneId(context, scene, SCENE_LABELS.concession(slot));
    const taken = await context.store.rolls.find(context.guildId, id);
    if (taken) {
      if ((taken.inputs as SceneRecord & { event: 'concede' }).sheetId === sheet.id) throw new UserError(`${name} has already conceded this scene. Nothing was changed.`);
      slot++;
      continue;
    }
    // Taken meanwhile by another concession: the loop reads this slot again.
    if (await context.store.rolls.recordOnce(id, sceneRoll(context, record))) break;
  }
  if (slot >= SCENE_CONCESSIONS_MAX) throw new UserError(`This scene already has ${SCENE_CONCESSIONS_MAX} concessions, the most it holds. A Dispatcher ends it with \`/code scene-end\`.`);
  await context.store.operators.setCondition(sheet, concededCondition(), context.now());
  const terms = `takes no more actions in it and resists only with fixed values${playerId === null ? '' : '; an action point comes when a Dispatcher ends the scene'}`;
  // A Dispatcher ended the scene while this was written: its end may not have seen it, so it is settled here (once).
  if (await sceneEnded(context, scene)) {
    const line = await settle(context, record);
    const point = line.kind === 'action-point' ? ` Action points ${line.before} → **${line.after}**.` : '';
    await context.answer.reply(publicNote(`🏳️ ${name} conceded as scene ${sceneNumber(scene)} ended.${point}`));
    return;
  }
  await context.answer.reply(publicNote(`🏳️ ${name} concedes scene ${sceneNumber(scene)} of this channel: ${terms}.`));
}

/** `/code scene-end`: a Dispatcher ends this channel's scene (once); every concession in it is settled. */
async function sceneEnd(_interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const scene = await currentScene((n) => sceneEnded(context, n));
  const ended = await context.store.rolls.recordOnce(sceneId(context, scene, SCENE_LABELS.end), sceneRoll(context, { event: 'end', scene, channelId: context.channelId }));
  if (!ended) throw new UserError(`Scene ${sceneNumber(scene)} of this channel was just ended by someone else. Nothing more was changed.`);
  const lines: SceneEndLine[] = [];
  for (let slot = 0; slot < SCENE_CONCESSIONS_MAX; slot++) {
    const taken = await context.store.rolls.find(context.guildId, sceneId(context, scene, SCENE_LABELS.concession(slot)));
    if (!taken) break;
    lines.push(await settle(context, taken.inputs as SceneRecord & { event: 'concede' }));
  }
  await context.answer.reply(sceneEndReply(scene, lines));
}

/** `/code action-point`: the player spends one; never below 0. What it buys is the table's call (the seed says not). */
async function spendActionPoint(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, RESULT_POINTS_SYSTEM);
  const reason = interaction.options.getString('reason')?.trim().slice(0, REASON_MAX) ?? '';
  const name = `**${escapeMarkdown(sheet.name)}**`;
  const none = `${name} has no action points. A player earns one by conceding a scene (\`/code concede\`).`;
  const changed = await context.store.operators.changeAttribute(sheet, ACTION_POINTS, (points) => {
    if (points <= 0) throw new UserError(none);
    return points - 1;
  });
  if (changed === null || changed === 'already made') throw new UserError(none);
  await context.answer.reply(publicNote(`⚡ ${name} spends an action point${reason ? `: ${escapeMarkdown(reason)}` : ''}. Action points ${changed.before} → **${changed.after}**.`));
}

async function component(interaction: ComponentInteraction, press: SpendPress, context: HandlerContext): Promise<void> {
  if (!interaction.isButton()) throw new UserError('This button is not one the bot made.');
  return spend(interaction, context, press.rollId);
}

/** The tracks of the sheet an autocomplete's options name: the target's for `roll`, the character's for `track`. */
async function sheetForTracks(interaction: AutocompleteInteraction, context: HandlerContext): Promise<OperatorSheet | null> {
  const npc = interaction.options.getString(interaction.options.getSubcommand() === 'roll' ? 'target_npc' : 'npc');
  if (npc) {
    if (!(await context.isDispatcher())) return null;
    return npcNamed(context, npc, RESULT_POINTS_SYSTEM);
  }
  const user = interaction.options.get(interaction.options.getSubcommand() === 'roll' ? 'target' : 'player')?.value;
  const ownerId = typeof user === 'string' ? user : context.userId;
  if (ownerId !== context.userId && interaction.options.getSubcommand() !== 'roll' && !(await context.isDispatcher())) return null;
  return context.store.operators.active({ guildId: context.guildId, ownerId }, RESULT_POINTS_SYSTEM);
}

/**
 * `code`: the roller's abilities (their active sheet, or the NPC a Dispatcher rolls for); `resistance` and
 * `opponent`: the target's (a member's active sheet, or a Dispatcher's NPC). A die code (or a resistance's value)
 * typed is offered as itself; a player without a die-code sheet is told how to make one.
 */
async function abilityChoices(interaction: AutocompleteInteraction, context: HandlerContext, option: 'code' | 'resistance' | 'opponent', typed: string): Promise<void> {
  const trimmed = typed.trim();
  const itself = (option === 'resistance' && /^\d{1,2}$/.test(trimmed)) || (trimmed !== '' && looksLikeDieCode(trimmed)) ? [{ name: trimmed, value: trimmed }] : [];
  let sheet: OperatorSheet | null = null;
  if (option === 'code') {
    const npc = interaction.options.getString('as_npc');
    sheet = npc
      ? (await context.isDispatcher()) ? await npcNamed(context, npc, RESULT_POINTS_SYSTEM) : null
      : await context.store.operators.active({ guildId: context.guildId, ownerId: context.userId }, RESULT_POINTS_SYSTEM);
    if (!sheet && !npc && itself.length === 0) return interaction.respond(noSheetChoice(RESULT_POINTS_SYSTEM));
  } else {
    const npc = interaction.options.getString('target_npc');
    const user = interaction.options.get('target')?.value;
    if (npc) sheet = (await context.isDispatcher()) ? await npcNamed(context, npc, RESULT_POINTS_SYSTEM) : null;
    else if (typeof user === 'string') sheet = await context.store.operators.active({ guildId: context.guildId, ownerId: user }, RESULT_POINTS_SYSTEM);
  }
  const abilities = sheet ? abilitiesOf(sheet) : [];
  const label = new Map(abilities.map((entry) => [entry.name, `${entry.name} ${formatDieCode(entry.code)}${option === 'resistance' ? ` (fixed ${fixedResistance(entry.code)})` : ''}`]));
  const named = itself.length > 0 ? [] : nameChoices([...label.keys()], typed, (name) => label.get(name)!);
  return interaction.respond([...itself, ...named].slice(0, DISCORD_LIMITS.autocompleteChoices));
}

/** Difficulty names with their values (a number typed is offered as itself), NPC names, a sheet's tracks. */
async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const typed = String(focused.value);
  if (focused.name === 'difficulty') {
    const lower = typed.trim().toLowerCase();
    const named = DIFFICULTIES.filter((band) => band.name.toLowerCase().includes(lower)).map((band) => ({
      name: `${band.name} (${bandMiddle(band)}; ${band.min}–${band.max})`,
      value: band.name.toLowerCase(),
    }));
    const number = /^\d{1,2}$/.test(lower) ? [{ name: lower, value: lower }] : [];
    return interaction.respond([...number, ...named].slice(0, DISCORD_LIMITS.autocompleteChoices));
  }
  if (focused.name === 'npc' || focused.name === 'as_npc' || focused.name === 'target_npc') return interaction.respond(await npcNameChoices(context, typed));
  if (focused.name === 'code' || focused.name === 'resistance' || focused.name === 'opponent') return abilityChoices(interaction, context, focused.name, typed);
  if (focused.name === 'name' && interaction.options.getSubcommand() === 'ability') {
    const sheet = await sheetForTracks(interaction, context);
    const abilities = sheet ? abilitiesOf(sheet) : [];
    const ranks = new Map(abilities.map((entry) => [entry.name, formatDieCode(entry.code)]));
    return interaction.respond(nameChoices([...ranks.keys()], typed, (name) => `${name} ${ranks.get(name)}`));
  }
  if (focused.name === 'track' || focused.name === 'name') {
    const sheet = await sheetForTracks(interaction, context);
    const tracks = sheet ? tracksOf(sheet) : [];
    const points = new Map(tracks.map((entry) => [entry.name, entry.points]));
    return interaction.respond(nameChoices([...points.keys()], typed, (name) => `${name} (${points.get(name)})`));
  }
  return interaction.respond([]);
}

export const codeCommand = defineCommand<SpendPress>({
  name: 'code',
  description: 'Die codes and result points: roll ND+P six-sided dice',
  systems: ['result-points'],
  subcommands: [
    {
      name: 'roll',
      build: (sub) =>
        sub
          .setDescription('A quick check: standing, or against a difficulty, a fixed resistance or an opponent')
          .addStringOption((o) => o.setName('code').setDescription('Your die code (e.g. 3D+2), or an ability of your sheet (e.g. Blaster)').setRequired(true).setAutocomplete(true).setMaxLength(NAME_MAX))
          .addStringOption((o) =>
            o.setName('difficulty').setDescription('A number, or very easy / easy / moderate / difficult / very difficult / heroic').setAutocomplete(true).setMaxLength(30),
          )
          .addStringOption((o) => o.setName('resistance').setDescription("Fixed resistance: the opposing rank (3D+2 → 11), its value, or the target's ability").setAutocomplete(true).setMaxLength(NAME_MAX))
          .addStringOption((o) => o.setName('opponent').setDescription("Active resistance: the opponent's die code or the target's ability, rolled").setAutocomplete(true).setMaxLength(NAME_MAX))
          .addStringOption((o) => o.setName('boost').setDescription("Helpers enhancing: their skill and specialization dice, e.g. 2D+1, 1D").setMaxLength(100))
          .addStringOption((o) => o.setName('penalty').setDescription('Helpers blunting: their dice, subtracted, e.g. 1D').setMaxLength(100))
          .addStringOption((o) => o.setName('effect').setDescription('The effect roll a success is followed by, e.g. damage 2D+1').setMaxLength(20))
          .addUserOption((o) => o.setName('target').setDescription('The member you act against (their active sheet)'))
          .addStringOption((o) => o.setName('target_npc').setDescription('Dispatcher only: the NPC you act against').setAutocomplete(true))
          .addStringOption((o) => o.setName('track').setDescription("The target's condition track the points go on, e.g. Wounds").setAutocomplete(true).setMaxLength(70))
          .addStringOption((o) => o.setName('as_npc').setDescription('Dispatcher only: roll for this NPC').setAutocomplete(true)),
      run: roll,
      again: true,
      help: { audience: 'player', example: '/code roll code:3D+2 difficulty:moderate' },
    },
    {
      name: 'ability',
      build: (sub) =>
        sub
          .setDescription("Set an ability's rank on your sheet (a Dispatcher may for anyone), rolled by name with /code roll")
          .addStringOption((o) => o.setName('name').setDescription('The ability, e.g. Blaster').setRequired(true).setAutocomplete(true).setMaxLength(NAME_MAX))
          .addStringOption((o) => o.setName('code').setDescription('Its rank as a die code, e.g. 3D+2 (pips 0–2)').setRequired(true).setMaxLength(20))
          .addUserOption((o) => o.setName('player').setDescription("Dispatcher: this player's active sheet instead of yours"))
          .addStringOption((o) => o.setName('npc').setDescription('Dispatcher: this NPC').setAutocomplete(true)),
      run: setAbility,
      help: { audience: 'player', example: '/code ability name:Blaster code:3D+2' },
    },
    {
      name: 'track',
      build: (sub) =>
        sub
          .setDescription('Add a condition track, show it, or set its points (a Dispatcher may for anyone)')
          .addStringOption((o) => o.setName('name').setDescription('The track, e.g. Wounds').setRequired(true).setAutocomplete(true).setMaxLength(70))
          .addIntegerOption((o) => o.setName('points').setDescription('Set its points (0 clears it)').setMinValue(0).setMaxValue(TRACK_MAX))
          .addUserOption((o) => o.setName('player').setDescription("Dispatcher: this player's active sheet instead of yours"))
          .addStringOption((o) => o.setName('npc').setDescription('Dispatcher: this NPC').setAutocomplete(true)),
      run: track,
      help: { audience: 'player', example: '/code track name:Wounds points:2' },
    },
    {
      name: 'status',
      build: (sub) =>
        sub
          .setDescription('Condition tracks, action points and whether the character conceded')
          .addUserOption((o) => o.setName('player').setDescription("Dispatcher: this player's active sheet instead of yours"))
          .addStringOption((o) => o.setName('npc').setDescription('Dispatcher: this NPC').setAutocomplete(true))
          .addBooleanOption((o) => o.setName('share').setDescription('Post it in the channel for everyone (default: only you see it)')),
      run: status,
      help: { audience: 'player', example: '/code status' },
    },
    {
      name: 'concede',
      build: (sub) =>
        sub
          .setDescription("Concede this channel's scene: no more actions, fixed resistance only, an action point at its end")
          .addStringOption((o) => o.setName('npc').setDescription('Dispatcher: this NPC concedes').setAutocomplete(true)),
      run: concede,
      help: { audience: 'player', example: '/code concede' },
    },
    {
      name: 'scene-end',
      build: (sub) => sub.setDescription("Dispatcher: end this channel's scene; whoever conceded gets an action point"),
      run: sceneEnd,
      requires: { dispatcher: 'end a scene' },
      help: { audience: 'dispatcher', example: '/code scene-end' },
    },
    {
      name: 'action-point',
      build: (sub) => sub.setDescription('Spend one of your action points').addStringOption((o) => o.setName('reason').setDescription('What it is spent on').setMaxLength(REASON_MAX)),
      run: spendActionPoint,
      help: { audience: 'player', example: '/code action-point reason:dodge the falling crate' },
    },
  ],
  autocomplete,
  ids: codeIds,
  component,
});
