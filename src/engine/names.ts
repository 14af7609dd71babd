/**
 * The names users give things: sheets, NPCs, skills, archetypes, conditions, attributes, outcome tables. One reading
 * for all of them, whether typed in a slash command or read from a file: Unicode NFKC (a full-width "Ｃｌｉｍｂｉｎｇ"
 * or a ligature "ﬁ" is the letters it looks like), spaces trimmed and collapsed, and no character that cannot be
 * seen, because two names that look the same must be the same name (RULES 1.7 matches names as players read them).
 */
import unhomoglyph from 'unhomoglyph';
import { UserError } from '../errors.js';

/** Names are at most this long unless a caller says otherwise (sheets and tables both use it). */
export const NAME_LENGTH_MAX = 64;

/** Any character that may be invisible: the careful check below runs only on names that hold one. */
const MAYBE_INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}\u2800]/u;
const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const ZERO_WIDTH = /[\u034f\u180e\u200b-\u200d\u2060\ufeff]/u;
const EMOJI = /\p{Extended_Pictographic}/u;
const EMOJI_SKIN_TONE = /[\u{1f3fb}-\u{1f3ff}]/u;
/**
 * Scripts whose letters a zero-width joiner or non-joiner visibly reshapes (Persian می‌خواهم, a Devanagari half
 * form): there the joiner is part of the spelling and shows; between other letters it shows nothing and is refused.
 */
const JOINING_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Myanmar}\p{Script=Khmer}]/u;
/** Tabs, line breaks and the other spaces are read as one space, not refused (U+FEFF is zero-width, not a space). */
const SPACES = /[^\S\ufeff]+/g;

/**
 * Why a character cannot be in a name, or null when it can. Emoji sequences keep what draws them: the joiner
 * between two emoji (👨‍👩‍👧) and the variation selector that asks for the emoji form (❤️, 1️⃣).
 */
