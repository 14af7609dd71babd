/** /roll: Tac Talk challenge rolls, linked rolls, and replaying any stored roll (RULES 1.2, 1.3, 6.3). */
import { MessageFlags, type AutocompleteInteraction, type ChatInputCommandInteraction } from 'discord.js';
import { defineCommand, rolledBy, type HandlerContext } from '../src/discord/command.js';
import { answerAsNpc } from '../src/discord/npc-voice.js';
import { UserError } from '../src/errors.js';
import { cleanName } from '../src/engine/names.js';
import { challengeDice, diceMatch, linkedDice, replayRoll } from '../src/engine/replay.js';
import { seededRng } from '../src/engine/rng.js';
import { archetypeModifiers, conditionModifiers, splitNameList, validName, type OperatorSheet } from '../src/engine/sheet.js';
import {
  resolveChallenge,
  resolveLinkedChallenge,
  validateChallengeInput,
  type ChallengeInput,
} from '../src/engine/systems/tactalk/challenge.js';
import { challengeFromSheet } from '../src/engine/systems/tactalk/from-sheet.js';
import { parseLinkedRoll } from '../src/engine/systems/tactalk/linked-notation.js';
import { isNoSheetChoice, noSheetChoice } from '../src/views/autocomplete.js';
import { awaitsReveal, isHiddenFrom, isRevealed } from '../src/engine/blind.js';
import { blindMessage, blindReplayReply } from '../src/views/blind.js';
import { challengeReply, linkedEmbed } from '../src/views/challenge.js';
import { NO_PINGS } from '../src/views/limits.js';
import { userErrorText } from '../src/views/messages.js';
import { REPLAY_CHOICES_SCANNED, replayChoices } from '../src/views/log.js';
import { hiddenReplayReply, replayReply } from '../src/views/replay.js';
import { npcOwner } from '../src/store/operators.js';
import { ROLL_ID_PATTERN } from '../src/store/rolls.js';
import { npcForAutocomplete, npcNameChoices } from './npc.js';
import { outcomeSubcommand } from './table.js';
import { diceSubcommand, readyDiceNotation } from './roll-dice.js';
import { consequenceRollId, intentSubcommand } from './dispatch.js';
import { skillOrArchetypeChoices } from './shared/roll-sheets.js';
import { rollComponent, rollMayOpenForm, savedRollSubcommands } from './roll-again.js';
import { rollIds } from '../src/views/roll-again.js';

/** `blind:`: the roll's result goes to the Dispatchers alone (commands/blind.ts); a secret roll is already theirs alone. */
function blindOption(interaction: ChatInputCommandInteraction, secret: boolean): boolean {
  const blind = interaction.options.getBoolean('blind') ?? false;
  if (blind && secret) {
    throw new UserError('A roll is either `secret` (only you see it, nothing in the channel) or `blind` (the channel sees that it was made, Dispatchers its result), not both. Leave one out.');
  }
  return blind;
}

async function requireDispatcherToForce(force: boolean, context: HandlerContext): Promise<void> {
  if (force) await context.requireDispatcher('force a roll whose outcome is already certain', 'Leave `force` out.');
}

/**
 * The server's `player-challenge-rolls` setting: off, a player's own challenge or linked roll is refused (the seed:
 * the Dispatcher decides when a roll is needed and which); a Dispatcher still rolls. On by default (docs/rules.md).
 */
async function requirePlayerChallengeRolls(context: HandlerContext): Promise<void> {
  if ((await context.store.servers.settings(context.guildId)).playerChallengeRolls || (await context.isDispatcher())) return;
  throw new UserError(
    'On this server a Dispatcher calls for challenge rolls: players do not pick their own (`/config player-challenge-rolls` is off). ' +
      'Say what your Operator tries with `/roll intent intent:… outcome:…`, and a Dispatcher answers it with a roll. Nothing was rolled.',
  );
}

