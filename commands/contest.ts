/**
 * /contest: a contest between two players' Operators (RULES 1.6), run on one message as a consent flow with
 * buttons. Every press reloads the contest, lets the engine decide, and saves with a compare-and-set: a press
 * that lost a race, came late or came from the wrong person changes nothing and is answered privately.
 */
import { AsyncQueue } from '@sapphire/async-queue';
import {
  InteractionContextType,
  SlashCommandBuilder,
  type AutocompleteInteraction,
  type ChatInputCommandInteraction,
  type Client,
  type BaseInteraction,
} from 'discord.js';
import { fromMessage, rolledBy, type BotCommand, type BotServices, type ComponentInteraction, type HandlerContext } from '../src/discord/command.js';
import { answerFromStore, shownControls } from '../src/discord/stored-message.js';
import type { Responder } from '../src/discord/responder.js';
import { UserError } from '../src/errors.js';
import { nameKey } from '../src/engine/names.js';
import { seededRng } from '../src/engine/rng.js';
import { archetypeModifiers, conditionModifiers, findSkill, splitNameList, type OperatorSheet } from '../src/engine/sheet.js';
import {
  ADJUSTABLE,
  BOTH_FAIL_READING,
  CONTEST_LIMITS,
  ContestRefusal,
  OPEN_PHASES,
  applyContestAction,
  chosenSkills,
  isLinkedRoll,
  postContest,
  proposeContest,
  sideName,
  sideOf,
  type ContestAction,
  type ContestActor,
  type ContestChoice,
  type ContestLinkedPart,
  type ContestRole,
  type ContestRollSideInput,
  type ContestRound,
  type ContestSideName,
  type ContestSideRoll,
  type ContestState,
} from '../src/engine/systems/tactalk/contest.js';
import { validateChallengeInput } from '../src/engine/systems/tactalk/challenge.js';
import { challengeFromSheet } from '../src/engine/systems/tactalk/from-sheet.js';
import { parseLinkedRoll } from '../src/engine/systems/tactalk/linked-notation.js';
import { contestDice } from '../src/engine/replay.js';
import type { StoredContest } from '../src/store/contests.js';
import { isIdClash } from '../src/store/database.js';
import { newRollId, type RollEntry } from '../src/store/rolls.js';
import type { ServerSettings } from '../src/store/servers.js';
import {
  SKILL_SEARCH_VALUE,
  acceptModal,
  adjustModal,
  contestEndNotice,
  contestMessage,
  contestOpening,
  contestPrompt,
  contestResultMessage,
  contestIds,
  messageLink,
  skillSearchModal,
  type ContestControl,
  type ContestView,
} from '../src/views/contest.js';
import { listChoices, nameChoices } from '../src/views/autocomplete.js';
import { privateNote, userErrorText } from '../src/views/messages.js';

const SWEEP_INTERVAL_MS = 30_000;
/** How often the sweeper looks at the bot's clock: the delay between a step running out and its message greying. */
const SWEEP_POLL_MS = 1_000;
/** Tries of one press against presses that saved first; each try re-decides on the new state. */
const SAVE_ATTEMPTS = 5;

const data = new SlashCommandBuilder()
  .setName('contest')
  .setDescription('Contests between two players’ Operators')
  .setContexts(InteractionContextType.Guild)
  .addSubcommand((sub) =>
    sub
      .setName('start')
      .setDescription('Challenge another player to a contest')
      .addUserOption((o) => o.setName('opponent').setDescription('The player you act against').setRequired(true))
      .addStringOption((o) => o.setName('intent').setDescription('What your Operator tries to do').setRequired(true))
      .addStringOption((o) => o.setName('stakes').setDescription('What happens to them if you win').setRequired(true))
      .addStringOption((o) => o.setName('skill').setDescription('Your skill (its aptitude is their Challenge Level)').setRequired(true).setAutocomplete(true))
      .addStringOption((o) =>
        o
          .setName('role')
          .setDescription('Attacker or Defender: secret until the dice roll')
          .setRequired(true)
          .addChoices({ name: 'Attacker', value: 'attacker' }, { name: 'Defender', value: 'defender' }),
      )
      .addStringOption((o) => o.setName('archetypes').setDescription('Archetype modifiers you add, comma separated (each once)').setAutocomplete(true)),
  );
// The contest settings (timeout, the house rule adds_own_skill) are set with /config, by members with Manage Server.

function expiryFrom(now: Date, settings: ServerSettings): Date {
  return new Date(now.getTime() + settings.contestTimeoutMinutes * 60_000);
}

function memberName(interaction: BaseInteraction): string {
  if (interaction.inCachedGuild()) return interaction.member.displayName;
  return interaction.user.globalName ?? interaction.user.username;
}

