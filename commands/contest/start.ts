/** `/contest start`: the challenger's terms, role and skill, posted as the contest's opening message. */
import type { AutocompleteInteraction, ChatInputCommandInteraction } from 'discord.js';
import type { HandlerContext } from '../../src/discord/command.js';
import { UserError } from '../../src/errors.js';
import { archetypeModifiers, conditionModifiers, findSkill, splitNameList, type OperatorSheet } from '../../src/engine/sheet.js';
import { CONTEST_LIMITS, postContest, proposeContest, type ContestChoice, type ContestRole } from '../../src/engine/systems/tactalk/contest.js';
import { contestOpening } from '../../src/views/contest/message.js';
import { messageLink } from '../../src/views/contest/view.js';
import { expiryFrom, memberName, viewOf } from './message.js';
import { inTurn } from './turns.js';
import { skillOrArchetypeChoices } from '../shared/roll-sheets.js';

/** A user option's member as the server names them (their nickname, else their display name). */
function optionMemberName(interaction: ChatInputCommandInteraction, option: string): string {
  const user = interaction.options.getUser(option, true);
  const member = interaction.options.getMember(option);
  if (member && 'displayName' in member) return member.displayName;
  const nick = member && 'nick' in member ? member.nick : null;
  return nick ?? user.globalName ?? user.username;
}

export async function start(interaction: ChatInputCommandInteraction, context: HandlerContext): Promise<void> {
  const opponent = interaction.options.getUser('opponent', true);
  await startContest(context, {
    opponent: { id: opponent.id, bot: opponent.bot, name: optionMemberName(interaction, 'opponent') },
    challengerName: memberName(interaction),
    intent: interaction.options.getString('intent', true),
    stakes: interaction.options.getString('stakes', true),
    skill: interaction.options.getString('skill', true),
    role: interaction.options.getString('role', true),
    archetypes: interaction.options.getString('archetypes'),
  });
}

/** What a challenger gives to start a contest: `/contest start`'s options, or the "Challenge to a contest" form. */
export interface ContestTerms {
  opponent: { id: string; bot: boolean; name: string };
  challengerName: string;
  intent: string;
  stakes: string;
  skill: string;
  role: string;
  archetypes: string | null;
}

/** Whom a contest may not be against, in /contest start's words (the context menu refuses before its form opens). */
export function refuseOpponent(opponent: { id: string; bot: boolean }, context: HandlerContext): void {
  if (opponent.bot) throw new UserError('You cannot contest a bot: a contest is between two players.');
  if (opponent.id === context.userId) throw new UserError('You cannot contest yourself. Pick another player.');
}

/** The one start of a contest, whichever way its terms were given: checked, drafted, posted as its opening message. */
export async function startContest(context: HandlerContext, terms: ContestTerms): Promise<void> {
  const { opponent, role } = terms;
  refuseOpponent(opponent, context);
  const { store } = context;
  const sheet = await store.operators.requireActive({ guildId: context.guildId, ownerId: context.userId }, 'tactalk', { command: '/contest start' });
  const settings = await store.servers.settings(context.guildId);
  if (role !== 'attacker' && role !== 'defender') throw new UserError('The role is **attacker** or **defender**.');
  const state = proposeContest({
    challengerId: context.userId,
    opponentId: opponent.id,
    challengerOperator: { id: sheet.id, name: sheet.name },
    challengerName: terms.challengerName,
    opponentName: opponent.name,
    intent: terms.intent,
    stakes: terms.stakes,
    addsOwnSkill: settings.contestAddsOwnSkill,
    choice: choiceFrom(sheet, role, terms.skill, terms.archetypes, context.now()),
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
export function choiceFrom(sheet: OperatorSheet, role: ContestRole, typedSkill: string, typedArchetypes: string | null, now: Date): ContestChoice {
  const skill = findSkill(sheet, typedSkill.trim());
  const names = splitNameList(typedArchetypes);
  return {
    role,
    skill: { name: skill.name, level: skill.level },
    conditionModifiers: conditionModifiers(sheet, skill.name, now),
    archetypeModifiers: archetypeModifiers(sheet, names),
  };
}

/** The challenger's skill and archetypes, from their active Tac Talk sheet. */
export async function autocomplete(interaction: AutocompleteInteraction, context: HandlerContext): Promise<void> {
  const focused = interaction.options.getFocused(true);
  const sheet = await context.store.operators.active({ guildId: context.guildId, ownerId: context.userId }, 'tactalk');
  if (!sheet) return interaction.respond([]);
  return interaction.respond(skillOrArchetypeChoices(sheet, focused.name, String(focused.value)));
}
