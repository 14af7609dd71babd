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
  LabelBuilder,
  ModalBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type APIEmbedField,
} from 'discord.js';
import { UserError } from '../errors.js';
import { nameKey } from '../engine/names.js';
import type { SkillEntry } from '../engine/sheet.js';
import {
  CONTEST_LIMITS,
  OPEN_PHASES,
  aptitudeOf,
  chosenSkills,
  contestOdds,
  isLinkedRoll,
  partTerms,
  rolesSecret,
  rollTerms,
  sideName,
  successChances,
  tieChoiceOf,
  waitingOn,
  type ContestAction,
  type ContestChange,
  type ContestLinkedPart,
  type ContestPartRoll,
  type ContestRefusalData,
  type PlainMove,
  type ContestRound,
  type ContestSide,
  type ContestRole,
  type ContestSideName,
  type ContestSideRoll,
  type ContestState,
} from '../engine/systems/tactalk/contest.js';
import { parseLinkedRoll, type LinkedRollPart } from '../engine/systems/tactalk/linked-notation.js';
import { BUTTON, componentIds, oneOf, SELECT, wholeNumber } from './component-id.js';
import { escapeMarkdown, formatD100, formatTerms, signedCompact } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';

export const SKILL_SEARCH_VALUE = '__search__';
const COLOR = { open: 0x2c3e50, won: 0x2e9e5b, tie: 0xd4ac0d, over: 0x7f8c8d } as const;

export interface ContestView {
  id: number;
  state: ContestState;
  expiresAt: Date;
  timeoutMinutes: number;
  /** Each side's skills, for the skill menus (only needed while skills are picked). */
  skills?: Partial<Record<ContestSideName, SkillEntry[]>>;
  /** Where the contest is, for links to its message and to each round's result. */
  where?: { guildId: string; channelId: string; messageId: string | null };
}

/** A discord.com link to a message. */
export function messageLink(guildId: string, channelId: string, messageId: string): string {
  return `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
}

function linkTo(view: ContestView, messageId: string | null | undefined): string | null {
  return view.where && messageId ? messageLink(view.where.guildId, view.where.channelId, messageId) : null;
}

function sideLabel(side: ContestSide): string {
  return side.operator ? `${escapeMarkdown(side.operator.name)} (<@${side.userId}>)` : `<@${side.userId}>`;
}

/** A side by name: its Operator's, or the challenged player's own until they accept (see `sideName`). */
function shortName(state: ContestState, side: ContestSideName): string {
  return sideName(state, side);
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

/** Whether this round follows a tie: its players may still accept the tie instead of picking a skill. */
function afterTie(state: ContestState): boolean {
  return state.rounds.at(-1)?.winner === 'tie';
}

/**
 * The skills a side may still pick, as its sheet holds them now (none rolled in an earlier round of the contest);
 * null when the view was drawn without the sheets.
 */
function skillsLeft(view: ContestView, side: ContestSideName): SkillEntry[] | null {
  const skills = view.skills?.[side];
  if (!skills) return null;
  const used = new Set(view.state[side].usedSkills.map(nameKey));
  return skills.filter((skill) => !used.has(nameKey(skill.name)));
}

/** A side that must pick a skill and has none left to pick: it is stuck unless told what it can do. */
function outOfSkills(view: ContestView, side: ContestSideName): boolean {
  const own = view.state[side];
  return view.state.phase === 'skills' && chosenSkills(own).length === 0 && !own.disputed && skillsLeft(view, side)?.length === 0;
}

/** What a side with no skill left can do, for the message and its prompt. */
function outOfSkillsText(view: ContestView, side: ContestSideName): string {
  const { state } = view;
  const name = escapeMarkdown(shortName(state, side));
  const used = state[side].usedSkills.map((skill) => `**${escapeMarkdown(skill)}**`).join(', ');
  const tie = afterTie(state)
    ? ', or press **Accept the tie**, which then ends the contest as a tie'
    : side === 'challenger' && state.rounds.length === 0
      ? ', or **Withdraw**'
      : '';
  return `${name} has no skill left that was not rolled in this contest${used ? ` (rolled: ${used})` : ''}. Add one to ${name}'s sheet with \`/sheet skill set\` and press **Ready** to have it offered${tie}.`;
}