/** A user option's member as the server names them (their nickname, else their display name). */
function optionMemberName(interaction: ChatInputCommandInteraction, option: string): string {
  const user = interaction.options.getUser(option, true);
  const member = interaction.options.getMember(option);
  if (member && 'displayName' in member) return member.displayName;
  const nick = member && 'nick' in member ? member.nick : null;
  return nick ?? user.globalName ?? user.username;
}

async function start(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const opponent = interaction.options.getUser('opponent', true);
  if (opponent.bot) throw new UserError('You cannot contest a bot: a contest is between two players.');
  if (opponent.id === context.userId) throw new UserError('You cannot contest yourself. Pick another player.');
  const { store } = context;
  const sheet = await store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/contest start' });
  const settings = await store.servers.settings(context.guildId);
  const role = interaction.options.getString('role', true);
  if (role !== 'attacker' && role !== 'defender') throw new UserError('The role is **attacker** or **defender**.');
  const state = proposeContest({
    challengerId: context.userId,
    opponentId: opponent.id,
    challengerOperator: { id: sheet.id, name: sheet.name },
    challengerName: memberName(interaction),
    opponentName: optionMemberName(interaction, 'opponent'),
    intent: interaction.options.getString('intent', true),
    stakes: interaction.options.getString('stakes', true),
    addsOwnSkill: settings.contestAddsOwnSkill,
    choice: choiceFrom(sheet, role, interaction.options.getString('skill', true), interaction.options.getString('archetypes'), context.now()),
  });
  // A draft until its opening is in the channel: a crash or a lost reply before then leaves nothing open, and the
  // user's retry is the only contest that counts.
  const draft = await store.contests.start({ guildId: context.guildId, channelId: context.channelId, state, expiresAt: expiryFrom(context.now(), settings) }, CONTEST_LIMITS.openPerUser, context.now());
  if ('full' in draft) throw await contestLimitReached(context, draft.full);
  await inTurn(store, draft.id, async () => {
    const opening = contestOpening(viewOf({ ...draft, state: postContest(draft.state) }, settings));
    let messageId: string | null;
    try {
      messageId = await context.answer.replyWithMessageId(opening);
    } catch (error) {
      await store.contests.forgetDraft(draft).catch((gone: unknown) => context.log.warn({ err: gone, contestId: draft.id }, 'a draft whose opening failed could not be forgotten'));
      throw error;
    }
    await store.contests.post(draft, messageId);
  });
}

/** The refusal of a contest past the limit, linking the contests that hold it. */
async function contestLimitReached(context: HandlerContext, userId: string): Promise<UserError> {
  const who = userId === context.userId ? 'You have' : `<@${userId}> has`;
  const open = await context.store.contests.openOf(context.guildId, userId);
  const links = open.map((contest) => (contest.messageId ? `#${contest.id} ${messageLink(contest.guildId, contest.channelId, contest.messageId)}` : `#${contest.id}`));
  return new UserError(
    `${who} ${CONTEST_LIMITS.openPerUser} open contests already, the most at once${links.length > 0 ? `: ${links.join(', ')}` : ' (one is still being posted)'}. Finish one (the challenger may withdraw before the dice roll) or let one expire first.`,
  );
}

/** A player's role, skill and archetypes from their sheet: the skill as on the sheet (nearest names suggested), each archetype once. */
function choiceFrom(sheet: OperatorSheet, role: ContestRole, typedSkill: string, typedArchetypes: string | null, now: Date): ContestChoice {
  const skill = findSkill(sheet, typedSkill.trim());
  const names = splitNameList(typedArchetypes);
  return {
    role,
    skill: { name: skill.name, level: skill.level },
    conditionModifiers: conditionModifiers(sheet, skill.name, now),
    archetypeModifiers: archetypeModifiers(sheet, names),
  };
}

async function execute(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const sub = interaction.options.getSubcommand(true);
  if (sub === 'start') return start(interaction, context);
  throw new UserError(`Unknown subcommand ${sub}.`);
}

/** The challenger's skill and archetypes, from their active Tac Talk sheet. */
async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const sheet = await context.store.operators.active({ guildId: context.guildId, ownerId: context.userId }, 'tactalk');
  if (!sheet) return interaction.respond([]);
  const typed = String(focused.value);
  if (focused.name === 'skill') {
    const levels = new Map(sheet.skills.map((skill) => [skill.name, skill.level]));
    return interaction.respond(nameChoices([...levels.keys()], typed, (name) => `${name} (${levels.get(name)})`));
  }
  if (focused.name === 'archetypes') return interaction.respond(listChoices(sheet.archetypes.map((archetype) => archetype.name), typed));
  return interaction.respond([]);
}

