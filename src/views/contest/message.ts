/**
 * The one contest message, for every step of the flow (RULES 1.6): who contests whom, both sides' terms,
 * roles, skills and aptitudes, the live odds, the Dispatcher's changes, the result. Always readable by a
 * spectator; the components are the next step's buttons.
 */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, StringSelectMenuBuilder, type APIEmbedField } from 'discord.js';
import { nameKey } from '../../engine/names.js';
import {
  OPEN_PHASES,
  aptitudeOf,
  chosenSkills,
  contestOdds,
  partTerms,
  rolesSecret,
  rollTerms,
  successChances,
  type ContestRound,
  type ContestSide,
  type ContestSideName,
  type ContestState,
} from '../../engine/systems/tactalk/contest.js';
import { escapeMarkdown, formatTerms } from '../format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from '../limits.js';
import { SKILL_SEARCH_VALUE, contestIds, type ContestPress } from './ids.js';
import { nothingChangesLines, percentOf, standingSuccesses, whyLine } from './rounds.js';
import { afterTie, nextStep, outOfSkills, outOfSkillsText, skillsLeft, tieChoicesLine } from './steps.js';
import { COLOR, field, linkTo, shortName, type ContestView } from './view.js';
import { contestChangeText, contestEndText, contestNoticeText } from './words.js';

function sideLabel(side: ContestSide): string {
  return side.operator ? `${escapeMarkdown(side.operator.name)} (<@${side.userId}>)` : `<@${side.userId}>`;
}

function roleText(state: ContestState, side: ContestSideName): string {
  const own = state[side];
  if (own.role === null) return own.operator ? 'not chosen yet' : 'chosen when they accept';
  // Chosen privately (with /contest start and in the Accept form) and shown with the roll, so neither sways the other.
  if (rolesSecret(state)) return 'chosen, secret until the dice roll';
  // A role chosen on the message stays secret until both have chosen, so the first choice cannot sway the second.
  if (state.phase === 'roles') return 'chosen';
  return own.role === 'attacker' ? 'Attacker' : 'Defender';
}

function skillText(state: ContestState, side: ContestSideName): string {
  const own = state[side];
  const ready = own.ready ? ` ✅ ${state.secretRoles ? 'confirmed' : 'ready'}` : '';
  const otherSide = side === 'challenger' ? 'opponent' : 'challenger';
  const otherName = escapeMarkdown(shortName(state, otherSide));
  if (own.linked) {
    const parts = own.linked.map((part, index) => {
      const terms = partTerms(state, side, part);
      return `${index + 1}. **${escapeMarkdown(part.skill.name)} ${part.skill.level}**${terms.length ? ` adds${formatTerms(terms)}` : ''}`;
    });
    return [
      `**Linked roll** (set by the Dispatcher): one D100 per skill, each against ${otherName}'s aptitude; it succeeds only if every part does.`,
      ...parts,
      `Highest aptitude **${aptitudeOf(own)}**: the CL of ${otherName}'s roll${ready}`,
    ].join('\n');
  }
  if (!own.skill) return own.operator ? 'not chosen yet' : '*chosen when they accept*';
  const terms = rollTerms(state, side);
  const disputed = own.disputed ? ' (set by the Dispatcher)' : '';
  const adds = terms.length ? `\nadds${formatTerms(terms)}` : '';
  return `**${escapeMarkdown(own.skill.name)} ${own.skill.level}**${disputed}: the CL of ${otherName}'s roll${adds}${ready}`;
}

/** A round as one line on the contest message, linking to its result message. */
function roundLine(view: ContestView, round: ContestRound): string {
  const { state } = view;
  const side = (name: ContestSideName) => `${escapeMarkdown(shortName(state, name))} ${round[name].success ? '✅' : '❌'}`;
  const outcome = round.winner === 'tie' ? 'tie' : round.winner === 'nobody' ? 'nothing changes' : `${escapeMarkdown(shortName(state, round.winner))} wins`;
  const link = linkTo(view, round.resultMessageId);
  return `Round ${round.number}: ${side('challenger')} · ${side('opponent')} → **${outcome}**${link ? ` — [result and dice](${link})` : ' — result and dice below'}`;
}