async function challenge(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  await requirePlayerChallengeRolls(context);
  // An NPC roll takes the NPC's sheet where a player's roll takes the player's active one.
  const npcName = interaction.options.getString('npc');
  const secret = interaction.options.getBoolean('secret') ?? false;
  if (npcName !== null) await context.requireDispatcher('roll for an NPC');
  if (secret) await context.requireDispatcher('make a secret roll');
  const blind = blindOption(interaction, secret);
  const owner = npcName === null ? { guildId: context.guildId, ownerId: context.userId } : npcOwner(context.guildId);
  const level = interaction.options.getInteger('level');
  const force = interaction.options.getBoolean('force') ?? false;
  // A blind roll always rolls its dice: "no roll needed" would tell the player the verdict.
  const rolledAnyway = force || blind;
  const archetypeNames = splitNameList(interaction.options.getString('archetypes'));
  const situationalModifier = interaction.options.getInteger('modifier') ?? 0;
  const challengeLevel = interaction.options.getInteger('cl', true);
  const skillName = interaction.options.getString('skill', true);
  if (npcName === null && isNoSheetChoice(skillName)) await context.store.operators.requireActive(owner, 'tactalk', { command: '/roll challenge' });

  let input: ChallengeInput;
  let who: string;
  let npc: OperatorSheet | null = null;
  if (level === null) {
    const sheet = await context.store.operators.byNameOrActive(owner, npcName, 'tactalk', { command: '/roll challenge' });
    const otherwise = `give \`level:\` (its aptitude, 0–100) to roll ${cleanName(skillName).slice(0, 64)} without the sheet`;
    input = challengeFromSheet(sheet, { skill: skillName, archetypes: archetypeNames, situationalModifier, challengeLevel }, { force: rolledAnyway, hidden: false, otherwise }, context.now());
    who = sheet.name;
    if (npcName !== null) npc = sheet;
  } else {
    // An aptitude given outright: the archetypes and conditions still come from the sheet, if there is one.
    const sheet = npcName === null ? await context.store.operators.active(owner, 'tactalk') : await context.store.operators.byNameOrActive(owner, npcName, 'tactalk', { command: '/roll challenge' });
    if (archetypeNames.length > 0 && !sheet) {
      throw new UserError('Archetype modifiers come from your active sheet, and you have none. Leave `archetypes` out or create a sheet.');
    }
    const name = validName('skill', skillName);
    input = {
      skill: { name, level },
      archetypeModifiers: sheet ? archetypeModifiers(sheet, archetypeNames) : [],
      conditionModifiers: sheet ? conditionModifiers(sheet, name, context.now()) : [],
      situationalModifier,
      challengeLevel,
      force: rolledAnyway,
      hidden: false,
    };
    who = sheet?.name ?? interaction.user.displayName;
    if (npcName !== null) npc = sheet;
  }
  validateChallengeInput(input);
  await requireDispatcherToForce(force, context);

  const seed = context.newSeed();
  const result = resolveChallenge(input, seededRng(seed));
  const rollId =
    result.outcome === 'rolled'
      ? await context.store.rolls.record({
          ...rolledBy(context),
          kind: 'challenge',
          inputs: input,
          seed,
          dice: challengeDice(result),
          result,
          total: result.result,
          challengeLevel: input.challengeLevel,
          success: result.success,
          secret,
          ...(npcName !== null ? { npc: who } : {}),
          blind,
        })
      : null;
  if (blind && rollId) return void (await context.answer.reply(blindMessage({ id: rollId, kind: 'challenge', inputs: input }, who)));
  const reply = challengeReply(result, who, rollId);
  // An NPC's roll is posted under its name; a secret one stays the Dispatcher's alone.
  await answerAsNpc(interaction, context, npc, secret ? { ...reply, flags: MessageFlags.Ephemeral } : reply);
}