function viewOf(contest: StoredContest, settings: ServerSettings, skills?: ContestView['skills']): ContestView {
  return {
    id: contest.id,
    state: contest.state,
    expiresAt: contest.expiresAt,
    timeoutMinutes: settings.contestTimeoutMinutes,
    skills,
    where: { guildId: contest.guildId, channelId: contest.channelId, messageId: contest.messageId },
  };
}

/** Both sides' skills, for the skill menus (also shown, disabled, on a contest that expired while picking). */
async function sideSkills(context: BotServices, guildId: string, state: ContestState): Promise<ContestView['skills']> {
  if ((state.phase === 'expired' ? state.expiredAt : state.phase) !== 'skills') return undefined;
  const load = async (side: ContestSideName) => (state[side].operator ? ((await context.store.operators.get(guildId, state[side].operator.id))?.skills ?? []) : []);
  return { challenger: await load('challenger'), opponent: await load('opponent') };
}

async function operatorOf(context: HandlerContext, state: ContestState, side: ContestSideName): Promise<OperatorSheet> {
  const operator = state[side].operator;
  const sheet = operator ? await context.store.operators.get(context.guildId, operator.id) : null;
  if (!sheet) throw new ContestRefusal('invalid', `The sheet of ${operator?.name ?? 'this side'} no longer exists. A Dispatcher can cancel the contest.`);
  return sheet;
}

async function skillChoice(context: HandlerContext, state: ContestState, side: ContestSideName, typed: string) {
  const sheet = await operatorOf(context, state, side);
  const skill = findSkill(sheet, typed);
  return { skill: { name: skill.name, level: skill.level }, conditionModifiers: conditionModifiers(sheet, skill.name, context.now()) };
}

/** A form's field as text: a text input's value, or a menu's picks joined by commas; empty when the form has no such field. */
function field(interaction: ComponentInteraction, name: string): string {
  if (!interaction.isModalSubmit()) return '';
  const data = interaction.fields.fields.get(name);
  if (!data) return '';
  if ('value' in data && typeof data.value === 'string') return data.value;
  if ('values' in data && Array.isArray(data.values)) return data.values.join(', ');
  return '';
}

