/**
 * The initiative tracker as one message: the rule it follows, the round (or phase), whose turn it is, and everyone
 * in order with their initiative and its dice; Previous / Next / End under it. Names are user text: escaped, and
 * the message never pings. The one ping is `turnPing`: the player whose turn it has become, and nobody else.
 */
import { ActionRowBuilder, ButtonBuilder, ButtonStyle, EmbedBuilder, MessageFlags } from 'discord.js';
import {
  currentCombatant,
  orderOf,
  phaseClock,
  ruleOf,
  type Combatant,
  type InitiativeMark,
  type OrderEntry,
  type TrackerState,
} from '../engine/initiative.js';
import type { Rederived } from '../engine/replay.js';
import { formatDieCode } from '../engine/systems/result-points/die-code.js';
import { systemName } from '../engine/systems/index.js';
import { componentIds, oneOf, wholeNumber } from './component-id.js';
import { escapeMarkdown, signed } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { MessageBody, ReplyPayload } from './messages.js';

export interface TrackerView {
  id: number;
  version: number;
  state: TrackerState;
}

const COLOR = { open: 0x8e44ad, ended: 0x7f8c8d } as const;

/** The rule's name, as the start command offers it. */
export function ruleTitle(state: Pick<TrackerState, 'rule' | 'system'>): string {
  switch (state.rule) {
    case 'melee':
      return 'Melee (die codes)';
    case 'chase':
      return 'Chase (die codes)';
    case 'debate':
      return 'Debate (die codes)';
    case 'd10-phase':
      return 'd10 pools';
    case 'manual':
      return `Manual order (${systemName(state.system)})`;
  }
}

/** What the rule is, in the seed's words, and which way the order runs. */
export function ruleExplanation(state: Pick<TrackerState, 'rule' | 'system'>): string {
  switch (state.rule) {
    case 'melee':
      return 'Die codes: in a melee, initiative is the fixed value of an ability (a die code counts 3 × dice + pips). Highest acts first.';
    case 'chase':
      return 'Die codes: in a chase, initiative is relative position, set by the Dispatcher. Position 1 leads and acts first.';
    case 'debate':
      return 'Die codes: in a debate, initiative is an ability check, rolled on joining. Highest acts first.';
    case 'd10-phase':
      return 'd10 pools: actions are declared in order of Initiative, lowest to highest; Initiative is rolled again at the beginning of each phase (3 s; a round is 2 phases, a turn 2 rounds).';
    case 'manual':
      return `The ${systemName(state.system)} rules give no initiative rule: each combatant's order value, given by hand. Highest acts first.`;
  }
}

const seconds = (total: number) => `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;

/** `Round 2`, or seed 004's clock: `Phase 3 (round 2, turn 1; 0:06–0:09)`. */
export function cycleText(state: TrackerState, cycle = state.cycle): string {
  if (ruleOf(state).cycle === 'round') return `Round ${cycle}`;
  const clock = phaseClock(cycle);
  return `Phase ${clock.phase} (round ${clock.round}, turn ${clock.turn}; ${seconds(clock.startsAt)}–${seconds(clock.startsAt + 3)})`;
}

/** What a combatant does on their turn: seed 004 declares, everyone else acts. */
const acts = (state: TrackerState) => (ruleOf(state).cycle === 'phase' ? 'declares' : 'acts');

const dice = (faces: number[]) => `\`${faces.map((face) => `[${face}]`).join('')}\``;

/** A combatant's initiative, how it was made, and its dice. */
export function initiativeText(combatant: Combatant, mark: InitiativeMark): string {
  const { source } = combatant;
  const faces = mark.dice?.[0] ?? null;
  switch (source.kind) {
    case 'value':
      return source.code ? `**${mark.total}** (${formatDieCode(source.code)}: 3 × ${source.code.dice}${source.code.pips === 0 ? '' : ` ${signed(source.code.pips)}`})` : `**${mark.total}**`;
    case 'position':
      return `position **${mark.total}**`;
    case 'code':
      return `**${mark.total}** (${formatDieCode(source.code)}: ${faces ? dice(faces) : '?'}${source.code.pips === 0 ? '' : ` ${signed(source.code.pips)}`})`;
    case 'pool': {
      const shown = faces ? `${dice(faces)} → ${mark.total - source.modifier}` : `${source.dice}d10`;
      return `**${mark.total}** (${shown}${source.modifier === 0 ? '' : ` ${signed(source.modifier)}`})`;
    }
  }
}

function who(combatant: Combatant): string {
  return combatant.playerId ? `<@${combatant.playerId}>` : 'NPC';
}

function orderLine(state: TrackerState, entry: OrderEntry, place: number): string {
  const mine = entry.combatant.key === state.turn;
  const line = `${place}. **${escapeMarkdown(entry.combatant.name)}** · ${who(entry.combatant)} — ${initiativeText(entry.combatant, entry.mark)}`;
  return mine ? `▶ ${line}` : `\u2003${line}`;
}

