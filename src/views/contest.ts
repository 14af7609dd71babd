/**
 * The one contest message, for every step of the flow (RULES 1.6): who contests whom, both sides' terms,
 * roles, skills and aptitudes, the live odds, the Dispatcher's changes, the result. Always readable by a
 * spectator; the components are the next step's buttons.
 */
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  EmbedBuilder,
  ModalBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type APIEmbedField,
} from 'discord.js';
import { nameKey } from '../engine/names.js';
import type { SkillEntry } from '../engine/sheet.js';
import {
  CONTEST_LIMITS,
  aptitudeOf,
  contestOdds,
  isLinkedRoll,
  partTerms,
  rollTerms,
  tieChoiceOf,
  type ContestLinkedPart,
  type ContestPartRoll,
  type ContestRound,
  type ContestSide,
  type ContestSideName,
  type ContestSideRoll,
  type ContestState,
} from '../engine/systems/tactalk/contest.js';
import { escapeMarkdown, formatD100, formatTerms, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody } from './messages.js';

export const SKILL_SEARCH_VALUE = '__search__';
const COLOR = { open: 0x2c3e50, won: 0x2e9e5b, tie: 0xd4ac0d, over: 0x7f8c8d } as const;

export interface ContestView {
  id: number;
  state: ContestState;
  expiresAt: Date;
  timeoutMinutes: number;
  /** Each side's skills, for the skill menus (only needed while skills are picked). */
  skills?: Partial<Record<ContestSideName, SkillEntry[]>>;
}

function sideLabel(side: ContestSide): string {
  return side.operator ? `${escapeMarkdown(side.operator.name)} (<@${side.userId}>)` : `<@${side.userId}>`;
}

function shortName(state: ContestState, side: ContestSideName): string {
  return state[side].operator?.name ?? (side === 'challenger' ? 'Challenger' : 'Opponent');
}

/**
 * `ways` of `outOf` as a percentage. Exact whenever it has at most 4 decimals (always with one D100 a side, and with
 * a linked side of two skills against one); a longer one is rounded to 4 decimals and says so with ≈.
 */
export function percentOf(ways: bigint, outOf: bigint): string {
  const scaled = ways * 1_000_000n; // the percentage × 10^4
  const exact = scaled % outOf === 0n;
  const tenThousandths = exact ? scaled / outOf : (scaled * 2n + outOf) / (2n * outOf);
  let decimals = (tenThousandths % 10_000n).toString().padStart(4, '0').replace(/0+$/, '');
  if (decimals.length === 1) decimals += '0';
  return `${exact ? '' : '≈'}${tenThousandths / 10_000n}${decimals ? `.${decimals}` : ''}%`;
}

function field(name: string, value: string, inline = false): APIEmbedField {
  return { name: truncate(name, DISCORD_LIMITS.fieldName), value: truncate(value || '—', DISCORD_LIMITS.fieldValue), inline };
}

function roleText(state: ContestState, side: ContestSideName): string {
  const own = state[side];
  if (own.role === null) return 'not chosen yet';
  // A role stays secret until both have chosen, so the first choice cannot sway the second.
  if (state.phase === 'roles') return 'chosen';
  return own.role === 'attacker' ? 'Attacker' : 'Defender';
}

function skillText(state: ContestState, side: ContestSideName): string {
  const own = state[side];
  const ready = own.ready ? ' ✅ ready' : '';
  const otherName = escapeMarkdown(shortName(state, side === 'challenger' ? 'opponent' : 'challenger'));
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
  if (!own.skill) return 'not chosen yet';
  const terms = rollTerms(state, side);
  const disputed = own.disputed ? ' (set by the Dispatcher)' : '';
  const adds = terms.length ? `\nadds${formatTerms(terms)}` : '';
  return `**${escapeMarkdown(own.skill.name)} ${own.skill.level}**${disputed}: the CL of ${otherName}'s roll${adds}${ready}`;
}

function nextStep(view: ContestView): string {
  const { state } = view;
  const c = escapeMarkdown(shortName(state, 'challenger'));
  switch (state.phase) {
    case 'proposed':
      return `Waiting for <@${state.opponent.userId}> to **Accept** (and state their own terms) or **Decline**.`;
    case 'countered':
      return `Waiting for <@${state.challenger.userId}> (${c}) to **Agree** to both terms or **Withdraw**. No bargaining: terms cannot be edited.`;
    case 'roles':
      return 'Each player picks **Attacker** or **Defender**. Both defenders: no contest.';
    case 'skills':
      return 'Each player picks a skill from their own sheet, then presses **Ready**. When both are ready, both sides roll at once.';
    case 'tied':
      return 'Two attackers and a tie: both choose **Another round** (new skills, none used before) or both **Accept the tie** and decide the outcome together. Each may change their choice until both agree.';
    default:
      return '';
  }
}