/** Everything a refused form held, shown back to its sender (a sent form cannot be reopened as it was). */
function typedBack(interaction: ComponentInteraction): string {
  if (!interaction.isModalSubmit()) return '';
  const lines = [...interaction.fields.fields.keys()].map((name) => `- ${name}: ${field(interaction, name) ? `\`${field(interaction, name).replace(/`/g, "'").slice(0, 500)}\`` : '(empty)'}`);
  return lines.length ? `\nWhat you typed:\n${lines.join('\n')}` : '';
}

/**
 * What the Dispatcher typed as a side's skill: one skill, or a linked roll (RULES 1.3), its skills separated by `;`,
 * each with its own `+Archetype` and `±N` terms. Null when it is the side's roll as it is (no dispute).
 */
function disputeOf(sheet: OperatorSheet, state: ContestState, side: ContestSideName, typed: string, now: Date): ContestAction | null {
  const current = state[side];
  if (/[;\n]/.test(typed)) {
    // The CL of every part is the other side's aptitude (RULES 1.6), never one the Dispatcher names.
    if (/\bvs\b/i.test(typed)) throw new UserError('In a contest each part’s Challenge Level is the other side’s aptitude: leave out `vs`.');
    if (typed.split(/[;\n]/).filter((part) => part.trim()).length < 2) {
      throw new UserError('A linked roll needs at least two skills separated by `;`, e.g. `Handgun Handling +Acuity; Driving`.');
    }
    const parts: ContestLinkedPart[] = parseLinkedRoll(typed, 0).map((part) => {
      const challenge = challengeFromSheet(sheet, part, { force: false, hidden: false }, now);
      validateChallengeInput(challenge);
      return { skill: challenge.skill, archetypeModifiers: challenge.archetypeModifiers, conditionModifiers: challenge.conditionModifiers, situationalModifier: challenge.situationalModifier };
    });
    const comparable = (list: ContestLinkedPart[]) => JSON.stringify(list.map(({ skill, archetypeModifiers, situationalModifier }) => [skill.name, archetypeModifiers, situationalModifier]));
    if (current.linked && comparable(current.linked) === comparable(parts)) return null;
    return { type: 'disputeLinked', side, parts };
  }
  if (!typed || (!current.linked && typed.toLowerCase() === current.skill?.name.toLowerCase())) return null;
  if (/\s[+-]/.test(typed)) {
    throw new UserError('`+Archetype` and `±N` after a skill are for the parts of a linked roll (`Handgun Handling +Acuity; Driving -10`). For one skill, use the archetypes field and Situational.');
  }
  const chosen = findSkill(sheet, typed);
  return { type: 'dispute', side, skill: { name: chosen.name, level: chosen.level }, conditionModifiers: conditionModifiers(sheet, chosen.name, now) };
}

/** The Dispatcher's form becomes a list of actions, applied together or not at all. */
async function adjustActions(interaction: ComponentInteraction, context: HandlerContext, state: ContestState): Promise<ContestAction[]> {
  const actions: ContestAction[] = [];
  const modifiersText = field(interaction, 'modifiers').trim();
  const modifiers = modifiersText.split(',').map((part) => part.trim().replace('−', '-'));
  if (modifiers.length !== 2 || modifiers.some((part) => !/^[+-]?\d{1,3}$/.test(part))) {
    throw new UserError('Situational modifiers: write two whole numbers, the challenger’s then the opponent’s, e.g. `0, -10`.');
  }
  for (const [index, side] of (['challenger', 'opponent'] as const).entries()) {
    const sheet = await operatorOf(context, state, side);
    const dispute = disputeOf(sheet, state, side, field(interaction, `${side}_skill`).trim(), context.now());
    if (dispute) actions.push(dispute);
    const archetypes = archetypeModifiers(sheet, splitNameList(field(interaction, `${side}_archetypes`)));
    const situationalModifier = Number(modifiers[index]);
    const current = state[side];
    const unchanged =
      situationalModifier === current.situationalModifier &&
      JSON.stringify(archetypes) === JSON.stringify(current.archetypeModifiers);
    if (!unchanged) actions.push({ type: 'setModifiers', side, archetypeModifiers: archetypes, situationalModifier });
  }
  return actions;
}

async function openForm(interaction: ComponentInteraction, answer: Responder, modal: ReturnType<typeof acceptModal>): Promise<null> {
  if (interaction.isModalSubmit()) throw new UserError('A form cannot open another form.');
  await answer.showModal(modal);
  return null;
}

/** What a press means; null when it only opens a form (the form's submit is the action). */
async function actionsFor(interaction: ComponentInteraction, context: HandlerContext, contest: StoredContest, control: ContestControl, actor: ContestActor): Promise<ContestAction[] | null> {
  const { state } = contest;
  switch (control.action) {
    case 'accept': {
      // A dry run with the engine's own checks, so only the challenged player, and only now, gets the form.
      applyContestAction(state, { type: 'accept', stakes: '-', operator: { id: 0, name: '-' } }, actor, seededRng('dry-run'));
      const owner = { guildId: context.guildId, ownerId: context.userId };
      if (!(await context.store.operators.list(owner)).some((sheet) => sheet.system === 'tactalk')) {
        throw new UserError('A contest is played with a Tac Talk sheet, and you have none: create one with `/sheet create name:… system:Tac Talk`, then press Accept again.');
      }
      // The form's skill menu lists one sheet's skills, so it is for the active sheet (another: `/sheet use` first).
      const sheet = await context.store.operators.requireActive(owner, 'tactalk', { command: '/contest' });
      const used = new Set(state.opponent.usedSkills.map((name) => name.toLowerCase()));
      return openForm(interaction, context.answer, acceptModal(contest.id, { name: sheet.name, skills: sheet.skills.filter((skill) => !used.has(skill.name.toLowerCase())), archetypes: sheet.archetypes }));
    }
    case 'acceptform': {
      applyContestAction(state, { type: 'accept', stakes: '-', operator: { id: 0, name: '-' } }, actor, seededRng('dry-run'));
      const sheet = await context.store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/contest' });
      const role = field(interaction, 'role').trim().toLowerCase();
      if (role !== 'attacker' && role !== 'defender') throw new UserError('Pick your role: **Attacker** or **Defender**.');
      const choice = choiceFrom(sheet, role, field(interaction, 'skill'), field(interaction, 'archetypes'), context.now());
      return [{ type: 'accept', stakes: field(interaction, 'stakes'), operator: { id: sheet.id, name: sheet.name }, choice }];
    }
    case 'decline':
      return [{ type: 'decline' }];
    case 'agree':
      return [{ type: 'agree' }];
    case 'withdraw':
      return [{ type: 'withdraw' }];
    case 'cancel':
      return [{ type: 'cancel' }];
    case 'ready':
      return [{ type: 'ready', ...(await skillsGone(context, state)) }];
    case 'again':
      return [{ type: 'anotherRound', ...(await skillsGone(context, state)) }];
    case 'accepttie':
      return [{ type: 'acceptTie', ...(await skillsGone(context, state)) }];
    case 'role':
      return [{ type: 'chooseRole', role: control.role }];
    case 'skill':
    case 'searchform': {
      const { side } = control;
      if (sideOf(state, context.userId) !== side) {
        throw new ContestRefusal('notYours', `This menu is for ${state[side].operator?.name ?? 'the other player'}’s player only.`);
      }
      const typed = interaction.isStringSelectMenu() ? (interaction.values[0] ?? '') : field(interaction, 'skill');
      if (typed === SKILL_SEARCH_VALUE) {
        // A dry run: refuses when this side cannot pick a skill now (wrong step, or the Dispatcher set it).
        applyContestAction(state, { type: 'chooseSkill', skill: { name: '', level: 0 }, conditionModifiers: [] }, actor, seededRng('dry-run'));
        return openForm(interaction, context.answer, skillSearchModal(contest.id, side));
      }
      const choice = await skillChoice(context, state, side, typed);
      return [{ type: 'chooseSkill', ...choice }];
    }
    case 'adjust': {
      if (!actor.isDispatcher) throw new ContestRefusal('dispatcherOnly', 'Only a Dispatcher can adjust a contest.');
      requireAdjustable(state);
      return openForm(interaction, context.answer, adjustModal(contest.id, state));
    }
    case 'adjustform': {
      if (!actor.isDispatcher) throw new ContestRefusal('dispatcherOnly', 'Only a Dispatcher can adjust a contest.');
      // The form may come from a stale client (opened before, or never): the same step check as the button.
      requireAdjustable(state);
      return adjustActions(interaction, context, state);
    }
  }
}

/**
 * Whether the presser's side has no skill left to pick: none on its sheet, as it is now, that was not rolled in an
 * earlier round of the contest (a skill added since counts). A sheet deleted since has none.
 */
async function skillsGone(context: HandlerContext, state: ContestState): Promise<{ noSkillLeft?: true }> {
  const side = sideOf(state, context.userId);
  if (!side || !OPEN_PHASES.includes(state.phase)) return {};
  const operator = state[side].operator;
  const sheet = operator ? await context.store.operators.get(context.guildId, operator.id) : null;
  const used = new Set(state[side].usedSkills.map(nameKey));
  return (sheet?.skills ?? []).some((skill) => !used.has(nameKey(skill.name))) ? {} : { noSkillLeft: true };
}

/** The Dispatcher adjusts once both skills are known (both sides' sheets with them), until the dice roll. */
function requireAdjustable(state: ContestState): void {
  // A side the Dispatcher made a linked roll has no one skill: its parts are its skills.
  const known = state.challenger.operator && state.opponent.operator && (state.phase !== 'countered' || (chosenSkills(state.challenger).length > 0 && chosenSkills(state.opponent).length > 0));
  if (!ADJUSTABLE.includes(state.phase) || !known) {
    throw new ContestRefusal(
      OPEN_PHASES.includes(state.phase) ? 'notNow' : 'over',
      'Skills and modifiers can be adjusted once both players have chosen their skills, until the dice roll.',
    );
  }
}

/** Shows the contest's current state on its message: in place when the press came from it, else by editing it. */
async function show(interaction: ComponentInteraction, answer: Responder, payload: ReturnType<typeof contestMessage>, note?: string): Promise<void> {
  if (fromMessage(interaction)) {
    await answer.update(payload);
    if (note) await answer.followUp(privateNote(note));
    return;
  }
  await answer.reply(privateNote(note ?? 'Done.'));
}

/** A press refused: privately, and if its message lags behind the stored contest, by bringing it up to date too. */
async function refuse(interaction: ComponentInteraction, context: HandlerContext, settings: ServerSettings, contest: StoredContest, note: string): Promise<void> {
  await answerFromStore(interaction, context, contestMessage(viewOf(contest, settings, await sideSkills(context, contest.guildId, contest.state))), note);
}

/**
 * A press: reload, decide, save with a compare-and-set. When another press saved first, the press is decided
 * again on the new state: a different move (the other player's role) still counts, the same move twice is then
 * refused by the engine as already handled.
 */
/**
 * Presses on one contest are handled one at a time in this process, from the reload to the message's update. Two
 * presses answered at once race over HTTP, and the older state could land on the message last: the stored contest
 * would be a step ahead of the buttons everyone sees (the compare-and-set keeps the stored state right across
 * processes; this keeps the message right). The expiry sweep takes its turn too.
 */
const contestTurns = new Map<number, AsyncQueue>();

/** In this process's turn, then (PostgreSQL) the store's turn across processes: a shard moved mid-press meets itself. */
function inTurn<T>(store: BotServices['store'], contestId: number, work: () => Promise<T>): Promise<T> {
  return inProcessTurn(contestId, () => store.contests.inTurn(contestId, work));
}

async function inProcessTurn<T>(contestId: number, work: () => Promise<T>): Promise<T> {
  let queue = contestTurns.get(contestId);
  if (!queue) contestTurns.set(contestId, (queue = new AsyncQueue()));
  await queue.wait();
  try {
    return await work();
  } finally {
    queue.shift();
    // Nobody left in line: the next press starts a new queue.
    if (queue.remaining === 0) contestTurns.delete(contestId);
  }
}

async function component(interaction: ComponentInteraction, control: ContestControl, context: HandlerContext): Promise<void> {
  await inTurn(context.store, control.contestId, () => press(interaction, control, context));
}

/**
 * A press from the contest's own message proves that message is in the channel. So a draft it comes from is posted
 * now, on that message (the bot died between posting its opening and recording that), and an open contest missing
 * its message id gets it (the expiry sweep needs it to grey the message out). Null when another change came first:
 * reload and decide again.
 */
async function shownOn(interaction: ComponentInteraction, context: HandlerContext, contest: StoredContest): Promise<StoredContest | null> {
  const ownControl = (customId = '') => contestIds.parse(customId)?.contestId === contest.id;
  const messageId = interaction.message && shownControls(interaction).some(({ customId }) => ownControl(customId)) ? interaction.message.id : null;
  if (contest.state.phase === 'draft') {
    // Anything else pressing it did not come from its message; a draft has no message of its own to bring up to date.
    if (!messageId) throw new ContestRefusal('notNow', 'This contest is not posted yet; try again in a moment.');
    return context.store.contests.post(contest, messageId);
  }
  if (messageId && !contest.messageId && OPEN_PHASES.includes(contest.state.phase)) return context.store.contests.fillMessage(contest, messageId);
  return contest;
}

async function press(interaction: ComponentInteraction, control: ContestControl, context: HandlerContext): Promise<void> {
  const { store } = context;
  const settings = await store.servers.settings(context.guildId);
  const isDispatcher = await context.isDispatcher();
  for (let attempt = 1; ; attempt++) {
    const found = await store.contests.find(context.guildId, control.contestId);
    if (!found) throw new UserError('This contest no longer exists.');
    const contest = await shownOn(interaction, context, found);
    if (!contest) continue;
    if (!OPEN_PHASES.includes(contest.state.phase)) {
      await refuse(interaction, context, settings, contest, 'This contest is over; its buttons do nothing now.');
      await postLostResult(interaction, context, settings, contest);
      return;
    }
    const side = sideOf(contest.state, context.userId);
    const actor: ContestActor = { userId: context.userId, isDispatcher, name: (side && contest.state[side].operator?.name) || memberName(interaction) };
    const now = context.now();

    if (contest.expiresAt <= now) {
      const expired = applyContestAction(contest.state, { type: 'expire' }, actor, seededRng('expire'));
      const saved = await store.contests.save(contest, expired, contest.expiresAt);
      if (!saved) continue;
      const view = viewOf(saved, settings, await sideSkills(context, saved.guildId, expired));
      await show(interaction, context.answer, contestMessage(view), `This contest expired: nobody moved within ${settings.contestTimeoutMinutes} min.`);
      return;
    }

    let next: ContestState;
    let seed: string;
    let actions: ContestAction[] | null;
    try {
      actions = await actionsFor(interaction, context, contest, control, actor);
      if (actions === null) return; // a form was opened
      if (actions.length === 0) {
        await refuse(interaction, context, settings, contest, 'Nothing to change: the form matches the contest as it is.');
        return;
      }
      seed = context.newSeed();
      const rng = seededRng(seed);
      next = actions.reduce((state, action) => applyContestAction(state, action, actor, rng), contest.state);
    } catch (error) {
      if (error instanceof UserError) {
        const dispatcherOnly = error instanceof ContestRefusal && error.reason === 'dispatcherOnly';
        const message = dispatcherOnly ? `${userErrorText(error)} ${await context.dispatcherRequirement()}` : userErrorText(error);
        // A form refused for what was in it is shown back, so nothing typed is lost; a refusal of who or when is not.
        const shownBack = error instanceof ContestRefusal && error.reason !== 'invalid' ? '' : typedBack(interaction);
        await refuse(interaction, context, settings, contest, message + shownBack);
        return;
      }
      throw error;
    }

    const rolled = next.rounds.length > contest.state.rounds.length ? next.rounds.at(-1)! : null;
    if (rolled) rolled.rollId = newRollId();
    let saved: StoredContest | null;
    try {
      saved = await store.contests.save(contest, next, expiryFrom(now, settings), rolled ? roundEntry(context, contest.id, rolled, seed, { challenger: sideName(next, 'challenger'), opponent: sideName(next, 'opponent') }) : undefined);
    } catch (error) {
      // A new roll id that is already taken: nothing was saved, so the press is decided again under another one.
      if (!(rolled && isIdClash(error) && attempt < SAVE_ATTEMPTS)) throw error;
      continue;
    }
    if (!saved) {
      if (attempt < SAVE_ATTEMPTS) continue;
      await context.answer.reply(privateNote('The contest is changing fast right now; nothing changed. Please press again.'));
      return;
    }
    await show(interaction, context.answer, contestMessage(viewOf(saved, settings, await sideSkills(context, saved.guildId, next))));
    // A tie whose result was lost: posted before the prompt of the step it led to.
    if (saved.state.rounds.length === contest.state.rounds.length) await postLostResult(interaction, context, settings, contest);
    await announce(interaction, context, settings, saved, contest.state, actions, side, actor.name);
    return;
  }
}

/** What a move did, in a few words, for the turn prompt. */
function happenedText(before: ContestState, after: ContestState, actions: ContestAction[], name: string): string {
  if (after.notice && after.notice !== before.notice) return after.notice.replace(/\.$/, '');
  const last = actions.at(-1)!;
  switch (last.type) {
    case 'accept':
      return `${name} accepted with their own terms, role and skill`;
    case 'agree':
      return `${name} agreed to the terms`;
    case 'ready':
      return `${name} ${after.secretRoles && after.rounds.length === 0 ? 'confirmed' : 'is ready'}`;
    case 'chooseRole':
      return `${name} chose a role`;
    case 'chooseSkill':
      return `${name} picked ${last.skill.name}`;
    case 'anotherRound':
      return after.phase === 'skills' ? `Both want another round: round ${after.rounds.length + 1}, each with a skill not rolled before` : `${name} wants another round`;
    case 'acceptTie':
      return `${name} accepts the tie`;
    default:
      return `${name} changed the contest`;
  }
}

/**
 * After a move, a NEW message tells whoever must act next (an edit notifies nobody on Discord): the turn prompt,
 * the end of the contest, or a round's result. A result is posted with a link to the contest message, and the contest
 * message then links to the result. Failing to post it leaves the contest as saved: its message shows the outcome.
 */
async function announce(
  interaction: ComponentInteraction,
  context: HandlerContext,
  settings: ServerSettings,
  saved: StoredContest,
  before: ContestState,
  actions: ContestAction[],
  side: ContestSideName | null,
  name: string,
): Promise<void> {
  const after = saved.state;
  // With the sheets' skills: a player with none left to pick is told what they can do instead.
  const view = viewOf(saved, settings, await sideSkills(context, saved.guildId, after));
  // The opponent's Operator is known only once they accept: name them by it from then on.
  name = (side && after[side].operator?.name) || name;
  const rolled = after.rounds.length > before.rounds.length ? after.rounds.at(-1)! : null;
  if (rolled) {
    const posted = await context.answer.followUp(contestResultMessage(view, rolled, side));
    const linked = await linkResult(context, saved, rolled.number, posted.id);
    if (linked && fromMessage(interaction)) await context.answer.editReply(contestMessage(viewOf(linked, settings, await sideSkills(context, linked.guildId, linked.state))));
    return;
  }
  if (after.phase === 'ended' && before.phase !== 'ended') {
    await context.answer.followUp(contestEndNotice(view, side));
    return;
  }
  const prompt = contestPrompt(view, side, happenedText(before, after, actions, name));
  if (prompt) await context.answer.followUp(prompt);
}

/**
 * A round whose result message was never posted (the bot died between saving the roll and posting it, or the post
 * failed) is posted by the next press on the contest, so its dice and why it ended never go missing from the channel.
 * Only contests of this version: before it, the result was shown on the contest message itself.
 */
async function postLostResult(interaction: ComponentInteraction, context: HandlerContext, settings: ServerSettings, contest: StoredContest): Promise<void> {
  const round = contest.state.rounds.at(-1);
  if (!round || round.resultMessageId || contest.state.secretRoles !== true) return;
  const posted = await context.answer.followUp(contestResultMessage(viewOf(contest, settings), round, null));
  const linked = await linkResult(context, contest, round.number, posted.id);
  if (linked && fromMessage(interaction)) await interaction.message?.edit(contestMessage(viewOf(linked, settings, await sideSkills(context, linked.guildId, linked.state))));
}

/** Records the message a round's result was posted as, so the contest message keeps linking to it. */
async function linkResult(context: HandlerContext, contest: StoredContest, round: number, messageId: string): Promise<StoredContest | null> {
  for (let attempt = 1; attempt <= SAVE_ATTEMPTS; attempt++) {
    const current = attempt === 1 ? contest : await context.store.contests.find(contest.guildId, contest.id);
    if (!current) return null;
    const rounds = current.state.rounds.map((each) => (each.number === round ? { ...each, resultMessageId: messageId } : each));
    const saved = await context.store.contests.save(current, { ...current.state, rounds }, current.expiresAt);
    if (saved) return saved;
  }
  return null;
}

/** The round's roll as the roll log keeps it, under the id the message shows; saved with the round (one transaction). */
function roundEntry(context: HandlerContext, contestId: number, round: ContestRound, seed: string, names: Record<ContestSideName, string>): RollEntry {
  // Only what the roll needs: a linked side as its parts, a side with one skill in the shape rounds always had.
  const inputOf = (side: ContestSideRoll): ContestRollSideInput =>
    isLinkedRoll(side)
      ? { role: side.role, challengeLevel: side.challengeLevel, linked: side.linked.map(({ skill, terms }) => ({ skill, terms })) }
      : { skill: side.skill, role: side.role, terms: side.terms, challengeLevel: side.challengeLevel };
  return context.store.rolls.entry(round.rollId!, {
    ...rolledBy(context),
    kind: 'contest',
    // The reading of both failing the round was decided by, and the Operators' names, for /roll replay and /log.
    inputs: { contestId, round: round.number, challenger: inputOf(round.challenger), opponent: inputOf(round.opponent), bothFail: BOTH_FAIL_READING, names },
    seed,
    dice: contestDice(round),
    result: round,
    total: null,
    challengeLevel: null,
    success: null,
  });
}

/** Expires contests whose step ran out, at start-up and then on a timer, and greys out their message. */
async function sweep(client: Client, services: BotServices): Promise<void> {
  // Each server's contests are swept by the process running its shard: once, however many processes run.
  const unreadable = (contestId: number, error: unknown) => services.log.error({ err: error, contestId }, 'an overdue contest could not be read: passed over by the expiry sweep');
  for (const contest of await services.store.contests.overdue(services.now(), undefined, services.shards, unreadable)) {
    await inTurn(services.store, contest.id, async () => {
      const expired = applyContestAction(contest.state, { type: 'expire' }, { userId: '', isDispatcher: false, name: 'timer' }, seededRng('expire'));
      const saved = await services.store.contests.save(contest, expired, contest.expiresAt);
      if (!saved || !saved.messageId) return;
      try {
        const channel = await client.channels.fetch(saved.channelId);
        const settings = await services.store.servers.settings(saved.guildId);
        const view = viewOf(saved, settings, await sideSkills(services, saved.guildId, expired));
        if (channel?.isTextBased()) await channel.messages.edit(saved.messageId, contestMessage(view));
      } catch (error) {
        services.log.warn({ err: error, contestId: saved.id }, 'could not mark an expired contest on its message');
      }
    });
  }
}

/**
 * The sweep keeps the bot's clock (`services.now`), not the wall clock's timer: it is due once that clock has moved
 * SWEEP_INTERVAL_MS past the last sweep. With the real clock that is the usual sweep every 30 s; with a clock a
 * test injects, contests expire only when the test moves its clock, and `sweepContestsNow` lets it run that sweep
 * between two of its steps, so a seeded run expires the same contests at the same steps every time.
 */
const sweepers = new WeakMap<Client, () => Promise<void>>();

function startSweeper(client: Client, services: BotServices): () => void {
  let running = Promise.resolve();
  let sweptAt = -Infinity;
  const run = (): Promise<void> => {
    // Taken before the sweep starts, so a poll during a long sweep does not queue another for the same moment.
    sweptAt = services.now().getTime();
    running = running.then(() => sweep(client, services)).catch((error: unknown) => services.log.error({ err: error }, 'contest expiry sweep failed'));
    return running;
  };
  void run();
  sweepers.set(client, run);
  const timer = setInterval(() => {
    if (services.now().getTime() - sweptAt >= SWEEP_INTERVAL_MS) void run();
  }, SWEEP_POLL_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    sweepers.delete(client);
  };
}

/** Runs the expiry sweep of the bot logged in with `client` at its clock's current time, after any sweep under way. */
export function sweepContestsNow(client: Client): Promise<void> {
  const run = sweepers.get(client);
  if (!run) throw new Error('no contest sweeper runs for this client (the bot is not started, or stopped)');
  return run();
}

/** The buttons that answer with a form: accept (the opponent's stakes), adjust, and the skill menu's search. */
const mayOpenForm = (control: ContestControl): boolean => control.action === 'accept' || control.action === 'adjust' || control.action === 'skill';

export const contestCommand: BotCommand<ContestControl> = { data, systems: ['tactalk'], execute, autocomplete, ids: contestIds, component, mayOpenForm, start: startSweeper };