/** Whose turn it is, or what happens next. */
export function statusLine(state: TrackerState): string {
  if (state.cycle === 0) {
    return state.combatants.length === 0
      ? '**Not begun.** Players join with `/initiative join`; the Dispatcher adds NPCs with `/initiative npc`, then presses **Begin**.'
      : '**Not begun.** More may join; the Dispatcher presses **Begin** when everyone is in.';
  }
  const current = currentCombatant(state);
  if (!current) return `**${cycleText(state)}**: everyone has ${acts(state) === 'declares' ? 'declared' : 'acted'}. **Next** begins ${ruleOf(state).cycle} ${state.cycle + 1}.`;
  return `**${cycleText(state)}** — 🎯 **${escapeMarkdown(current.name)}** ${acts(state)}${current.playerId ? ` (<@${current.playerId}>)` : ''}.`;
}

/** Every roll the shown order comes from, for /roll replay. */
function rollIds(state: TrackerState, entries: OrderEntry[]): string[] {
  return [...new Set(entries.map((entry) => entry.mark.rollId).filter((id): id is string => id !== null))];
}

function trackerEmbed(view: TrackerView, ended: boolean): EmbedBuilder {
  const { state } = view;
  const order = orderOf(state);
  const shown = new Set(order.map((entry) => entry.combatant.key));
  const waiting = state.combatants.filter((combatant) => !shown.has(combatant.key));
  const lines = [ruleExplanation(state), '', ended ? `**Ended**${state.cycle > 0 ? ` in ${cycleText(state).toLowerCase()}` : ' before it began'}.` : statusLine(state), ''];
  if (order.length === 0 && waiting.length === 0) lines.push('*Nobody yet.*');
  lines.push(...order.map((entry, index) => orderLine(state, entry, index + 1)));
  if (waiting.length > 0) {
    lines.push('', `Joined after this ${ruleOf(state).cycle}'s initiative was rolled (in from the next): ${waiting.map((combatant) => `**${escapeMarkdown(combatant.name)}**`).join(', ')}`);
  }
  const ids = rollIds(state, order);
  const footer = [`Initiative #${view.id}`, ...(ids.length > 0 ? [`rolls ${ids.join(', ')} · check one with /roll replay`] : [])].join(' · ');
  return new EmbedBuilder()
    .setTitle(truncate(`⚔️ Initiative — ${ruleTitle(state)}${state.cycle > 0 ? ` · ${ruleOf(state).cycle} ${state.cycle}` : ''}`, DISCORD_LIMITS.embedTitle))
    .setColor(ended ? COLOR.ended : COLOR.open)
    .setDescription(truncate(lines.join('\n'), DISCORD_LIMITS.embedDescription))
    .setFooter({ text: truncate(footer, DISCORD_LIMITS.footer) });
}

/**
 * A press on the tracker's message: it carries the version it was drawn for. End does not end: it asks, privately,
 * with the prompt of `/initiative end` (endPrompt), whatever version it was drawn for.
 */
export interface TrackerPress {
  action: 'previous' | 'next' | 'end';
  trackerId: number;
  /** The tracker's version the button was drawn for. */
  version: number;
}

/**
 * A press on the private prompt to end (from `/initiative end` or the tracker's End): end the tracker (only the
 * Dispatcher who asked may), or keep it. They carry no version: the Dispatcher means to end this tracker however its
 * turns have moved since. Their origin is the default, a button on the message that carries them: the prompt.
 */
export type EndPromptPress = { action: 'confirm-end'; trackerId: number; askerId: string } | { action: 'keep'; trackerId: number };

export type InitiativeControl = TrackerPress | EndPromptPress;

/** `initiative:<previous|next|end>:<tracker id>:<version>`, `initiative:confirm-end:<tracker id>:<asker id>`, `initiative:keep:<tracker id>`. */
export const initiativeIds = componentIds<InitiativeControl>('initiative', {
  write: (control) => {
    if (control.action === 'confirm-end') return [control.action, control.trackerId, control.askerId];
    if (control.action === 'keep') return [control.action, control.trackerId];
    return [control.action, control.trackerId, control.version];
  },
  read: ([actionText, idText, third, ...rest]) => {
    const trackerId = wholeNumber(idText);
    if (trackerId === null || rest.length > 0) return null;
    if (actionText === 'confirm-end') return third && /^\d+$/.test(third) ? { action: actionText, trackerId, askerId: third } : null;
    if (actionText === 'keep') return third === undefined ? { action: actionText, trackerId } : null;
    const action = oneOf(actionText, ['previous', 'next', 'end']);
    const version = wholeNumber(third);
    return action && version !== null ? { action, trackerId, version } : null;
  },
});