function invisibleKind(char: string, before: string | undefined, after: string | undefined): string | null {
  if (!MAYBE_INVISIBLE.test(char) || (char !== '\ufeff' && /^\s$/.test(char))) return null;
  if ((char === '\u200c' || char === '\u200d') && before !== undefined && after !== undefined && JOINING_SCRIPT.test(before) && JOINING_SCRIPT.test(after)) return null;
  if (char === '\u200d' && before !== undefined && after !== undefined && (EMOJI.test(before) || before === '\ufe0f' || EMOJI_SKIN_TONE.test(before)) && EMOJI.test(after)) return null;
  if ((char === '\ufe0f' || char === '\ufe0e') && before !== undefined && (EMOJI.test(before) || (/[#*0-9]/.test(before) && after === '\u20e3'))) return null;
  if (BIDI_CONTROLS.test(char)) return 'a text-direction control';
  if (ZERO_WIDTH.test(char)) return 'a zero-width character';
  if (/\p{Cc}/u.test(char)) return 'a control character';
  if (/\p{Cs}/u.test(char)) return 'half of a broken character pair (a lone surrogate)';
  return 'an invisible character';
}

function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The first invisible character of a (normalised) name: what it is and what comes before it. */
function firstInvisible(name: string): { kind: string; char: string; before: string } | null {
  if (!MAYBE_INVISIBLE.test(name)) return null;
  const chars = Array.from(name);
  for (let index = 0; index < chars.length; index++) {
    const kind = invisibleKind(chars[index]!, chars[index - 1], chars[index + 1]);
    if (kind) return { kind, char: chars[index]!, before: chars.slice(0, index).join('') };
  }
  return null;
}

/** The name as the user typed it, NFKC, with the surrounding and doubled spaces removed; nothing refused. */
export function cleanName(name: string): string {
  return name.normalize('NFKC').replace(SPACES, ' ').trim();
}

/** Names are matched without regard to case, spacing or Unicode form (RULES 1.7). */
export function nameKey(name: string): string {
  return cleanName(name).toLowerCase();
}

/** Unicode's confusable skeleton (UTS #39: NFD, each character mapped by its confusables.txt data, NFD again). */
function skeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

/**
 * What a name looks like, without regard to case: two names with one look-alike key can be taken for each other
 * ("Troy" and "Тroy" with a Cyrillic Т, "Boss" and "Bоss" with a Cyrillic о, "Modern" and "Modem"). Names keep their
 * keys (`nameKey`); this only tells a new name that would pass for one already there (`lookAlikeIn`).
 */
export function lookAlikeKey(name: string): string {
  return skeleton(skeleton(cleanName(name)).toLowerCase());
}

/**
 * The first of `names` that looks like `name` without being the same name (its `nameKey` differs: the same name is
 * its list's own rule), or null. A new name in a list (a member's sheets, the server's NPCs or tables, a sheet's
 * skills…) is refused when it has one.
 */
export function lookAlikeIn(name: string, names: Iterable<string>): string | null {
  const key = nameKey(name);
  const looks = lookAlikeKey(name);
  for (const other of names) if (nameKey(other) !== key && lookAlikeKey(other) === looks) return other;
  return null;
}

/**
 * The first character of `name` that `other` does not have: what tells two look-alike names apart ("Тroy" from
 * "Troy": the Cyrillic Т), or null when every one of its characters is in the other.
 */
export function lookAlikeDifference(name: string, other: string): string | null {
  const theirs = new Set(Array.from(cleanName(other)));
  return Array.from(cleanName(name)).find((char) => !theirs.has(char)) ?? null;
}

/** The name with its invisible characters left out: how a name stored before they were refused is written to a file. */
export function visibleName(name: string): string {
  const chars = Array.from(cleanName(name));
  return cleanName(chars.filter((char, index) => invisibleKind(char, chars[index - 1], chars[index + 1]) === null).join(''));
}

/**
 * What is wrong with a name for something new, as the end of a sentence starting "The skill name …", or the
 * cleaned name when nothing is.
 */
export function nameProblem(raw: string, maxLength = NAME_LENGTH_MAX): { name: string } | { problem: string } {
  const name = cleanName(raw);
  if (name.length === 0) return { problem: 'cannot be empty' };
  // The character is named as the user typed it (NFKC may turn one invisible character into another).
  const invisible = firstInvisible(raw.replace(SPACES, ' ')) ?? firstInvisible(name);
  if (invisible) {
    const where = invisible.before.trim() ? `after "${invisible.before.trim().slice(-20)}"` : 'at its start';
    return {
      problem: `contains ${invisible.kind} (${codePoint(invisible.char)}) ${where}, which cannot be seen and would make it look like another name; type it without that character`,
    };
  }
  if (name.length > maxLength) return { problem: `may be at most ${maxLength} characters; yours has ${name.length}` };
  return { name };
}

/**
 * Checks the name of something new (a sheet, a skill, a table…) and returns it cleaned; refuses, naming what is
 * wrong, an empty or overlong name and any character that cannot be seen. `what` says whose name: "skill", "NPC".
 */
export function checkName(what: string, raw: string, maxLength = NAME_LENGTH_MAX): string {
  const checked = nameProblem(raw, maxLength);
  if ('problem' in checked) throw new UserError(`The ${what} name ${checked.problem}.`);
  return checked.name;
}

function editDistance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0]!;
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j]!;
      previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length]!;
}

/**
 * The names closest to what the user typed, best first: names containing it, then by edit distance.
 * Used to suggest "did you mean" when a skill or archetype is not on the sheet.
 */
export function closestNames(typed: string, names: readonly string[], count = 3): string[] {
  const key = nameKey(typed);
  return names
    .map((name) => {
      const candidate = nameKey(name);
      const contains = candidate.includes(key) || key.includes(candidate);
      return { name, score: (contains ? 0 : 1000) + editDistance(key, candidate) };
    })
    .filter((entry) => entry.score < 1000 || entry.score - 1000 <= Math.max(2, Math.floor(key.length / 3)))
    .sort((a, b) => a.score - b.score || a.name.localeCompare(b.name))
    .slice(0, count)
    .map((entry) => entry.name);
}