function verdict(success: boolean): string {
  return success ? '✅ success' : '❌ failure';
}

function partLine(part: ContestPartRoll): string {
  return `${part.d100.value} (D100)${formatTerms(part.terms)} = **${part.result}** vs CL ${part.challengeLevel} → ${verdict(part.success)}`;
}

/**
 * A side's roll as the result and `/roll replay` show it: the skills (the field's title) and the dice. A linked side
 * shows each part on its own line, then "N of M succeeded".
 */
export function contestSideRollText(roll: ContestSideRoll): { skills: string; dice: string } {
  if (!isLinkedRoll(roll)) return { skills: `${roll.skill.name} ${roll.skill.level}`, dice: `🎲 \`${formatD100(roll.d100)}\`\n${partLine(roll)}` };
  const lines = roll.linked.map((part, index) => `${index + 1}. **${escapeMarkdown(part.skill.name)} ${part.skill.level}** 🎲 \`${formatD100(part.d100)}\`\n${partLine(part)}`);
  const summary = `**${roll.succeeded} of ${roll.linked.length} succeeded** → ${verdict(roll.success)}${roll.success ? '' : ' (a linked roll succeeds only if every part does)'}`;
  return { skills: `linked roll: ${roll.linked.map((part) => `${part.skill.name} ${part.skill.level}`).join(' + ')}`, dice: [...lines, summary].join('\n') };
}

function roundField(state: ContestState, round: ContestRound, side: ContestSideName): APIEmbedField {
  const roll = round[side];
  const { skills, dice } = contestSideRollText(roll);
  return field(`${shortName(state, side)} (${roll.role}): ${skills}`, dice, true);
}

/** RULES 1.3: a part that succeeded stands even when its linked roll, and with it the contest, was lost. */
function standingSuccesses(state: ContestState, round: ContestRound): string[] {
  return (['challenger', 'opponent'] as const).flatMap((side) => {
    const roll = round[side];
    if (!isLinkedRoll(roll) || roll.success || roll.succeeded === 0) return [];
    const succeeded = roll.linked.filter((part) => part.success).map((part) => `**${escapeMarkdown(part.skill.name)}**`);
    return [`${escapeMarkdown(shortName(state, side))}'s linked roll failed, but ${succeeded.join(', ')} succeeded: ${succeeded.length > 1 ? 'those parts stand' : 'that part stands'}, exactly as described.`];
  });
}

/** After a tie: what each player chose so far ("Kat accepts the tie — waiting for Troy"). */
function tieChoicesLine(state: ContestState): string | null {
  const choice = (side: ContestSideName) => tieChoiceOf(state[side]);
  const says = (side: ContestSideName) => {
    const name = escapeMarkdown(shortName(state, side));
    const changed = state[side].tieChoiceChanged ? ' (changed their mind)' : '';
    return `${name} ${choice(side) === 'accept' ? 'accepts the tie' : 'wants another round'}${changed}`;
  };
  const [c, o] = [choice('challenger'), choice('opponent')];
  if (c === null && o === null) return null;
  if (c !== null && o !== null) return `${says('challenger')}; ${says('opponent')}: they disagree. Either may change their choice with the other button.`;
  const chosen: ContestSideName = c !== null ? 'challenger' : 'opponent';
  return `${says(chosen)} — waiting for ${escapeMarkdown(shortName(state, chosen === 'challenger' ? 'opponent' : 'challenger'))}.`;
}

