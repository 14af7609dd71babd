// Commit and reveal through the real bot and the fake Discord: a session's commitment posted before its rolls, each
// roll's seed number on its message, the secret posted at the end, and the standalone verifier confirming a journal
// of that session and refusing copies tampered with in every way that matters.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitmentOf, derivedSeed, JOURNAL_PROOF_MARKDOWN_FENCE, type JournalProof, type JournalProofRoll } from '../../src/engine/commitment.js';
import { verifyJournal } from '../../src/verify-journal.js';
import { journalProofHtml, journalProofMarkdown, journalRollLine } from '../../src/views/journal.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox({ committedSeeds: true });
const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const HEX64 = /[0-9a-f]{64}/g;

async function troy(): Promise<void> {
  await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Lock Picking', level: 60 } });
}

const footerOf = (response: { embeds: unknown[] }) => (response.embeds[0] as { footer: { text: string } }).footer.text;
const rollIdOf = (response: { embeds: unknown[] }) => /^Roll (\w{8}) ·/.exec(footerOf(response))![1]!;

/** `/journal export` as a player, its two files read: the Markdown and the page, each with the proof. */
async function exportJournal(options: Record<string, string>): Promise<{ proof: JournalProof; markdown: string; html: string }> {
  const response = await sandbox().one({ user: 'sasha', command: 'journal export', options });
  const [md, page] = response.attachments ?? [];
  expect(md?.filename).toMatch(/\.md$/);
  expect(page?.filename).toMatch(/\.html$/);
  const markdown = md!.content!;
  const fenced = markdown.slice(markdown.indexOf(`${JOURNAL_PROOF_MARKDOWN_FENCE}\n`) + JOURNAL_PROOF_MARKDOWN_FENCE.length + 1);
  return { proof: JSON.parse(fenced.slice(0, fenced.indexOf('\n```'))) as JournalProof, markdown, html: page!.content! };
}

/** A copy of an exported journal with its proof replaced, and optionally a roll's visible line rewritten to match. */
function tampered(document: string, proof: JournalProof, changed: JournalProof, line?: { from: JournalProofRoll; to: JournalProofRoll }): string {
  const html = document.startsWith('<');
  let copy = document.replace(html ? journalProofHtml(proof) : journalProofMarkdown(proof), html ? journalProofHtml(changed) : journalProofMarkdown(changed));
  if (line) copy = copy.replace(journalRollLine(line.from), journalRollLine(line.to));
  // A tampering that did not take would make the refusal below prove nothing.
  expect(copy).not.toBe(document);
  return copy;
}