async function linked(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  await requirePlayerChallengeRolls(context);
  const force = interaction.options.getBoolean('force') ?? false;
  const blind = blindOption(interaction, false);
  const parts = parseLinkedRoll(interaction.options.getString('rolls', true), interaction.options.getInteger('cl') ?? undefined);
  const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/roll linked' });
  const inputs = parts.map((part, index) => {
    try {
      const input = challengeFromSheet(sheet, part, { force: force || blind, hidden: false }, context.now());
      validateChallengeInput(input);
      return input;
    } catch (error) {
      if (error instanceof UserError) throw new UserError(`Linked roll, part ${index + 1} (${cleanName(part.skill)}): ${userErrorText(error)}`);
      throw error;
    }
  });
  await requireDispatcherToForce(force, context);
  const seed = context.newSeed();
  const result = resolveLinkedChallenge(inputs, seededRng(seed));
  const anyRolled = result.results.some((part) => part.outcome === 'rolled');
  const rollId = anyRolled
    ? await context.store.rolls.record({
        ...rolledBy(context),
        kind: 'linked',
        inputs,
        seed,
        dice: linkedDice(result),
        result,
        total: null,
        challengeLevel: null,
        success: null,
        blind,
      })
    : null;
  if (blind && rollId) return void (await context.answer.reply(blindMessage({ id: rollId, kind: 'linked', inputs }, sheet.name)));
  await context.answer.reply({ embeds: [linkedEmbed(result, sheet.name, rollId).toJSON()], allowedMentions: NO_PINGS });
}

async function replay(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  await replayById(interaction.options.getString('id', true), context);
}

/** `/roll replay id:…`'s answer, also the "Replay this roll" context menu's: one path, one set of privacy rules. */
export async function replayById(id: string, context: HandlerContext): Promise<void> {
  const stored = await context.store.rolls.require(context.guildId, id);
  if (stored.secret) await context.requireDispatcher('replay a secret roll');
  // A blind roll not yet revealed is answered privately to everyone: to a Dispatcher with its result, to anyone else without.
  // A blind call's hidden CL is in the channel once its roll is revealed.
  const clHidden = stored.hiddenChallengeLevel && !isRevealed(stored);
  const privately = stored.secret || clHidden || awaitsReveal(stored);
  if (stored.kind === 'dice') await readyDiceNotation(context.answer, privately);
  const rederived = await replayRoll(stored.kind, stored.inputs, stored.seed);
  const matches = diceMatch(rederived, stored.dice);
  // A failed challenge names the Outcome Roll its consequence led to, if one was made.
  const consequence = stored.kind === 'challenge' || stored.kind === 'linked' ? await context.store.rolls.find(context.guildId, consequenceRollId(context.guildId, 0, stored.id)) : null;
  const facts = { rollId: stored.id, userId: stored.userId, createdAt: stored.createdAt, seed: stored.seed, matches, consequenceRollId: consequence?.id ?? null };
  if (isHiddenFrom(stored, await context.isDispatcher())) {
    await context.answer.reply(blindReplayReply(facts));
    return;
  }
  if (clHidden && !(await context.isDispatcher())) {
    await context.answer.reply(hiddenReplayReply(facts));
    return;
  }
  const reply = replayReply(facts, rederived);
  // A secret roll, one against a hidden CL or a blind one not revealed stays out of the channel when a Dispatcher replays it.
  await context.answer.reply(privately ? { ...reply, flags: MessageFlags.Ephemeral } : reply);
}

/** The recent rolls of the server the member may replay, as /log shows them to that member, filtered by what was typed. */
async function replayIdChoices(context: HandlerContext, typed: string) {
  const { rolls } = await context.store.rolls.page(context.guildId, { limit: REPLAY_CHOICES_SCANNED });
  // A whole id typed finds its roll however old it is.
  const id = typed.trim().toLowerCase();
  const older = ROLL_ID_PATTERN.test(id) && !rolls.some((roll) => roll.id === id) ? await context.store.rolls.find(context.guildId, id) : null;
  return replayChoices(older ? [...rolls, older] : rolls, { canSeeSecrets: await context.isDispatcher(), typed, now: context.now() });
}

/** `/roll challenge`'s suggestions: NPCs, and the skills and archetypes of the sheet rolled from (the NPC's or the roller's active one). */
async function challengeAutocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  if (focused.name === 'npc') return interaction.respond(await npcNameChoices(context, String(focused.value)));
  const npcName = interaction.options.getString('npc');
  const sheet = npcName
    ? await npcForAutocomplete(context, npcName)
    : await context.store.operators.active({ guildId: context.guildId, ownerId: context.userId }, 'tactalk');
  if (!sheet) {
    await interaction.respond(npcName === null && (focused.name === 'skill' || focused.name === 'archetypes') ? noSheetChoice('tactalk') : []);
    return;
  }
  await interaction.respond(skillOrArchetypeChoices(sheet, focused.name, String(focused.value)));
}