export function contestEmbed(view: ContestView): EmbedBuilder {
  const { state } = view;
  const c = shortName(state, 'challenger');
  const o = state.opponent.operator ? shortName(state, 'opponent') : 'an opponent';
  const open = ['proposed', 'countered', 'roles', 'skills', 'tied'].includes(state.phase);
  const embed = new EmbedBuilder().setTitle(truncate(`⚔️ Contest #${view.id}: ${c} vs ${o}`, DISCORD_LIMITS.embedTitle));
  const lines = [`${sideLabel(state.challenger)} contests <@${state.opponent.userId}>.`, `**Intent:** ${escapeMarkdown(state.intent)}`];
  const fields: APIEmbedField[] = [
    field(`If ${c} wins`, escapeMarkdown(state.challenger.stakes)),
    field(`If ${state.opponent.operator ? shortName(state, 'opponent') : 'the opponent'} wins`, state.opponent.stakes ? escapeMarkdown(state.opponent.stakes) : '*stated when they accept*'),
  ];
  if (['roles', 'skills', 'tied', 'resolved'].includes(state.phase) || (state.phase !== 'proposed' && state.challenger.role)) {
    fields.push(field('Roles', `${escapeMarkdown(c)}: ${roleText(state, 'challenger')}\n${escapeMarkdown(o)}: ${roleText(state, 'opponent')}`));
  }
  if (state.phase === 'skills') {
    fields.push(field(`${c}'s skill`, skillText(state, 'challenger'), true), field(`${o}'s skill`, skillText(state, 'opponent'), true));
    const odds = contestOdds(state);
    if (odds) {
      const shown = (ways: bigint) => percentOf(ways, odds.outOf);
      fields.push(field('Odds for these choices', `${escapeMarkdown(c)} wins **${shown(odds.challengerWins)}** · ${escapeMarkdown(o)} wins **${shown(odds.opponentWins)}** · tie **${shown(odds.tie)}**`));
    }
  }
  for (const round of state.rounds.slice(-3)) {
    fields.push(roundField(state, round, 'challenger'), roundField(state, round, 'opponent'));
    if (state.rounds.length > 1) fields.push(field(`Round ${round.number}`, round.winner === 'tie' ? 'Tie.' : `${shortName(state, round.winner)} wins.`));
  }
  if (state.changes.length) fields.push(field('Dispatcher', state.changes.slice(-5).map(escapeMarkdown).join('\n')));

  const last = state.rounds.at(-1);
  if (state.phase === 'resolved' && last && last.winner !== 'tie') {
    const winner = last.winner;
    const loser = winner === 'challenger' ? 'opponent' : 'challenger';
    lines.push('', `🏆 **${escapeMarkdown(shortName(state, winner))} wins.** ${escapeMarkdown(shortName(state, loser))} suffers ${escapeMarkdown(shortName(state, winner))}'s stated outcome:`, `> ${escapeMarkdown(state[winner].stakes)}`);
    lines.push(...standingSuccesses(state, last));
    embed.setColor(COLOR.won);
  } else if (state.phase === 'tied') {
    const choices = tieChoicesLine(state);
    lines.push('', '🤝 **Tie** between two attackers.', ...(last ? standingSuccesses(state, last) : []), ...(choices ? [choices] : []));
    embed.setColor(COLOR.tie);
  } else if (!open) {
    lines.push('', `⛔ ${escapeMarkdown(state.endReason ?? 'The contest is over.')}`);
    embed.setColor(COLOR.over);
  } else {
    embed.setColor(COLOR.open);
  }
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
  const used = new Set(own.usedSkills.map(nameKey));
  const skills = (view.skills?.[side] ?? []).filter((skill) => !used.has(nameKey(skill.name)));
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
    .setCustomId(`contest:skill:${view.id}:${side}`)
    .setPlaceholder(truncate(`${shortName(state, side)}: pick your skill`, 150))
    .setDisabled(disabled || own.disputed)
    .addOptions(options);
  return new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(menu);
}

/** The next step's buttons; `disabled` renders them greyed out (an expired contest). */
export function contestComponents(view: ContestView, disabled = false) {
  const { state, id } = view;
  const cancel = button(`contest:cancel:${id}`, 'Cancel (Dispatcher)', ButtonStyle.Secondary, disabled);
  const row = (...buttons: ButtonBuilder[]) => new ActionRowBuilder<ButtonBuilder>().addComponents(...buttons).toJSON();
  const phase = state.phase === 'expired' ? (state.expiredAt ?? 'expired') : state.phase;
  switch (phase) {
    case 'proposed':
      return [row(button(`contest:accept:${id}`, 'Accept', ButtonStyle.Success, disabled), button(`contest:decline:${id}`, 'Decline', ButtonStyle.Danger, disabled), cancel)];
    case 'countered':
      return [row(button(`contest:agree:${id}`, 'Agree', ButtonStyle.Success, disabled), button(`contest:withdraw:${id}`, 'Withdraw', ButtonStyle.Danger, disabled), cancel)];
    case 'roles':
      return [row(button(`contest:role:${id}:attacker`, 'Attacker', ButtonStyle.Primary, disabled), button(`contest:role:${id}:defender`, 'Defender', ButtonStyle.Primary, disabled), cancel)];
    case 'skills': {
      const menus = (['challenger', 'opponent'] as const).map((side) => skillMenu(view, side, disabled)).filter((menu) => menu !== null).map((menu) => menu.toJSON());
      return [
        ...menus,
        row(button(`contest:ready:${id}`, 'Ready', ButtonStyle.Success, disabled), button(`contest:adjust:${id}`, 'Dispatcher: adjust', ButtonStyle.Secondary, disabled), cancel),
      ];
    }
    case 'tied':
      return [row(button(`contest:again:${id}`, 'Another round', ButtonStyle.Primary, disabled), button(`contest:accepttie:${id}`, 'Accept the tie', ButtonStyle.Secondary, disabled), cancel)];
    default:
      return [];
  }
}

