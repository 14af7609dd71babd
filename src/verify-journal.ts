/**
 * `npx tsx src/verify-journal.ts journal.md` (or the journal's `.html` page; `npm run verify:journal -- <file>`):
 * checks a journal against the secrets its sessions published (commit and reveal, docs/fair-dice.md). It needs
 * nothing but the file and this repository: no bot, no database, no network.
 *
 * For each closed session: the SHA-256 of its secret is the commitment published when it opened. For each roll: its
 * seed is the one the secret gives at its session and index, the dice rolled again from its kind, inputs and seed
 * are the dice the journal shows (and, for the kinds whose verdict is read here, its total and success), and the
 * journal's text holds the roll's line as recomputed. Exit code 0 when everything checked is confirmed, 1 when
 * something does not match (or the file holds no proof), each mismatch said in words.
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { commitmentOf, derivedSeed, JOURNAL_PROOF_HTML_ID, JOURNAL_PROOF_MARKDOWN_FENCE, seedOrigin, type JournalProof, type JournalProofRoll, type JournalProofSession } from './engine/commitment.js';
import { loadDiceNotation, notationTotal, type DiceNotationResult } from './engine/dice-notation.js';
import { diceMatch, rederive, type Rederived } from './engine/replay.js';
import { journalRollLine } from './views/journal.js';

/** What the verifier found: each line as printed, and whether the journal is confirmed. */
export interface JournalVerdict {
  confirmed: boolean;
  lines: string[];
}

/** A journal the verifier cannot read at all. */
class UnreadableJournal extends Error {}

/** The proof and the text around it: the fenced block of a Markdown journal, or the JSON script of its HTML page. */
function readJournal(document: string): { proof: JournalProof; text: string } {
  const markdownStart = document.indexOf(`${JOURNAL_PROOF_MARKDOWN_FENCE}\n`);
  if (markdownStart >= 0) {
    const jsonStart = markdownStart + JOURNAL_PROOF_MARKDOWN_FENCE.length + 1;
    const end = document.indexOf('\n```', jsonStart - 1);
    if (end < 0) throw new UnreadableJournal(`The proof block (${JOURNAL_PROOF_MARKDOWN_FENCE}) is never closed by a line of three backticks.`);
    return { proof: parseProof(document.slice(jsonStart, end)), text: document.slice(0, markdownStart) + document.slice(end + 4) };
  }
  const script = new RegExp(`<script[^>]*\\bid="${JOURNAL_PROOF_HTML_ID}"[^>]*>([\\s\\S]*?)</script>`).exec(document);
  if (script) return { proof: parseProof(script[1]!), text: pageText(document.slice(0, script.index) + document.slice(script.index + script[0].length)) };
  throw new UnreadableJournal(
    `No proof found: a journal exported by /journal ends with a block opening \`${JOURNAL_PROOF_MARKDOWN_FENCE}\` (Markdown) or holds <script id="${JOURNAL_PROOF_HTML_ID}"> (HTML).`,
  );
}

/** An HTML page's text as a reader sees it: without tags, styles or scripts, its character references read. */
function pageText(html: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', middot: '·' };
  return html
    .replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<[^>]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
      if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
      return named[name.toLowerCase()] ?? whole;
    });
}

function parseProof(json: string): JournalProof {
  let proof: unknown;
  try {
    proof = JSON.parse(json);
  } catch (error) {
    throw new UnreadableJournal(`The proof is not valid JSON (${error instanceof Error ? error.message : String(error)}).`);
  }
  const shaped = proof as Partial<JournalProof> | null;
  if (shaped?.format !== 'tactalk-journal/1' || !Array.isArray(shaped.sessions) || !Array.isArray(shaped.rolls)) {
    throw new UnreadableJournal('The proof is not a tactalk-journal/1 proof (format, sessions and rolls).');
  }
  return shaped as JournalProof;
}

/**
 * The total and success a roll's kind gives from its result rolled again, for the kinds whose commands store them
 * so (commands/roll.ts, table.ts, roll-dice.ts): the other kinds' dice are compared, their verdicts read from the proof.
 */
function recomputedVerdict(rolled: Rederived, stored: JournalProofRoll): { total: number | null; success: boolean | null } {
  const result = rolled.result as { result?: unknown; success?: unknown };
  if (rolled.kind === 'challenge' && typeof result.result === 'number' && typeof result.success === 'boolean') return { total: result.result, success: result.success };
  if (rolled.kind === 'outcome' && typeof result.result === 'number') return { total: result.result, success: null };
  if (rolled.kind === 'dice') return { total: notationTotal(rolled.result as DiceNotationResult), success: null };
  return { total: stored.total, success: stored.success };
}

const sessionLabel = (session: JournalProofSession) => `Session ${session.id}${session.kind === 'day' ? ' (a day session)' : session.title ? ` “${session.title}”` : ''}`;