/** `/roll replay`'s suggestions: the recent rolls the member may replay, or the one whose whole id was typed. */
async function replayAutocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  await interaction.respond(focused.name === 'id' ? await replayIdChoices(context, String(focused.value)) : []);
}

export const rollCommand = defineCommand({
  name: 'roll',
  description: 'Roll the dice of the Decision Engine',
  systems: ['tactalk'],
  everywhereDescription: 'Roll any dice or your saved rolls, or replay a stored roll from its id',
  subcommands: [
    {
      name: 'challenge',
      build: (sub) =>
        sub
          .setDescription('A challenge roll: D100 + skill + archetype modifiers against a Challenge Level')
          .addStringOption((o) => o.setName('skill').setDescription('The skill tested, from your active sheet').setRequired(true).setAutocomplete(true))
          .addIntegerOption((o) => o.setName('cl').setDescription('The Challenge Level, 0–200').setRequired(true))
          .addStringOption((o) => o.setName('archetypes').setDescription('Archetype modifiers to add, comma separated').setAutocomplete(true))
          .addIntegerOption((o) => o.setName('modifier').setDescription('A situational modifier, e.g. -10'))
          .addIntegerOption((o) => o.setName('level').setDescription('Use this skill level instead of a sheet (0–100)'))
          .addBooleanOption((o) => o.setName('force').setDescription('Dispatcher only: roll even when the outcome is certain'))
          .addStringOption((o) => o.setName('npc').setDescription('Dispatcher only: roll for this NPC, from its sheet').setAutocomplete(true))
          .addBooleanOption((o) => o.setName('secret').setDescription('Dispatcher only: only you see the result (it is still logged)'))
          .addBooleanOption((o) => o.setName('blind').setDescription('Only Dispatchers see the result until one reveals it; the channel sees that you rolled')),
      run: challenge,
      autocomplete: challengeAutocomplete,
      again: true,
      help: { audience: 'player', example: '/roll challenge skill:Climbing cl:90' },
    },
    {
      name: 'linked',
      build: (sub) =>
        sub
          .setDescription('A linked challenge roll: several skills, each with its own CL')
          .addStringOption((o) => o.setName('rolls').setDescription('e.g. Handgun Handling +Acuity vs 90; Driving -10 vs 110').setRequired(true))
          .addIntegerOption((o) => o.setName('cl').setDescription('One Challenge Level for every part without its own `vs`'))
          .addBooleanOption((o) => o.setName('force').setDescription('Dispatcher only: roll even the parts whose outcome is certain'))
          .addBooleanOption((o) => o.setName('blind').setDescription('Only Dispatchers see the results until one reveals them; the channel sees that you rolled')),
      run: linked,
      again: true,
      help: { audience: 'player', example: '/roll linked rolls:Handgun Handling +Acuity vs 90; Driving -10 vs 110' },
    },
    intentSubcommand,
    outcomeSubcommand,
    diceSubcommand,
    {
      name: 'replay',
      build: (sub) =>
        sub
          .setDescription('Re-derive a stored roll from its seed and check the dice')
          .addStringOption((o) => o.setName('id').setDescription('The roll id, from the embed footer or /log').setRequired(true).setAutocomplete(true)),
      run: replay,
      autocomplete: replayAutocomplete,
      // A replay may be of a dice-notation roll, which runs the notation library as /roll dice does.
      heavy: true,
      // Any stored roll replays, /roll dice's included, on every server whatever it plays.
      everywhere: true,
      help: { audience: 'player', example: '/roll replay id:a1b2c3d4' },
    },
    ...savedRollSubcommands,
  ],
  // Roll again and Save… under a typed roll's answer, and the save form (commands/roll-again.ts).
  ids: rollIds,
  component: rollComponent,
  mayOpenForm: rollMayOpenForm,
});