export function contestEmbed(view: ContestView): EmbedBuilder {
  const { state } = view;
  const c = shortName(state, 'challenger');
  const o = shortName(state, 'opponent');
  const open = OPEN_PHASES.includes(state.phase);
  const embed = new EmbedBuilder().setTitle(truncate(`⚔️ Contest #${view.id}: ${c} vs ${o}`, DISCORD_LIMITS.embedTitle));
  const lines = [`${sideLabel(state.challenger)} contests <@${state.opponent.userId}>.`, `**Intent:** ${escapeMarkdown(state.intent)}`];
  const fields: APIEmbedField[] = [
    field(`If ${c} wins`, escapeMarkdown(state.challenger.stakes)),
    field(`If ${o} wins`, state.opponent.stakes ? escapeMarkdown(state.opponent.stakes) : '*stated when they accept*'),
  ];
  if (['roles', 'skills', 'tied', 'resolved'].includes(state.phase) || (state.phase !== 'proposed' && state.challenger.role) || (state.secretRoles && state.challenger.role)) {
    fields.push(field('Roles', `${escapeMarkdown(c)}: ${roleText(state, 'challenger')}\n${escapeMarkdown(o)}: ${roleText(state, 'opponent')}`));
  }
  const choosing = state.phase === 'skills' || (state.secretRoles === true && ['proposed', 'countered'].includes(state.phase));
  if (choosing) {
    fields.push(field(`${c}'s skill`, skillText(state, 'challenger'), true), field(`${o}'s skill`, skillText(state, 'opponent'), true));
    if (rolesSecret(state)) {
      // Who wins depends on the roles, which are secret until the roll: only each side's own chance is shown.
      const chances = successChances(state);
      if (chances) {
        const shown = (side: ContestSideName) => percentOf(chances[side].succeed, chances[side].outOf);
        fields.push(field('Chances for these choices', `${escapeMarkdown(c)}'s roll succeeds **${shown('challenger')}** · ${escapeMarkdown(o)}'s **${shown('opponent')}** (who wins depends on the roles, shown with the roll)`));
      }
    } else {
      const odds = contestOdds(state);
      if (odds) {
        const shown = (ways: bigint) => percentOf(ways, odds.outOf);
        // With a defender nobody ties, and both failing changes nothing; two attackers tie whenever both fail or succeed.
        const last = odds.nobody > 0n || odds.tie === 0n ? `both fail, nothing changes **${shown(odds.nobody)}**` : `tie **${shown(odds.tie)}**`;
        fields.push(field('Odds for these choices', `${escapeMarkdown(c)} wins **${shown(odds.challengerWins)}** · ${escapeMarkdown(o)} wins **${shown(odds.opponentWins)}** · ${last}`));
      }
    }
  }
  if (state.rounds.length) fields.push(field(state.rounds.length > 1 ? 'Rounds' : 'Result', state.rounds.slice(-5).map((round) => roundLine(view, round)).join('\n')));
  if (state.changes.length) fields.push(field('Dispatcher', state.changes.slice(-5).map((change) => escapeMarkdown(contestChangeText(change))).join('\n')));

  const last = state.rounds.at(-1);
  if (state.phase === 'resolved' && last?.winner === 'nobody') {
    lines.push('', ...nothingChangesLines(state, last), ...standingSuccesses(state, last));
    embed.setColor(COLOR.over);
  } else if (state.phase === 'resolved' && last && (last.winner === 'challenger' || last.winner === 'opponent')) {
    const winner = last.winner;
    const loser = winner === 'challenger' ? 'opponent' : 'challenger';
    lines.push('', `🏆 **${escapeMarkdown(shortName(state, winner))} wins.** ${whyLine(state, last)}`, `${escapeMarkdown(shortName(state, loser))} suffers ${escapeMarkdown(shortName(state, winner))}'s stated outcome:`, `> ${escapeMarkdown(state[winner].stakes)}`);
    lines.push(...standingSuccesses(state, last));
    embed.setColor(COLOR.won);
  } else if (state.phase === 'tied') {
    const choices = tieChoicesLine(state);
    lines.push('', '🤝 **Tie** between two attackers.', ...(last ? standingSuccesses(state, last) : []), ...(choices ? [choices] : []));
    embed.setColor(COLOR.tie);
  } else if (!open) {
    lines.push('', `⛔ ${escapeMarkdown(contestEndText(state) ?? 'The contest is over.')}`);
    embed.setColor(COLOR.over);
  } else {
    embed.setColor(COLOR.open);
  }
  const notice = contestNoticeText(state);
  if (open && notice) lines.push('', `⚠️ ${escapeMarkdown(notice)}`);
  for (const side of ['challenger', 'opponent'] as const) if (open && outOfSkills(view, side)) lines.push('', `⚠️ ${outOfSkillsText(view, side)}`);
  if (open) lines.push('', nextStep(view), `This step expires <t:${Math.floor(view.expiresAt.getTime() / 1000)}:R> (after ${view.timeoutMinutes} min without a move).`);
  embed.setDescription(truncate(lines.join('\n'), DISCORD_LIMITS.embedDescription)).addFields(fields.slice(0, DISCORD_LIMITS.embedFields));
  const rollIds = state.rounds.map((round) => round.rollId).filter(Boolean);
  embed.setFooter({ text: rollIds.length ? `Contest #${view.id} · rolls ${rollIds.join(', ')} · check with /roll replay` : `Contest #${view.id}` });
  return embed;
}

function button(id: string, label: string, style: ButtonStyle, disabled: boolean): ButtonBuilder {
  return new ButtonBuilder().setCustomId(id).setLabel(label).setStyle(style).setDisabled(disabled);
}

