/** Generic dice notation rolls (RULES 6.2) as embeds: every die with its marks, each total, the label. */
import { EmbedBuilder } from 'discord.js';
import type { DiceNotationResult, DieMark, NotationRoll, RollPart, RolledDie } from '../engine/dice-notation.js';
import { rollFooter } from './challenge.js';
import { escapeMarkdown } from './format.js';
import { DISCORD_LIMITS, NO_PINGS, truncate } from './limits.js';
import type { ReplyPayload } from './messages.js';

const COLOR = 0x3b82f6;

/** A die's marks as shown after its face; a die that does not count is struck through instead of marked. */
const SYMBOLS: Record<Exclude<DieMark, 'dropped'>, { symbol: string; meaning: string }> = {
  exploded: { symbol: '!', meaning: 'exploded' },
  compounded: { symbol: '!!', meaning: 'compounded' },
  penetrated: { symbol: '!p', meaning: 'penetrated' },
  rerolled: { symbol: 'r', meaning: 'rerolled' },
  success: { symbol: '✓', meaning: 'success' },
  failure: { symbol: '✗', meaning: 'failure (−1)' },
  'critical-success': { symbol: '★', meaning: 'critical success' },
  'critical-failure': { symbol: '☠', meaning: 'critical failure' },
  raised: { symbol: '↑', meaning: 'raised to the minimum' },
  lowered: { symbol: '↓', meaning: 'lowered to the maximum' },
  unique: { symbol: 'u', meaning: 'rerolled as a duplicate' },
};

const OPERATORS = new Set(['+', '-', '*', '/', '%', '^', '**']);

/** What a rendering used, for the legend. */
interface Seen {
  struck: boolean;
  marks: Set<Exclude<DieMark, 'dropped'>>;
}

function suffix(marks: DieMark[], seen: Seen): string {
  return marks
    .filter((mark): mark is Exclude<DieMark, 'dropped'> => mark !== 'dropped')
    .map((mark) => {
      seen.marks.add(mark);
      return SYMBOLS[mark].symbol;
    })
    .join('');
}

function dieText(die: RolledDie, counted: boolean, seen: Seen): string {
  const face = `${die.value}${suffix(die.marks, seen)}`;
  if (counted && die.counted) return face;
  seen.struck = true;
  return `~~${face}~~`;
}

/**
 * A rolled expression as atomic pieces of markdown (a die, an operator, a bracket), so a long one can be cut
 * between pieces without breaking the markup. Each piece says whether it is a die, to count what was cut.
 */
function pieces(parts: RollPart[], counted: boolean, seen: Seen): Array<{ text: string; die: boolean }> {
  const out: Array<{ text: string; die: boolean }> = [];
  const text = (value: string) => out.push({ text: value, die: false });
  for (const part of parts) {
    if (part.type === 'text') {
      if (OPERATORS.has(part.text)) text(` ${escapeMarkdown(part.text)} `);
      else if (part.text === ',') text(', ');
      else text(escapeMarkdown(part.text));
    } else if (part.type === 'dice') {
      text('[');
      part.dice.forEach((die, index) => {
        if (index > 0) text(', ');
        out.push({ text: dieText(die, counted, seen), die: true });
      });
      text(']');
    } else {
      const inside = counted && part.counted;
      const marks = suffix(part.marks, seen);
      if (part.rollGroup) {
        // The members of a roll group are its sub-expressions, separated by commas.
        text('{');
        part.parts.forEach((member, index) => {
          if (index > 0) text(', ');
          out.push(...pieces([member], inside, seen));
        });
        text(`}${marks}`);
      } else if (marks) {
        text('(');
        out.push(...pieces(part.parts, inside, seen));
        text(`)${marks}`);
      } else {
        out.push(...pieces(part.parts, inside, seen));
      }
    }
  }
  return out;
}