/** The buttons carry the version they were drawn for: a press on an older drawing is caught, not applied twice. */
export function trackerButtons(view: TrackerView) {
  const press = (action: TrackerPress['action']) => initiativeIds.encode({ action, trackerId: view.id, version: view.version });
  const begun = view.state.cycle > 0;
  return [
    new ActionRowBuilder<ButtonBuilder>()
      .addComponents(
        new ButtonBuilder().setCustomId(press('previous')).setLabel('Previous').setEmoji('◀️').setStyle(ButtonStyle.Secondary).setDisabled(!begun),
        new ButtonBuilder().setCustomId(press('next')).setLabel(begun ? 'Next' : 'Begin').setEmoji('▶️').setStyle(ButtonStyle.Primary),
        new ButtonBuilder().setCustomId(press('end')).setLabel('End (Dispatcher)').setStyle(ButtonStyle.Danger),
      )
      .toJSON(),
  ];
}

export function trackerMessage(view: TrackerView): MessageBody {
  return { embeds: [trackerEmbed(view, false).toJSON()], components: trackerButtons(view), allowedMentions: NO_PINGS };
}

/**
 * The private question before ending, from `/initiative end` and the tracker's End alike: which tracker, where it
 * stands, and what ending it does; End the initiative or Keep it.
 */
export function endPrompt(view: TrackerView, askerId: string): ReplyPayload {
  const { state } = view;
  const where = state.cycle > 0 ? `at ${cycleText(state).toLowerCase()}` : 'not begun';
  const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
    new ButtonBuilder().setCustomId(initiativeIds.encode({ action: 'confirm-end', trackerId: view.id, askerId })).setLabel('End the initiative').setStyle(ButtonStyle.Danger),
    new ButtonBuilder().setCustomId(initiativeIds.encode({ action: 'keep', trackerId: view.id })).setLabel('Keep it').setStyle(ButtonStyle.Secondary),
  );
  return {
    content: truncate(
      `End initiative #${view.id} (${ruleTitle(state)}, ${where}, ${state.combatants.length} in it)? Its message keeps the last order with no buttons, and it cannot be taken up again: a new one starts from nobody with \`/initiative start\`.`,
      DISCORD_LIMITS.content,
    ),
    components: [row.toJSON()],
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_PINGS,
  };
}

/** The tracker as it stood when it ended: the last order, no buttons. */
export function endedMessage(view: TrackerView): MessageBody {
  return { embeds: [trackerEmbed(view, true).toJSON()], components: [], allowedMentions: NO_PINGS };
}

/** An older copy of the tracker once it is posted again further down. */
export function movedMessage(view: TrackerView, link: string): MessageBody {
  return { content: `⚔️ Initiative #${view.id} moved down: ${link}`, embeds: [], components: [], allowedMentions: NO_PINGS };
}

/**
 * The ping that tells a player it is their turn: them and nobody else (a name in it is escaped, and no other mention
 * is allowed). Null when it is an NPC's turn or nobody's.
 */
export function turnPing(state: TrackerState): { content: string; allowedMentions: { parse: never[]; users: string[] } } | null {
  const current = currentCombatant(state);
  if (!current?.playerId) return null;
  const content = `🎯 <@${current.playerId}>, your turn${acts(state) === 'declares' ? ' to declare' : ''}: **${escapeMarkdown(current.name)}** (${cycleText(state).toLowerCase()}).`;
  return { content: truncate(content, DISCORD_LIMITS.content), allowedMentions: { parse: [], users: [current.playerId] } };
}

/** A discord.com link to a message. */
export function messageLink(guildId: string, channelId: string, messageId: string): string {
  return `https://discord.com/channels/${guildId}/${channelId}/${messageId}`;
}

/** An initiative roll replayed: each combatant's dice and total. */
export function replayFieldsOfInitiative(rederived: Extract<Rederived, { kind: 'code-initiative' | 'd10-initiative' }>): Array<[string, string]> {
  if (rederived.kind === 'code-initiative') {
    return [
      [
        'Initiative: ability checks (die codes, debate)',
        rederived.result.entries
          .map((entry) => `**${escapeMarkdown(entry.name)}**: ${formatDieCode(entry.roll.code)} ${dice(entry.roll.dice)}${entry.roll.code.pips === 0 ? '' : ` ${signed(entry.roll.code.pips)}`} = **${entry.roll.total}**`)
          .join('\n'),
      ],
    ];
  }
  return [
    [
      `Initiative of phase ${rederived.result.phase} (d10 pools)`,
      rederived.result.entries
        .map((entry) => `**${escapeMarkdown(entry.name)}**: ${dice(entry.reading.faces)} → ${entry.reading.natural}${entry.modifier === 0 ? '' : ` ${signed(entry.modifier)}`} = **${entry.total}**`)
        .join('\n'),
    ],
  ];
}