export function contestMessage(view: ContestView): MessageBody {
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

export function acceptModal(id: number, activeSheetName: string | null) {
  const operator = new TextInputBuilder()
    .setCustomId('operator')
    .setLabel('Your Operator in this contest')
    .setStyle(TextInputStyle.Short)
    .setRequired(true)
    .setMaxLength(64);
  if (activeSheetName) operator.setValue(activeSheetName);
  return new ModalBuilder()
    .setCustomId(`contest:acceptform:${id}`)
    .setTitle(`Accept contest #${id}`)
    .addComponents(
      new ActionRowBuilder<TextInputBuilder>().addComponents(
        new TextInputBuilder()
          .setCustomId('stakes')
          .setLabel('If you win, what happens to the challenger?')
          .setStyle(TextInputStyle.Paragraph)
          .setRequired(true)
          .setMaxLength(CONTEST_LIMITS.stakesLength),
      ),
      new ActionRowBuilder<TextInputBuilder>().addComponents(operator),
    );
}

export function skillSearchModal(id: number, side: ContestSideName) {
  return new ModalBuilder()
    .setCustomId(`contest:searchform:${id}:${side}`)
    .setTitle('Pick a skill by name')
    .addComponents(
      new ActionRowBuilder<TextInputBuilder>().addComponents(
        new TextInputBuilder().setCustomId('skill').setLabel('Skill name (as on your sheet)').setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(64),
      ),
    );
}

/** A linked side as the Dispatcher's form writes it: `Handgun Handling +Acuity; Driving -10`. */
export function linkedNotation(parts: ContestLinkedPart[]): string {
  return parts
    .map((part) => [part.skill.name, ...part.archetypeModifiers.map((modifier) => `+${modifier.name}`), ...(part.situationalModifier ? [signedCompact(part.situationalModifier).replace('−', '-')] : [])].join(' '))
    .join('; ');
}

/** The Dispatcher's form: both skills (or linked rolls), both sides' archetypes, both situational modifiers, prefilled. */
export function adjustModal(id: number, state: ContestState) {
  const input = (customId: string, label: string, value: string, options: { required?: boolean; placeholder?: string; maxLength?: number } = {}) => {
    const text = new TextInputBuilder()
      .setCustomId(customId)
      .setLabel(truncate(label, 45))
      .setStyle(TextInputStyle.Short)
      .setRequired(options.required ?? false)
      .setMaxLength(options.maxLength ?? 200);
    if (options.placeholder) text.setPlaceholder(truncate(options.placeholder, 100));
    if (value) text.setValue(value);
    return new ActionRowBuilder<TextInputBuilder>().addComponents(text);
  };
  const c = shortName(state, 'challenger');
  const o = shortName(state, 'opponent');
  const names = (side: ContestSideName) => state[side].archetypeModifiers.map((modifier) => modifier.name).join(', ');
  const skills = (side: ContestSideName) => {
    const own: ContestSide = state[side];
    return own.linked ? linkedNotation(own.linked) : (own.skill?.name ?? '');
  };
  // One skill, or a linked roll: its skills separated by `;`, each with its own +Archetype and ±N terms.
  const skillHelp = 'One skill, or a linked roll: Handgun Handling +Acuity; Driving -10';
  const skillLength = 600;
  return new ModalBuilder()
    .setCustomId(`contest:adjustform:${id}`)
    .setTitle(`Dispatcher: contest #${id}`)
    .addComponents(
      input('challenger_skill', `${c}'s skill (dispute; a; b = linked)`, skills('challenger'), { placeholder: skillHelp, maxLength: skillLength }),
      input('opponent_skill', `${o}'s skill (dispute; a; b = linked)`, skills('opponent'), { placeholder: skillHelp, maxLength: skillLength }),
      input('challenger_archetypes', `${c}'s archetypes (comma list)`, names('challenger'), { placeholder: 'Added to every part of a linked roll' }),
      input('opponent_archetypes', `${o}'s archetypes (comma list)`, names('opponent'), { placeholder: 'Added to every part of a linked roll' }),
      input('modifiers', `Situational: ${c}, ${o} (e.g. 0, -10)`, `${signedCompact(state.challenger.situationalModifier).replace('−', '-')}, ${signedCompact(state.opponent.situationalModifier).replace('−', '-')}`, { required: true }),
    );
}