function totalText(roll: NotationRoll, countsSuccesses: boolean): string {
  if (!countsSuccesses) return `**${roll.total}**`;
  return `**${roll.total}** ${Math.abs(roll.total) === 1 ? 'success' : 'successes'}`;
}

/** One roll as a line of at most `max` characters: its pieces, cut between two if need be, and the total. */
function rollLine(all: Array<{ text: string; die: boolean }>, roll: NotationRoll, prefix: string, countsSuccesses: boolean, max: number): string {
  const tail = ` = ${totalText(roll, countsSuccesses)}`;
  let body = '';
  let index = 0;
  for (; index < all.length; index++) {
    const next = all[index]!.text;
    if (prefix.length + body.length + next.length + tail.length + 24 > max) break;
    body += next;
  }
  if (index < all.length) {
    const cut = all.slice(index).filter((piece) => piece.die).length;
    body = `${body.replace(/,\s*$/, '')} …${cut > 0 ? ` (${cut} more ${cut === 1 ? 'die' : 'dice'})` : ''}`;
  }
  return truncate(`${prefix}${body}${tail}`, max);
}

function legend(seen: Seen): string | null {
  const entries = [
    ...(seen.struck ? ['~~struck~~ not counted'] : []),
    ...[...seen.marks].map((mark) => `${SYMBOLS[mark].symbol} ${SYMBOLS[mark].meaning}`),
  ];
  return entries.length > 0 ? `-# ${entries.join(' · ')}` : null;
}

/** The dice lines of a result, each roll's total included, then the legend of the marks: at most `max` characters. */
export function diceRollLines(result: DiceNotationResult, max: number): string[] {
  const seen: Seen = { struck: false, marks: new Set() };
  const rendered = result.rolls.map((roll) => pieces(roll.parts, true, seen));
  const key = legend(seen);
  const room = max - (key ? key.length + 1 : 0);
  const perRoll = Math.floor(room / result.rolls.length) - 1;
  const several = result.rolls.length > 1;
  const lines = result.rolls.map((roll, index) => rollLine(rendered[index]!, roll, several ? `\`${index + 1}\` ` : '', result.countsSuccesses, perRoll));
  return key ? [...lines, key] : lines;
}

/** The expression as typed, for a title or a code span (a valid expression has no backtick). */
function expressionOf(result: DiceNotationResult): string {
  return result.input.expression;
}

export function diceEmbed(result: DiceNotationResult, rollId: string | null): EmbedBuilder {
  const { label } = result.input;
  const title = `🎲 ${label !== null ? escapeMarkdown(label) : escapeMarkdown(expressionOf(result))}`;
  const head = label !== null ? [`\`${expressionOf(result)}\``] : [];
  const room = DISCORD_LIMITS.embedDescription - head.join('\n').length - 1;
  return new EmbedBuilder()
    .setColor(COLOR)
    .setTitle(truncate(title, DISCORD_LIMITS.embedTitle))
    .setDescription(truncate([...head, ...diceRollLines(result, room)].join('\n'), DISCORD_LIMITS.embedDescription))
    .setFooter({ text: rollFooter(rollId) });
}

/** The answer to /roll dice: public, and never a ping whatever the label says. */
export function diceReply(result: DiceNotationResult, rollId: string | null): ReplyPayload {
  return { embeds: [diceEmbed(result, rollId).toJSON()], allowedMentions: NO_PINGS };
}

/** A replayed dice roll as an embed field: the label and expression, then the dice. */
export function diceReplayField(result: DiceNotationResult): { name: string; value: string } {
  const { label } = result.input;
  const name = label !== null ? `${escapeMarkdown(label)} · ${expressionOf(result)}` : expressionOf(result);
  return {
    name: truncate(name, DISCORD_LIMITS.fieldName),
    value: truncate(diceRollLines(result, DISCORD_LIMITS.fieldValue).join('\n'), DISCORD_LIMITS.fieldValue),
  };
}