function nextStep(view: ContestView): string {
  const { state } = view;
  const c = escapeMarkdown(shortName(state, 'challenger'));
  switch (state.phase) {
    case 'proposed':
      return state.challenger.skill
        ? `Waiting for <@${state.opponent.userId}> to **Accept** (one form: their terms, role and skill) or **Decline**.`
        : `Waiting for <@${state.opponent.userId}> to **Accept** (and state their own terms) or **Decline**.`;
    case 'countered': {
      const rolls = state.challenger.role && state.opponent.role ? ': the dice roll as soon as they agree' : '';
      const confirm = waitingOn(state).includes('opponent') ? ` and for <@${state.opponent.userId}> to **Confirm** the Dispatcher's change` : '';
      return `Waiting for <@${state.challenger.userId}> (${c}) to **Agree** to both terms${rolls}, or **Withdraw**${confirm}. No bargaining: terms cannot be edited. A Dispatcher may adjust before then.`;
    }
    case 'roles':
      return 'Each player picks **Attacker** or **Defender**. Both defenders: no contest.';
    case 'skills': {
      if (state.secretRoles && state.rounds.length === 0) {
        const waiting = waitingOn(state).map((side) => `<@${state[side].userId}>`);
        return `Waiting for ${waiting.join(' and ')} to **Confirm**; the dice roll when both have.`;
      }
      const pick = 'Each player picks a skill from their own sheet, then presses **Ready**. When both are ready, both sides roll at once.';
      if (!afterTie(state)) return pick;
      const choices = tieChoicesLine(state);
      return `${pick} Either may instead **Accept the tie**: it ends when both do, or when one with no skill left does.${choices ? `\n${choices}` : ''}`;
    }
    case 'tied':
      return 'Two attackers and a tie: both choose **Another round** (new skills, none used before) or both **Accept the tie** and decide the outcome together. Each may change their choice until both agree.';
    default:
      return '';
  }
}

function verdict(success: boolean): string {
  return success ? '✅ success' : '❌ failure';
}

/** The skill whose aptitude is a side's CL for the other: its one skill, or a linked side's highest. */
function aptitudeSkill(roll: ContestSideRoll): { name: string; level: number } {
  const skills = isLinkedRoll(roll) ? roll.linked.map((part) => part.skill) : [roll.skill];
  return skills.reduce((best, skill) => (skill.level > best.level ? skill : best));
}

/**
 * One D100 and its sum: the D100 plus what this side adds (archetypes, conditions, the situational modifier, its own
 * skill only under the house rule) = total, against the CL, which is the other side's aptitude and is named as such.
 */
function partLine(part: ContestPartRoll, against?: { roll: ContestSideRoll; name: string }): string {
  const source = against ? ` (${escapeMarkdown(against.name)}'s ${escapeMarkdown(aptitudeSkill(against.roll).name)})` : '';
  return `${part.d100.value} (D100)${formatTerms(part.terms)} = **${part.result}** vs CL ${part.challengeLevel}${source} → ${verdict(part.success)}`;
}

/**
 * A side's roll as the result and `/roll replay` show it: the skills (the field's title) and the dice. A side's own
 * aptitude is not part of its sum (it is the other side's CL), so the title names the skill without it and the CL
 * says whose skill it is. A linked side shows each part on its own line, then "N of M succeeded".
 */
export function contestSideRollText(roll: ContestSideRoll, against?: { roll: ContestSideRoll; name: string }): { skills: string; dice: string } {
  if (!isLinkedRoll(roll)) return { skills: roll.skill.name, dice: `🎲 \`${formatD100(roll.d100)}\`\n${partLine(roll, against)}` };
  const lines = roll.linked.map((part, index) => `${index + 1}. **${escapeMarkdown(part.skill.name)}** 🎲 \`${formatD100(part.d100)}\`\n${partLine(part, against)}`);
  const summary = `**${roll.succeeded} of ${roll.linked.length} succeeded** → ${verdict(roll.success)}${roll.success ? '' : ' (a linked roll succeeds only if every part does)'}`;
  return { skills: `linked roll: ${roll.linked.map((part) => part.skill.name).join(' + ')}`, dice: [...lines, summary].join('\n') };
}

function roundField(state: ContestState, round: ContestRound, side: ContestSideName): APIEmbedField {
  const roll = round[side];
  const otherSide = side === 'challenger' ? 'opponent' : 'challenger';
  const { skills, dice } = contestSideRollText(roll, { roll: round[otherSide], name: shortName(state, otherSide) });
  return field(`${shortName(state, side)} (${roll.role}): ${skills}`, dice, true);
}

/**
 * Why the round ended as it did (RULES 1.6): "Both succeeded: the defender wins." A round rolled before both failing
 * meant nothing changes says how it was decided then.
 */
export function whyLine(state: ContestState, round: ContestRound): string {
  const name = (side: ContestSideName) => escapeMarkdown(shortName(state, side));
  const [c, o] = [round.challenger.success, round.opponent.success];
  if (c !== o) return c ? `${name('challenger')} succeeded and ${name('opponent')} failed.` : `${name('opponent')} succeeded and ${name('challenger')} failed.`;
  const both = c ? 'Both succeeded' : 'Both failed';
  if (round.winner === 'tie') return `${both} and both are attackers: a tie.`;
  if (round.winner === 'nobody') return 'Both failed: nothing changes.';
  return c ? `${both}: the defender wins.` : `${both}: the defender wins (as both failing was read when this round was rolled).`;
}

/**
 * Both failed with a defender (RULES 1.6, reading revised): nobody wins. The attacker's intent fails, and the defender's
 * stated outcome does not happen either.
 */