/** Checks a journal's text and proof; never throws for what the document holds (an unreadable one is refused). */
export async function verifyJournal(document: string): Promise<JournalVerdict> {
  let journal: { proof: JournalProof; text: string };
  try {
    journal = readJournal(document);
  } catch (error) {
    if (error instanceof UnreadableJournal) return { confirmed: false, lines: [`REFUSED: ${error.message}`] };
    throw error;
  }
  const { proof, text } = journal;
  const lines: string[] = [];
  let confirmed = true;
  const refuse = (line: string) => {
    confirmed = false;
    lines.push(`  ✗ ${line}`);
  };

  // Sessions: a closed one's secret must be the one committed to.
  const sessions = new Map<number, JournalProofSession>();
  const secretOk = new Map<number, boolean>();
  for (const session of proof.sessions) {
    sessions.set(session.id, session);
    if (session.secret === null) {
      lines.push(`${sessionLabel(session)}: still open, its secret not yet published: its rolls are not yet checkable.`);
      continue;
    }
    const matches = commitmentOf(session.secret) === session.commitment;
    secretOk.set(session.id, matches);
    if (matches) lines.push(`${sessionLabel(session)}: the published secret's SHA-256 is the commitment ${session.commitment}.`);
    else refuse(`${sessionLabel(session)}: the SHA-256 of the secret given is ${commitmentOf(session.secret)}, not the commitment ${session.commitment}.`);
  }

  if (proof.rolls.some((roll) => roll.kind === 'dice')) await loadDiceNotation();
  const indexes = new Map<number, number[]>();
  let checked = 0;
  let uncheckable = 0;
  for (const roll of proof.rolls) {
    const name = `Roll ${roll.id} (${roll.kind})`;
    let failed = false;
    const fail = (why: string) => {
      failed = true;
      refuse(`${name}: ${why}`);
    };
    // The seed: from the secret of the session it names, at the index it names.
    const origin = seedOrigin(roll.seed);
    let covered = false;
    if (roll.sessionId === null) {
      if (origin) fail(`its seed names session ${origin.sessionId}, but the roll names none.`);
    } else if (!origin || origin.sessionId !== roll.sessionId || origin.seedIndex !== roll.seedIndex) {
      fail(`its seed ${roll.seed} is not the seed of session ${roll.sessionId} number ${roll.seedIndex}.`);
    } else {
      const session = sessions.get(roll.sessionId);
      if (!session) fail(`it names session ${roll.sessionId}, which the proof does not carry.`);
      else if (session.secret !== null) {
        if (derivedSeed(session.secret, origin) !== roll.seed) fail(`its seed is not the one session ${session.id}'s secret gives for seed ${origin.seedIndex}.`);
        else covered = secretOk.get(session.id) === true;
      }
      indexes.set(roll.sessionId, [...(indexes.get(roll.sessionId) ?? []), origin.seedIndex]);
    }
    // The dice: rolled again from the kind, inputs and seed.
    let recomputed: JournalProofRoll = roll;
    try {
      const rolled = rederive(roll.kind, roll.inputs, roll.seed);
      if (!diceMatch(rolled, roll.dice)) fail(`rolled again from its seed, its dice are ${JSON.stringify(rolled.dice)}, not ${JSON.stringify(roll.dice)}.`);
      const verdict = recomputedVerdict(rolled, roll);
      if (verdict.total !== roll.total) fail(`rolled again, its total is ${verdict.total}, not ${roll.total}.`);
      if (verdict.success !== roll.success) fail(`rolled again, it is a ${verdict.success ? 'success' : 'failure'}, not a ${roll.success ? 'success' : 'failure'}.`);
      recomputed = { ...roll, dice: rolled.dice, ...verdict };
    } catch (error) {
      fail(`it cannot be rolled again from its kind and inputs (${error instanceof Error ? error.message : String(error)}).`);
    }
    // The text: what the journal shows of the roll is the roll recomputed.
    const line = journalRollLine(recomputed);
    if (!text.includes(line)) fail(`the journal's text does not show it as recomputed: “${line}”.`);
    if (failed) continue;
    if (covered) checked++;
    else {
      uncheckable++;
      lines.push(`  · ${name}: its dice follow from its seed, but ${roll.sessionId === null ? 'its seed is its own (made before commit and reveal): no commitment covers it' : `session ${roll.sessionId}'s secret is not published yet`}.`);
    }
  }

  // Seeds handed out for rolls this journal leaves out (secret or blind rolls, rolls outside its span) leave gaps.
  for (const [sessionId, seen] of indexes) {
    const sorted = [...new Set(seen)].sort((a, b) => a - b);
    if (sorted.length !== seen.length) refuse(`Session ${sessionId}: two rolls claim the same seed number.`);
    const missing = sorted.length === 0 ? 0 : sorted[sorted.length - 1]! + 1 - sorted.length;
    if (missing > 0) lines.push(`Session ${sessionId}: ${missing} seed number(s) up to ${sorted[sorted.length - 1]} belong to rolls not in this journal (secret or blind rolls, or outside its span); that is not a failure.`);
  }

  lines.push(
    confirmed
      ? `CONFIRMED: ${checked} roll(s) recomputed from published secrets and shown as rolled${uncheckable > 0 ? `; ${uncheckable} not yet checkable against a secret` : ''}.`
      : 'REFUSED: this journal does not match its proof or its published secrets (see ✗ above).',
  );
  return { confirmed, lines };
}

async function main(): Promise<void> {
  const file = process.argv[2];
  if (!file) {
    console.error('Usage: npx tsx src/verify-journal.ts <journal.md or journal.html>');
    process.exit(1);
  }
  let document: string;
  try {
    document = readFileSync(file, 'utf8');
  } catch (error) {
    console.error(`Cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const verdict = await verifyJournal(document);
  for (const line of verdict.lines) console.log(line);
  process.exit(verdict.confirmed ? 0 : 1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