function skillMenu(view: ContestView, side: ContestSideName, disabled: boolean): ActionRowBuilder<StringSelectMenuBuilder> | null {
  const { state } = view;
  const own = state[side];
  const skills = skillsLeft(view, side) ?? [];
  const searchable = skills.length > DISCORD_LIMITS.selectOptions;
  const shown = searchable ? skills.slice(0, DISCORD_LIMITS.selectOptions - 1) : skills;
  const options = shown.map((skill) => ({
    label: truncate(`${skill.name} (${skill.level})`, 100),
    value: truncate(skill.name, 100),
    default: own.skill !== null && nameKey(own.skill.name) === nameKey(skill.name),
  }));
  if (searchable) options.push({ label: `🔎 Search all ${skills.length} skills by name…`, value: SKILL_SEARCH_VALUE, default: false });
  if (options.length === 0) return null;
  const menu = new StringSelectMenuBuilder()
    .setCustomId(contestIds.encode({ action: 'skill', contestId: view.id, side }))
    .setPlaceholder(truncate(`${shortName(state, side)}: pick your skill`, 150))
    .setDisabled(disabled || own.disputed)
    .addOptions(options);
  return new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu);
}

/** The next step's buttons; `disabled` renders them greyed out (an expired contest). */
export function contestComponents(view: ContestView, disabled = false) {
  const { state, id: contestId } = view;
  const press = (action: ContestPress) => contestIds.encode({ action, contestId });
  const cancel = button(press('cancel'), 'Cancel (Dispatcher)', ButtonStyle.Secondary, disabled);
  // The challenger may withdraw at any step until the dice first roll; after a tie, ending takes both.
  const withdraw = state.rounds.length === 0 ? [button(press('withdraw'), 'Withdraw', ButtonStyle.Danger, disabled)] : [];
  const adjust = button(press('adjust'), 'Dispatcher: adjust', ButtonStyle.Secondary, disabled);
  const row = (...buttons: ButtonBuilder[]) => new ActionRowBuilder<ButtonBuilder>().addComponents(...buttons).toJSON();
  const phase = state.phase === 'expired' ? (state.expiredAt ?? 'expired') : state.phase;
  const firstRound = state.secretRoles === true && state.rounds.length === 0;
  const confirmLabel = firstRound ? 'Confirm' : 'Ready';
  switch (phase) {
    case 'proposed':
      return [row(button(press('accept'), 'Accept', ButtonStyle.Success, disabled), button(press('decline'), 'Decline', ButtonStyle.Danger, disabled), ...withdraw, cancel)];
    case 'countered': {
      const bothChosen = chosenSkills(state.challenger).length > 0 && chosenSkills(state.opponent).length > 0;
      const confirm = bothChosen && !state.opponent.ready ? [button(press('ready'), `Confirm (${truncate(shortName(state, 'opponent'), 40)})`, ButtonStyle.Primary, disabled)] : [];
      return [row(button(press('agree'), 'Agree', ButtonStyle.Success, disabled), ...withdraw, ...confirm, ...(bothChosen ? [adjust] : []), cancel)];
    }
    case 'roles':
      return [row(button(contestIds.encode({ action: 'role', contestId, role: 'attacker' }), 'Attacker', ButtonStyle.Primary, disabled), button(contestIds.encode({ action: 'role', contestId, role: 'defender' }), 'Defender', ButtonStyle.Primary, disabled), ...withdraw, cancel)];
    case 'skills': {
      // The first round's skills were chosen with /contest start and in the Accept form; later rounds pick here.
      const menus = firstRound ? [] : (['challenger', 'opponent'] as const).map((side) => skillMenu(view, side, disabled)).filter((menu) => menu !== null).map((menu) => menu.toJSON());
      // After a tie the players chose to go on, and may still accept the tie instead (a side with no skill left must).
      const acceptTie = afterTie(state) ? [button(press('accepttie'), 'Accept the tie', ButtonStyle.Secondary, disabled)] : [];
      return [...menus, row(button(press('ready'), confirmLabel, ButtonStyle.Success, disabled), ...acceptTie, adjust, ...withdraw, cancel)];
    }
    case 'tied':
      return [row(button(press('again'), 'Another round', ButtonStyle.Primary, disabled), button(press('accepttie'), 'Accept the tie', ButtonStyle.Secondary, disabled), cancel)];
    default:
      return [];
  }
}

/** The contest's message: a body that can be posted or edited in (views/messages.ts's MessageBody). */
export function contestMessage(view: ContestView) {
  return {
    content: `<@${view.state.opponent.userId}>, you are challenged to a contest by <@${view.state.challenger.userId}>.`,
    embeds: [contestEmbed(view).toJSON()],
    components: contestComponents(view, view.state.phase === 'expired'),
    allowedMentions: NO_PINGS,
  };
}

/** The first message pings the opponent, and only them. */
export function contestOpening(view: ContestView) {
  return { ...contestMessage(view), allowedMentions: { parse: [] as never[], users: [view.state.opponent.userId] } };
}