function nothingChangesLines(state: ContestState, round: ContestRound): string[] {
  const attacker: ContestSideName = round.challenger.role === 'attacker' ? 'challenger' : 'opponent';
  const defender: ContestSideName = attacker === 'challenger' ? 'opponent' : 'challenger';
  const [a, d] = [escapeMarkdown(shortName(state, attacker)), escapeMarkdown(shortName(state, defender))];
  return [`🚫 **Both failed: nothing changes.** ${a}'s intent fails, and ${d}'s stated outcome does not happen either.`];
}

/** A round's outcome in a few words: "Kat wins", "a tie", "nothing changes". */
function outcomeWords(state: ContestState, round: ContestRound): string {
  if (round.winner === 'tie') return 'a tie';
  if (round.winner === 'nobody') return 'both failed, nothing changes';
  return `${shortName(state, round.winner)} wins`;
}

/** A round as one line on the contest message, linking to its result message. */
function roundLine(view: ContestView, round: ContestRound): string {
  const { state } = view;
  const side = (name: ContestSideName) => `${escapeMarkdown(shortName(state, name))} ${round[name].success ? '✅' : '❌'}`;
  const outcome = round.winner === 'tie' ? 'tie' : round.winner === 'nobody' ? 'nothing changes' : `${escapeMarkdown(shortName(state, round.winner))} wins`;
  const link = linkTo(view, round.resultMessageId);
  return `Round ${round.number}: ${side('challenger')} · ${side('opponent')} → **${outcome}**${link ? ` — [result and dice](${link})` : ' — result and dice below'}`;
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

// What the contest stores and refuses is data (src/engine/systems/tactalk/contest.ts); these are its words. A contest
// stored before they were data holds sentences, shown as they are.

/** A list of skills as the Dispatcher's changes name them: "Handgun Handling 40 + Driving 30". */
const skillsText = (skills: { name: string; level: number }[]) => skills.map((skill) => `${skill.name} ${skill.level}`).join(' + ');

/** "Kat accepted the tie; Troy had not chosen": each side's choice after a tie, in the players' words. */
function tieChoicesText(state: ContestState): string {
  const one = (side: ContestSideName) => {
    const choice = tieChoiceOf(state[side]);
    return `${shortName(state, side)} ${choice === 'accept' ? 'accepted the tie' : choice === 'another' ? 'wanted another round' : 'had not chosen'}`;
  };
  return `${one('challenger')}; ${one('opponent')}`;
}

/** Why the contest ended without a winner; null while it has not. */
export function contestEndText(state: ContestState): string | null {
  const reason = state.endReason;
  if (reason === null || typeof reason === 'string') return reason;
  const differentCourse = 'The challenger must choose a different course of action.';
  switch (reason.kind) {
    case 'declined':
      return `${reason.by} declined. ${differentCourse}`;
    case 'not-agreed':
      return `${reason.by} did not agree to the terms. ${differentCourse}`;
    case 'withdrew':
      return `${reason.by} withdrew before the dice were rolled. ${differentCourse}`;
    case 'both-defenders':
      return `Both players are defenders: there is no reason for a contest. ${differentCourse}`;
    case 'cancelled':
      return `Cancelled by the Dispatcher ${reason.by}.`;
    case 'tie-accepted':
      return `${shortName(state, 'challenger')} and ${shortName(state, 'opponent')} accepted the tie: the players decide the outcome together.`;
    case 'tie-rounds':
      return `After ${reason.rounds} tied rounds the contest stops as a tie: decide the outcome together.`;
    case 'no-skill-left': {
      const who = shortName(state, reason.side);
      return `${who} has no skill left that was not rolled in this contest, so it cannot go on: ${who} accepted the tie, which stands. The players decide the outcome together.`;
    }
    case 'expired':
      return `Nobody acted in time: the contest expired.${reason.tied ? ` The round stays a tie with no outcome agreed (${tieChoicesText(state)}).` : ''}`;
  }
}

/** Why both players must confirm again; null when nothing was cleared. */
export function contestNoticeText(state: ContestState): string | null {
  const notice = state.notice;
  if (!notice || typeof notice === 'string') return notice ?? null;
  const why =
    notice.kind === 'picked'
      ? `${notice.who} picked ${notice.skill?.name} ${notice.skill?.level}`
      : notice.kind === 'disputed'
        ? `The Dispatcher disputed ${notice.who}'s skill`
        : notice.kind === 'linked'
          ? `The Dispatcher made ${notice.who}'s roll a linked roll`
          : `The Dispatcher changed ${notice.who}'s modifiers`;
  const how = notice.byAgreeing ? `both confirm again, ${shortName(state, 'challenger')} by agreeing` : 'both confirm again';
  const had = notice.cleared.length ? ` (${notice.cleared.map((side) => shortName(state, side)).join(' and ')} had confirmed)` : '';
  return `${why}: ${how}${had}.`;
}

/** One of the Dispatcher's changes, as the message lists them. */
export function contestChangeText(change: string | ContestChange): string {
  if (typeof change === 'string') return change;
  switch (change.kind) {
    case 'disputed':
      return `${change.by} disputed ${change.who}'s skill: ${change.before.length ? `${skillsText(change.before)} → ` : ''}${change.after.name} ${change.after.level}`;
    case 'linked':
      return `${change.by} made ${change.who}'s roll a linked roll: ${change.before.length ? `${skillsText(change.before)} → ` : ''}${skillsText(change.after)}`;
    case 'modifiers': {
      const terms = [...change.archetypes.map((modifier) => `${modifier.name} ${signedCompact(modifier.value)}`), ...(change.situational ? [`situational ${signedCompact(change.situational)}`] : [])];
      return `${change.by} set ${change.who}'s modifiers: ${terms.length ? terms.join(', ') : 'none'}`;
    }
  }
}

/** What a contest refuses, as the presser reads it. */
export function contestRefusalText(refusal: ContestRefusalData): string {
  switch (refusal.kind) {
    case 'not-a-player':
      return 'This is not your contest; only its two players can press that.';
    case 'only-side':
      return refusal.side === 'opponent' ? 'Only the challenged player can answer this.' : 'Only the challenger can answer this.';
    case 'dispatcher-only':
      return refusal.adjust ? 'Only a Dispatcher can adjust a contest.' : 'Only a Dispatcher can do that.';
    case 'not-posted':
      return 'This contest is not posted yet; try again in a moment.';
    case 'already-posted':
      return 'This contest is already posted.';
    case 'over':
      return 'This contest is over.';
    case 'step-past':
      return 'This step of the contest is already handled; nothing changed.';
    case 'dice-rolled':
      return 'The dice have rolled: after a tie the contest ends only when both accept the tie (or it expires).';
    case 'agree-instead':
      return 'Press **Agree** to accept the terms: agreeing is your confirmation.';
    case 'pick-skill-first':
      return 'Pick your skill in the menu first, then press Ready.';
    case 'already-ready':
      return 'You are already ready; waiting for the other player.';
    case 'already-chose':
      return `${refusal.choice === 'accept' ? 'You already accept the tie' : 'You already asked for another round'}; waiting for ${refusal.other}.`;
    case 'no-skill-left': {
      const { who } = refusal;
      const rolled = refusal.rolled.length ? ` (rolled: ${refusal.rolled.map((name) => `**${name}**`).join(', ')})` : '';
      const next = refusal.next === 'another' ? 'press **Another round** again' : 'press **Ready** again: the menu then offers it';
      const instead = refusal.instead === 'accept-tie' ? ', or press **Accept the tie**: with no skill left, that ends the contest as a tie' : refusal.instead === 'withdraw' ? ', or **Withdraw**' : '';
      return `${who} has no skill left that was not rolled in this contest${rolled}, and a skill is never rolled twice in a contest. Add one to ${who}'s sheet with \`/sheet skill set\` and ${next}${instead}.`;
    }
    case 'skill-set-by-dispatcher':
      return 'The Dispatcher chose your skill for this round; it stands.';
    case 'skill-rolled':
      return `**${refusal.skill}** was already rolled in this contest; pick another skill.`;
    case 'linked-too-few':
      return 'A linked roll needs at least two skills, separated by `;`.';
    case 'linked-too-many':
      return `A linked roll in a contest may have at most ${refusal.most} skills; this one has ${refusal.count}.`;
    case 'linked-twice':
      return `**${refusal.skill}** is named twice in the linked roll; each skill is rolled once.`;
    case 'not-your-menu':
      return `This menu is for ${refusal.owner ?? 'the other player'}’s player only.`;
    case 'sheet-gone':
      return `The sheet of ${refusal.operator ?? 'this side'} no longer exists. A Dispatcher can cancel the contest.`;
    case 'not-adjustable':
      return 'Skills and modifiers can be adjusted once both players have chosen their skills, until the dice roll.';
  }
}

/** What a move did, in a few words, for the turn prompt (`name`: who moved). */
export function contestHappened(before: ContestState, after: ContestState, actions: readonly ContestAction[], name: string): string {
  // A notice is news only when this move set it: one left from an earlier move is not what happened now.
  if (after.notice && JSON.stringify(after.notice) !== JSON.stringify(before.notice)) return contestNoticeText(after)!.replace(/\.$/, '');
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

/** The presses that are a move alone, each with the move it makes; the id's word stays as posted buttons carry it. */
export const PLAIN_PRESSES = {
  decline: 'decline',
  agree: 'agree',
  withdraw: 'withdraw',
  cancel: 'cancel',
  ready: 'ready',
  again: 'anotherRound',
  accepttie: 'acceptTie',
} as const satisfies Record<string, PlainMove>;
type PlainPress = keyof typeof PLAIN_PRESSES;

/** The presses that open a form, and the submits of those forms (`-form`). */
const FORM_PRESSES = ['accept', 'acceptform', 'adjust', 'adjustform'] as const;
type ContestPress = PlainPress | (typeof FORM_PRESSES)[number];
const CONTEST_PRESSES: readonly ContestPress[] = [...FORM_PRESSES, ...(Object.keys(PLAIN_PRESSES) as PlainPress[])];

export type ContestControl =
  | { action: PlainPress; contestId: number }
  | { action: (typeof FORM_PRESSES)[number]; contestId: number }
  | { action: 'role'; contestId: number; role: ContestRole }
  | { action: 'skill' | 'searchform'; contestId: number; side: ContestSideName };

/** Whether a press is a move alone (PLAIN_PRESSES names it). */
export function isPlainPress(control: ContestControl): control is { action: PlainPress; contestId: number } {
  return Object.hasOwn(PLAIN_PRESSES, control.action);
}

/** The presses that may answer with a form, each the one `origin` below names as opening it (the skill menu: the search). */
export const opensForm = (control: ContestControl): boolean => control.action === 'accept' || control.action === 'adjust' || control.action === 'skill';

/** `contest:<action>:<contest id>`, and the role or side after it for `role`, `skill` and `searchform`. */
export const contestIds = componentIds<ContestControl>('contest', {
  write: (control) => [control.action, control.contestId, ...('role' in control ? [control.role] : 'side' in control ? [control.side] : [])],
  read: ([action, idText, arg, ...rest]) => {
    const contestId = wholeNumber(idText);
    if (contestId === null || rest.length > 0) return null;
    if (action === 'role') {
      const role = oneOf(arg, ['attacker', 'defender']);
      return role && { action, contestId, role };
    }
    if (action === 'skill' || action === 'searchform') {
      const side = oneOf(arg, ['challenger', 'opponent']);
      return side && { action, contestId, side };
    }
    const press = oneOf(action, CONTEST_PRESSES);
    return press && arg === undefined ? { action: press, contestId } : null;
  },
  // The skill menu is a select; each form is opened by the press on the contest's message named here.
  origin: (control) => {
    const { contestId } = control;
    if (control.action === 'skill') return SELECT;
    if (control.action === 'acceptform') return { formOpenedBy: [{ action: 'accept', contestId }] };
    if (control.action === 'adjustform') return { formOpenedBy: [{ action: 'adjust', contestId }] };
    if (control.action === 'searchform') return { formOpenedBy: [{ action: 'skill', contestId, side: control.side }] };
    return BUTTON;
  },
});

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

/** A message that pings exactly these players and nobody else (user text inside it never pings). */
export interface PingMessage {
  content: string;
  embeds?: ReturnType<EmbedBuilder['toJSON']>[];
  allowedMentions: { parse: never[]; users: string[] };
}

/** What a player must press now, in a few words. */
function moveOf(view: ContestView, side: ContestSideName): string {
  const { state } = view;
  switch (state.phase) {
    case 'countered':
      return side === 'challenger'
        ? `**Agree** to the terms${state.challenger.role && state.opponent.role ? ' (the dice roll then)' : ''}, or **Withdraw**`
        : '**Confirm** the change';
    case 'roles':
      return 'pick **Attacker** or **Defender**';
    case 'skills': {
      const tie = afterTie(state);
      if (tie && tieChoiceOf(state[side]) === 'accept') return `you accept the tie; to play the round after all, pick your skill and press **Ready**`;
      if (outOfSkills(view, side)) return outOfSkillsText(view, side);
      const orTie = tie ? ', or **Accept the tie**' : '';
      if (chosenSkills(state[side]).length === 0) return `pick your skill, then press **Ready**${orTie}`;
      return state.secretRoles && state.rounds.length === 0 ? 'press **Confirm**' : `press **Ready**${orTie}`;
    }
    case 'tied':
      return 'choose **Another round** or **Accept the tie**';
    default:
      return 'answer';
  }
}

/**
 * The turn prompt: a new message (an edit notifies nobody) naming what happened and pinging only the players who
 * must act now, each told their move, with a link to the contest message. Null when nobody but the actor must act.
 */
export function contestPrompt(view: ContestView, actor: ContestSideName | null, happened: string): PingMessage | null {
  const { state } = view;
  const next = waitingOn(state).filter((side) => side !== actor);
  if (next.length === 0) return null;
  const link = linkTo(view, view.where?.messageId);
  const moves = next.map((side) => `<@${state[side].userId}>, your move: ${moveOf(view, side).replace(/\.$/, '')}`).join('. ');
  const content = `🔔 ${escapeMarkdown(happened)}. ${moves}.${link ? ` [Contest #${view.id}](${link})` : ''}`;
  return { content: truncate(content, DISCORD_LIMITS.content), allowedMentions: { parse: [], users: next.map((side) => state[side].userId) } };
}

/** A contest that ended without a roll (declined, withdrawn, cancelled, both defenders, a tie accepted): said anew, to the other players. */
export function contestEndNotice(view: ContestView, actor: ContestSideName | null): PingMessage {
  const { state } = view;
  const told = (['challenger', 'opponent'] as const).filter((side) => side !== actor && (side === 'challenger' || state.opponent.userId));
  const link = linkTo(view, view.where?.messageId);
  const pings = told.map((side) => `<@${state[side].userId}>`).join(' ');
  const content = `${pings} ⛔ Contest #${view.id} is over: ${escapeMarkdown(contestEndText(state) ?? 'it ended.')}${link ? ` [Contest #${view.id}](${link})` : ''}`;
  return { content: truncate(content, DISCORD_LIMITS.content), allowedMentions: { parse: [], users: told.map((side) => state[side].userId) } };
}

/**
 * A round's result, posted as a new message: who won and why, each side's skill, dice and sum against the CL the
 * other side's skill sets, the winner's stated outcome, and a link back to the contest message. Pings the players
 * who did not make the last press (the one who did sees it land).
 */
export function contestResultMessage(view: ContestView, round: ContestRound, actor: ContestSideName | null): PingMessage {
  const { state } = view;
  const told = (['challenger', 'opponent'] as const).filter((side) => side !== actor);
  const link = linkTo(view, view.where?.messageId);
  const lines: string[] = [];
  if (round.winner === 'tie') {
    lines.push(`🤝 ${whyLine(state, round)}`, ...standingSuccesses(state, round));
    lines.push(`Both choose **Another round** or **Accept the tie** on ${link ? `[the contest message](${link})` : 'the contest message'}.`);
  } else if (round.winner === 'nobody') {
    lines.push(...nothingChangesLines(state, round), ...standingSuccesses(state, round));
  } else {
    const loser = round.winner === 'challenger' ? 'opponent' : 'challenger';
    const winnerName = escapeMarkdown(shortName(state, round.winner));
    lines.push(`🏆 **${winnerName} wins.** ${whyLine(state, round)}`, `${escapeMarkdown(shortName(state, loser))} suffers ${winnerName}'s stated outcome:`, `> ${escapeMarkdown(state[round.winner].stakes)}`);
    lines.push(...standingSuccesses(state, round));
  }
  if (link) lines.push('', `[Contest #${view.id}](${link}): ${escapeMarkdown(state.intent)}`);
  const title = `🎲 Contest #${view.id}${state.rounds.length > 1 || round.number > 1 ? `, round ${round.number}` : ''}: ${outcomeWords(state, round)}`;
  const embed = new EmbedBuilder()
    .setTitle(truncate(title, DISCORD_LIMITS.embedTitle))
    .setColor(round.winner === 'tie' ? COLOR.tie : round.winner === 'nobody' ? COLOR.over : COLOR.won)
    .setDescription(truncate(lines.join('\n'), DISCORD_LIMITS.embedDescription))
    .addFields(roundField(state, round, 'challenger'), roundField(state, round, 'opponent'))
    .setFooter({ text: `Contest #${view.id}${round.rollId ? ` · roll ${round.rollId} · check with /roll replay` : ''}` });
  const content = `${told.map((side) => `<@${state[side].userId}>`).join(' ')} the dice of contest #${view.id} have rolled.`;
  return { content, embeds: [embed.toJSON()], allowedMentions: { parse: [], users: told.map((side) => state[side].userId) } };
}

/** The first message pings the opponent, and only them. */
export function contestOpening(view: ContestView) {
  return { ...contestMessage(view), allowedMentions: { parse: [] as never[], users: [view.state.opponent.userId] } };
}

/**
 * A submitted form's text by field id: a text input's value, or a menu's picks joined by commas; empty when the form
 * has no such field (an older client's form). The command reads it off the interaction.
 */
export type FormText = (fieldId: string) => string;

/** The fields of the Accept form, by id: `acceptModal` writes them, `readAcceptForm` reads them. */
const ACCEPT_FIELDS = { stakes: 'stakes', role: 'role', skill: 'skill', archetypes: 'archetypes' } as const;

/** The Accept form as sent: the skill and archetypes as typed or picked, for the sheet to check. */
export interface AcceptForm {
  stakes: string;
  role: ContestRole;
  skill: string;
  archetypes: string;
}

export function readAcceptForm(text: FormText): AcceptForm {
  const role = text(ACCEPT_FIELDS.role).trim().toLowerCase();
  if (role !== 'attacker' && role !== 'defender') throw new UserError('Pick your role: **Attacker** or **Defender**.');
  return { stakes: text(ACCEPT_FIELDS.stakes), role, skill: text(ACCEPT_FIELDS.skill), archetypes: text(ACCEPT_FIELDS.archetypes) };
}

/** The sheet the challenged player accepts with: its skills (those not rolled yet in this contest) and archetypes. */
export interface AcceptSheet {
  name: string;
  skills: SkillEntry[];
  archetypes: { name: string }[];
}

/**
 * The Accept form: everything the challenged player chooses at once, their stakes, their role (secret until the
 * roll) and their skill. Role and skill are menus; a sheet with more skills than a menu holds gets a text field,
 * checked against the sheet (the nearest names are suggested). The archetypes they add are a comma list.
 */
export function acceptModal(id: number, sheet: AcceptSheet) {
  const label = (text: string, description?: string) => {
    const built = new LabelBuilder().setLabel(truncate(text, 45));
    return description ? built.setDescription(truncate(description, 100)) : built;
  };
  const stakes = label('If you win, what happens to the challenger?').setTextInputComponent(
    new TextInputBuilder().setCustomId(ACCEPT_FIELDS.stakes).setStyle(TextInputStyle.Paragraph).setRequired(true).setMaxLength(CONTEST_LIMITS.stakesLength),
  );
  const role = label('Your role', 'Secret until the dice roll. Both defenders: no contest.').setStringSelectMenuComponent(
    new StringSelectMenuBuilder()
      .setCustomId(ACCEPT_FIELDS.role)
      .setPlaceholder('Attacker or Defender')
      .setRequired(true)
      .addOptions(
        { label: 'Attacker', value: 'attacker', description: 'You act: if both succeed, the defender wins' },
        { label: 'Defender', value: 'defender', description: 'You resist: if both succeed, you win; both fail: nothing changes' },
      ),
  );
  const skillLabel = label(`Your skill (${sheet.name})`, 'Its aptitude is the challenger’s Challenge Level.');
  const options = sheet.skills.map((skill) => ({ label: truncate(`${skill.name} (${skill.level})`, 100), value: truncate(skill.name, 100) }));
  const skill =
    options.length > 0 && options.length <= DISCORD_LIMITS.selectOptions
      ? skillLabel.setStringSelectMenuComponent(new StringSelectMenuBuilder().setCustomId(ACCEPT_FIELDS.skill).setPlaceholder('Pick your skill').setRequired(true).addOptions(options))
      : skillLabel.setTextInputComponent(
          new TextInputBuilder().setCustomId(ACCEPT_FIELDS.skill).setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(64).setPlaceholder(truncate(`As on your sheet, e.g. ${sheet.skills.slice(0, 3).map((s) => s.name).join(', ')}`, 100)),
        );
  const archetypes = label('Archetypes you add (comma list, optional)', 'Each once; a Dispatcher may still adjust.').setTextInputComponent(
    new TextInputBuilder()
      .setCustomId(ACCEPT_FIELDS.archetypes)
      .setStyle(TextInputStyle.Short)
      .setRequired(false)
      .setMaxLength(200)
      .setPlaceholder(truncate(sheet.archetypes.length ? sheet.archetypes.map((a) => a.name).join(', ') : 'Your sheet has no archetypes', 100)),
  );
  return new ModalBuilder()
    .setCustomId(contestIds.encode({ action: 'acceptform', contestId: id }))
    .setTitle(truncate(`Accept contest #${id} as ${sheet.name}`, 45))
    .addLabelComponents(stakes, role, skill, archetypes);
}

/** The skill search form's one field: a skill's name as typed, for the side's sheet to find. */
const SEARCH_FIELDS = { skill: 'skill' } as const;

export function readSkillSearchForm(text: FormText): { skill: string } {
  return { skill: text(SEARCH_FIELDS.skill) };
}

export function skillSearchModal(id: number, side: ContestSideName) {
  return new ModalBuilder()
    .setCustomId(contestIds.encode({ action: 'searchform', contestId: id, side }))
    .setTitle('Pick a skill by name')
    .addComponents(
      new ActionRowBuilder<TextInputBuilder>().addComponents(
        new TextInputBuilder().setCustomId(SEARCH_FIELDS.skill).setLabel('Skill name (as on your sheet)').setStyle(TextInputStyle.Short).setRequired(true).setMaxLength(64),
      ),
    );
}

/** A linked side as the Dispatcher's form writes it: `Handgun Handling +Acuity; Driving -10`. */
export function linkedNotation(parts: ContestLinkedPart[]): string {
  return parts
    .map((part) => [part.skill.name, ...part.archetypeModifiers.map((modifier) => `+${modifier.name}`), ...(part.situationalModifier ? [signedCompact(part.situationalModifier).replace('−', '-')] : [])].join(' '))
    .join('; ');
}

/**
 * The Dispatcher's form: both skills (or linked rolls), both sides' archetypes, both situational modifiers, prefilled.
 * Each field's label says plainly whose it is ("Kat's skill"); how to fill it is the label's description.
 */
export function adjustModal(id: number, state: ContestState) {
  const input = (customId: string, label: string, description: string, value: string, options: { required?: boolean; placeholder?: string; maxLength?: number } = {}) => {
    const text = new TextInputBuilder()
      .setCustomId(customId)
      .setStyle(TextInputStyle.Short)
      .setRequired(options.required ?? false)
      .setMaxLength(options.maxLength ?? 200);
    if (options.placeholder) text.setPlaceholder(truncate(options.placeholder, 100));
    if (value) text.setValue(value);
    return new LabelBuilder().setLabel(truncate(label, 45)).setDescription(truncate(description, 100)).setTextInputComponent(text);
  };
  const c = shortName(state, 'challenger');
  const o = shortName(state, 'opponent');
  const names = (side: ContestSideName) => state[side].archetypeModifiers.map((modifier) => modifier.name).join(', ');
  const skills = (side: ContestSideName) => {
    const own: ContestSide = state[side];
    return own.linked ? linkedNotation(own.linked) : (own.skill?.name ?? '');
  };
  // One skill, or a linked roll: its skills separated by `;`, each with its own +Archetype and ±N terms.
  const skillHelp = 'One skill, or several joined with ; for a linked roll (each may add +Archetype and ±N).';
  const skillExample = 'e.g. Handgun Handling +Acuity; Driving -10';
  const skillLength = 600;
  const archetypeHelp = 'A comma list, e.g. Acuity, Grit. Added to every part of a linked roll.';
  return new ModalBuilder()
    .setCustomId(contestIds.encode({ action: 'adjustform', contestId: id }))
    .setTitle(`Dispatcher: contest #${id}`)
    .addLabelComponents(
      input(ADJUST_FIELDS.skill.challenger, `${c}'s skill`, skillHelp, skills('challenger'), { placeholder: skillExample, maxLength: skillLength }),
      input(ADJUST_FIELDS.skill.opponent, `${o}'s skill`, skillHelp, skills('opponent'), { placeholder: skillExample, maxLength: skillLength }),
      input(ADJUST_FIELDS.archetypes.challenger, `${c}'s archetypes`, archetypeHelp, names('challenger')),
      input(ADJUST_FIELDS.archetypes.opponent, `${o}'s archetypes`, archetypeHelp, names('opponent')),
      input(
        ADJUST_FIELDS.modifiers,
        'Situational modifiers',
        `${c}'s, then ${o}'s, as two whole numbers, e.g. 0, -10`,
        `${signedCompact(state.challenger.situationalModifier).replace('−', '-')}, ${signedCompact(state.opponent.situationalModifier).replace('−', '-')}`,
        { required: true },
      ),
    );
}

/** The fields of the Dispatcher's form, by id: `adjustModal` writes them, `readAdjustForm` reads them. */
const ADJUST_FIELDS = {
  skill: { challenger: 'challenger_skill', opponent: 'opponent_skill' },
  archetypes: { challenger: 'challenger_archetypes', opponent: 'opponent_archetypes' },
  modifiers: 'modifiers',
} as const;

/** What the Dispatcher typed as a side's skill: nothing, one skill's name, or a linked roll's parts (RULES 1.3). */
export type AdjustedSkill = { kind: 'none' } | { kind: 'one'; name: string } | { kind: 'linked'; parts: LinkedRollPart[] };

/** The Dispatcher's form as sent: each side's skill, archetype names and situational modifier, for the sheets to check. */
export type AdjustForm = Record<ContestSideName, { skill: AdjustedSkill; archetypes: string; situational: number }>;

/**
 * A side's skill field: one skill, or a linked roll, its skills separated by `;`, each with its own `+Archetype` and
 * `±N` terms. The CL of every part is the other side's aptitude (RULES 1.6), never one the Dispatcher names.
 */
function adjustedSkill(typed: string): AdjustedSkill {
  if (/[;\n]/.test(typed)) {
    if (/\bvs\b/i.test(typed)) throw new UserError('In a contest each part’s Challenge Level is the other side’s aptitude: leave out `vs`.');
    if (typed.split(/[;\n]/).filter((part) => part.trim()).length < 2) {
      throw new UserError('A linked roll needs at least two skills separated by `;`, e.g. `Handgun Handling +Acuity; Driving`.');
    }
    return { kind: 'linked', parts: parseLinkedRoll(typed, 0) };
  }
  if (!typed) return { kind: 'none' };
  return { kind: 'one', name: typed };
}

export function readAdjustForm(text: FormText): AdjustForm {
  const modifiers = text(ADJUST_FIELDS.modifiers).trim().split(',').map((part) => part.trim().replace('−', '-'));
  if (modifiers.length !== 2 || modifiers.some((part) => !/^[+-]?\d{1,3}$/.test(part))) {
    throw new UserError('Situational modifiers: write two whole numbers, the challenger’s then the opponent’s, e.g. `0, -10`.');
  }
  const side = (name: ContestSideName, index: number) => ({
    skill: adjustedSkill(text(ADJUST_FIELDS.skill[name]).trim()),
    archetypes: text(ADJUST_FIELDS.archetypes[name]),
    situational: Number(modifiers[index]),
  });
  return { challenger: side('challenger', 0), opponent: side('opponent', 1) };
}

/** Everything a refused form held, shown back to its sender (a sent form cannot be reopened as it was). */
export function typedBackText(fields: ReadonlyArray<readonly [id: string, text: string]>): string {
  const lines = fields.map(([id, text]) => `- ${id}: ${text ? `\`${text.replace(/`/g, "'").slice(0, 500)}\`` : '(empty)'}`);
  return lines.length ? `\nWhat you typed:\n${lines.join('\n')}` : '';
}