describe('dice you can prove fair', () => {
  it('publishes the commitment first, numbers every seed, publishes the secret at the end, and the verifier confirms the journal', async () => {
    await troy();
    // No play session yet: the day is one, and its first roll carries its commitment.
    const dayRoll = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Lock Picking', cl: 80 } });
    const day = await sandbox().bot.store.sessions.current(sandbox().fake.guildId);
    expect(day).toMatchObject({ kind: 'day' });
    expect(footerOf(dayRoll)).toContain(`seed 0 of session ${day!.id} · today's session commits to SHA-256 ${day!.commitment}`);
    const shown = await sandbox().one({ user: 'mike', command: 'session show' });
    expect(shown).toMatchObject({ ephemeral: true });
    expect(textOf(shown)).toContain(day!.commitment);
    expect(textOf(shown)).toContain('1 roll so far');

    // A player may not open one; a Dispatcher's opening posts the commitment and reveals the day's secret.
    const refused = await sandbox().one({ user: 'mike', command: 'session open', options: { title: 'The docks heist' } });
    expect(refused).toMatchObject({ ephemeral: true });
    expect(refused.content).toContain('Only a Dispatcher can open a play session');
    const opened = await sandbox().one({ ...DISPATCHER, command: 'session open', options: { title: 'The docks heist' } });
    expect(opened).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: { parse: [] } });
    const play = await sandbox().bot.store.sessions.current(sandbox().fake.guildId);
    expect(play).toMatchObject({ kind: 'play', title: 'The docks heist' });
    const openedText = textOf(opened);
    expect(openedText).toContain(`Session ${play!.id} “The docks heist” is open`);
    expect(openedText).toContain(`Commitment (SHA-256): \`${play!.commitment}\``);
    expect(openedText).toContain('the secret is published when the session closes');
    const daySecret = openedText.match(HEX64)!.find((hex) => hex !== play!.commitment && hex !== day!.commitment)!;
    expect(commitmentOf(daySecret)).toBe(day!.commitment);

    // Each roll's message shows its seed's number; a Dispatcher's secret roll takes one too, and stays out of the journal.
    const first = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Lock Picking', cl: 90 } });
    expect(footerOf(first)).toMatch(new RegExp(`^Roll \\w{8} · check it with /roll replay id:\\w{8} · seed 0 of session ${play!.id}$`));
    await sandbox().one({ ...DISPATCHER, command: 'sheet create', options: { name: 'Warden' } });
    await sandbox().one({ ...DISPATCHER, command: 'sheet skill set', options: { name: 'Shooting', level: 50 } });
    const secret = await sandbox().one({ ...DISPATCHER, command: 'roll challenge', options: { skill: 'Shooting', cl: 90, secret: true } });
    expect(secret).toMatchObject({ ephemeral: true });
    expect(footerOf(secret)).toContain(`seed 1 of session ${play!.id}`);
    // The notation library loads on its thread at the first such roll: the answer may follow a deferral.
    const notation = (await sandbox().act({ user: 'mike', command: 'roll dice', options: { expression: '3d6+2' } })).responses.at(-1)!;
    expect(footerOf(notation)).toContain(`seed 2 of session ${play!.id}`);
    const third = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Lock Picking', cl: 70, modifier: 5 } });
    expect(footerOf(third)).toContain(`seed 3 of session ${play!.id}`);
    // Replay by id works as ever for a derived seed.
    const replay = await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollIdOf(first) } });
    expect(textOf(replay)).toContain(`Roll ${rollIdOf(first)}: the dice match`);

    // Only a Dispatcher closes it; reveal is for a day session. The close posts the secret and how to check.
    const notYours = await sandbox().one({ user: 'mike', command: 'session close' });
    expect(notYours.content).toContain('Only a Dispatcher can close a play session');
    const notADay = await sandbox().one({ ...DISPATCHER, command: 'session reveal' });
    expect(notADay).toMatchObject({ ephemeral: true });
    expect(notADay.content).toContain('is a play session: `/session close` ends it');
    const closed = await sandbox().one({ ...DISPATCHER, command: 'session close' });
    expect(closed).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: { parse: [] } });
    const closedText = textOf(closed);
    const secretHex = closedText.match(HEX64)!.find((hex) => hex !== play!.commitment)!;
    expect(commitmentOf(secretHex)).toBe(play!.commitment);
    expect(closedText).toContain('4 rolls were made from its seeds');
    expect(closedText).toContain('npx tsx src/verify-journal.ts <journal file>');
    // The close carries the session's journal, checkable at once: its three public rolls recomputed from the secret
    // just published (the Dispatcher's secret roll is left out, a gap).
    expect(closed.attachments?.map((file) => file.filename.replace(/\d{4}-\d\d-\d\d/, 'DATE'))).toEqual(['journal-DATE.md', 'journal-DATE.html']);
    for (const file of closed.attachments ?? []) {
      const verdict = await verifyJournal(file.content!);
      expect(verdict.confirmed, verdict.lines.join('\n')).toBe(true);
      expect(verdict.lines.join('\n')).toContain('CONFIRMED: 3 roll(s) recomputed from published secrets');
    }
    expect(derivedSeed(secretHex, { sessionId: play!.id, seedIndex: 0 })).toBe((await sandbox().bot.store.rolls.find(sandbox().fake.guildId, rollIdOf(first)))!.seed);
    const twice = await sandbox().one({ ...DISPATCHER, command: 'session close' });
    expect(twice.content).toContain('No session is open, so there is nothing to close');

    // Later rolls use a new session.
    const later = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Lock Picking', cl: 90 } });
    const next = await sandbox().bot.store.sessions.current(sandbox().fake.guildId);
    expect(next).toMatchObject({ kind: 'day' });
    expect(next!.id).not.toBe(play!.id);
    expect(footerOf(later)).toContain(`seed 0 of session ${next!.id} · today's session commits to SHA-256 ${next!.commitment}`);
    const revealed = await sandbox().one({ ...DISPATCHER, command: 'session reveal' });
    expect(commitmentOf(textOf(revealed).match(HEX64)!.find((hex) => hex !== next!.commitment)!)).toBe(next!.commitment);

    // The journal, as /journal export writes it: three sessions, all closed; five rolls shown, the secret one left out
    // (a gap, not a failure).
    const journal = await exportJournal({ since: '1h' });
    expect(journal.proof.sessions.map((session) => session.id)).toEqual([day!.id, play!.id, next!.id]);
    expect(journal.proof.rolls).toHaveLength(5);
    for (const document of [journal.markdown, journal.html]) {
      const verdict = await verifyJournal(document);
      expect(verdict.lines.join('\n')).toContain('CONFIRMED: 5 roll(s) recomputed from published secrets');
      expect(verdict.confirmed).toBe(true);
      expect(verdict.lines).toContain(`Session ${play!.id}: 1 seed number(s) up to 3 belong to rolls not in this journal (secret or blind rolls, or outside its span); that is not a failure.`);
    }

    // Tampered copies are refused, each saying what does not match.
    const { proof, markdown, html } = journal;
    const firstProof = proof.rolls.find((roll) => roll.id === rollIdOf(first))!;
    const dice = firstProof.dice as { tens: number; ones: number };
    const otherDice = { tens: (dice.tens + 3) % 10, ones: dice.ones };
    const changed = (change: (copy: JournalProof) => void) => {
      const copy = structuredClone(proof);
      change(copy);
      return copy;
    };
    const rollOf = (copy: JournalProof) => copy.rolls.find((roll) => roll.id === firstProof.id)!;
    const playOf = (copy: JournalProof) => copy.sessions.find((session) => session.id === play!.id)!;
    const copies: Array<[string, string, RegExp]> = [
      // A die changed in the visible text only.
      ['a die changed in the text', tampered(markdown, proof, proof, { from: firstProof, to: { ...firstProof, dice: otherDice } }), new RegExp(`Roll ${firstProof.id} \\(challenge\\): the journal's text does not show it as recomputed`)],
      // A die changed in the proof, the text rewritten to match it.
      [
        'a die changed in the proof',
        tampered(markdown, proof, changed((copy) => void (rollOf(copy).dice = otherDice)), { from: firstProof, to: { ...firstProof, dice: otherDice } }),
        new RegExp(`Roll ${firstProof.id} \\(challenge\\): rolled again from its seed, its dice are`),
      ],
      // A total changed in proof and text alike.
      [
        'a total changed',
        tampered(html, proof, changed((copy) => void (rollOf(copy).total = firstProof.total! + 1)), { from: firstProof, to: { ...firstProof, total: firstProof.total! + 1 } }),
        new RegExp(`rolled again, its total is ${firstProof.total}, not ${firstProof.total! + 1}`),
      ],
      // The secret changed: its hash is not the commitment, and it gives other seeds.
      ['the secret changed', tampered(markdown, proof, changed((copy) => void (playOf(copy).secret = '0'.repeat(64)))), new RegExp(`Session ${play!.id} “The docks heist”: the SHA-256 of the secret given is`)],
      // A seed changed: another number's seed of the same session, or one made up.
      [
        'a seed moved to another number',
        tampered(markdown, proof, changed((copy) => void (rollOf(copy).seed = derivedSeed(secretHex, { sessionId: play!.id, seedIndex: 7 })))),
        new RegExp(`its seed c${play!.id}-7-\\w+ is not the seed of session ${play!.id} number 0`),
      ],
      ['a seed forged', tampered(markdown, proof, changed((copy) => void (rollOf(copy).seed = `c${play!.id}-0-${'ab'.repeat(16)}`))), new RegExp(`its seed is not the one session ${play!.id}'s secret gives for seed 0`)],
      // The commitment changed.
      [
        'the commitment changed',
        tampered(html, proof, changed((copy) => void (playOf(copy).commitment = commitmentOf('another secret')))),
        new RegExp(`is ${play!.commitment}, not the commitment ${commitmentOf('another secret')}`),
      ],
    ];
    for (const [what, document, why] of copies) {
      const verdict = await verifyJournal(document);
      expect(verdict.confirmed, what).toBe(false);
      const said = verdict.lines.join('\n');
      expect(said, what).toMatch(why);
      expect(said, what).toContain('REFUSED: this journal does not match its proof or its published secrets');
    }
  });

  it("a journal of a session still open: its rolls are not yet checkable, which is no failure; a file without a proof is refused", async () => {
    await troy();
    await sandbox().one({ ...DISPATCHER, command: 'session open', options: { title: 'Ongoing' } });
    await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Lock Picking', cl: 90 } });
    const journal = await exportJournal({ since: '1h' });
    expect(journal.proof.sessions.find((session) => session.title === 'Ongoing')).toMatchObject({ secret: null });
    const verdict = await verifyJournal(journal.markdown);
    expect(verdict.confirmed).toBe(true);
    expect(verdict.lines.join('\n')).toContain('still open, its secret not yet published: its rolls are not yet checkable');
    expect(verdict.lines.join('\n')).toContain('CONFIRMED: 0 roll(s) recomputed from published secrets and shown as rolled; 1 not yet checkable against a secret');
    const none = await verifyJournal('# Journal\n\nNothing here.');
    expect(none.confirmed).toBe(false);
    expect(none.lines[0]).toMatch(/^REFUSED: No proof found/);
  });

  it('a restarted bot goes on with the open session past the last seed number the roll log holds, and the script confirms its journal', async () => {
    await troy();
    await sandbox().one({ ...DISPATCHER, command: 'session open', options: { title: 'Across a restart' } });
    const session = (await sandbox().bot.store.sessions.current(sandbox().fake.guildId))!;
    for (const index of [0, 1]) {
      const made = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Lock Picking', cl: 90 } });
      expect(footerOf(made)).toContain(`seed ${index} of session ${session.id}`);
    }
    await sandbox().restartBot();
    const after = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Lock Picking', cl: 90 } });
    expect(footerOf(after)).toContain(`seed 2 of session ${session.id}`);
    const closed = await sandbox().one({ ...DISPATCHER, command: 'session close' });
    expect(textOf(closed)).toContain('3 rolls were made from its seeds');
    const journal = await exportJournal({ since: '1h' });
    expect((await verifyJournal(journal.markdown)).lines.at(-1)).toBe('CONFIRMED: 3 roll(s) recomputed from published secrets and shown as rolled.');

    // The script itself, as a reader runs it: exit 0 for the journal, 1 for a copy with a die changed in its text.
    const folder = mkdtempSync(join(tmpdir(), 'journal-'));
    const [firstRoll] = journal.proof.rolls;
    const dice = firstRoll!.dice as { tens: number; ones: number };
    writeFileSync(join(folder, 'journal.md'), journal.markdown);
    writeFileSync(join(folder, 'tampered.html'), tampered(journal.html, journal.proof, journal.proof, { from: firstRoll!, to: { ...firstRoll!, dice: { tens: (dice.tens + 1) % 10, ones: dice.ones } } }));
    const run = (file: string) =>
      new Promise<{ status: number; stdout: string }>((done) => {
        execFile(process.execPath, ['--import', 'tsx', 'src/verify-journal.ts', join(folder, file)], { encoding: 'utf8' }, (error, stdout) => done({ status: error ? Number(error.code) : 0, stdout }));
      });
    const [good, bad] = await Promise.all([run('journal.md'), run('tampered.html')]);
    expect(good.stdout).toContain('CONFIRMED: 3 roll(s)');
    expect(good.status).toBe(0);
    expect(bad.stdout).toContain(`Roll ${firstRoll!.id} (challenge): the journal's text does not show it as recomputed`);
    expect(bad.stdout).toContain('REFUSED');
    expect(bad.status).toBe(1);
  });

  it('refuses a plain player, a blank title, and a reveal with nothing open, each privately saying what would work', async () => {
    const blank = await sandbox().one({ ...DISPATCHER, command: 'session open', options: { title: '   ' } });
    expect(blank).toMatchObject({ ephemeral: true });
    expect(blank.content).toContain('Give the session a title, e.g. `/session open title:The docks heist`');
    const reveal = await sandbox().one({ ...DISPATCHER, command: 'session reveal' });
    expect(reveal).toMatchObject({ ephemeral: true });
    expect(reveal.content).toContain('No session is open');
    const playerReveal = await sandbox().one({ user: 'mike', command: 'session reveal' });
    expect(playerReveal.content).toContain("Only a Dispatcher can reveal a day session's secret");
    expect(await sandbox().bot.store.sessions.current(sandbox().fake.guildId)).toBeNull();
  });
});
