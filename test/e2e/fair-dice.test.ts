// Commit and reveal through the real bot and the fake Discord: a session's commitment posted before its rolls, each
// roll's seed number on its message, the secret posted at the end, and the standalone verifier confirming a journal
// of that session and refusing copies tampered with in every way that matters.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitmentOf, derivedSeed, type JournalProof } from '../../src/engine/commitment.js';
import { verifyJournal } from '../../src/verify-journal.js';
import { journalProofHtml, journalProofMarkdown, journalRollLine } from '../../src/views/journal.js';
import { textOf, useTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox({ committedSeeds: true });
const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const HEX64 = /[0-9a-f]{64}/g;

async function troy(): Promise<void> {
  await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Lock Picking', level: 60 } });
}

const footerOf = (response: { embeds: unknown[] }) => (response.embeds[0] as { footer: { text: string } }).footer.text;
const rollIdOf = (response: { embeds: unknown[] }) => /^Roll (\w{8}) ·/.exec(footerOf(response))![1]!;

/** A journal of the server's rolls as `/journal export` writes one: each roll's line, then the proof. */
async function journalOf(current: TestSandbox): Promise<{ proof: JournalProof; markdown: string; html: string }> {
  const span = await current.bot.store.journal.span(current.fake.guildId, { from: new Date(0), to: new Date(Date.now() + 60_000), limit: 100, includeSecret: false });
  const proof: JournalProof = {
    format: 'tactalk-journal/1',
    guildId: current.fake.guildId,
    sessions: span.sessions,
    rolls: span.rolls.map((roll) => ({
      id: roll.id,
      kind: roll.kind,
      system: roll.system,
      inputs: roll.inputs,
      seed: roll.seed,
      sessionId: roll.sessionId,
      seedIndex: roll.seedIndex,
      dice: roll.dice,
      total: roll.total,
      success: roll.success,
      createdAt: roll.createdAt.toISOString(),
    })),
  };
  return written(proof);
}

/** The journal's two forms of a proof, its visible lines written from the proof's rolls. */
function written(proof: JournalProof, lineOf = journalRollLine): { proof: JournalProof; markdown: string; html: string } {
  const lines = proof.rolls.map((roll) => `Troy: ${lineOf(roll)}`);
  return {
    proof,
    markdown: `# Journal\n\n${lines.map((line) => `- ${line}`).join('\n')}\n\n${journalProofMarkdown(proof)}`,
    html: `<!doctype html><html><body><h1>Journal</h1>${lines.map((line) => `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`).join('')}${journalProofHtml(proof)}</body></html>`,
  };
}

const copy = (proof: JournalProof): JournalProof => structuredClone(proof);

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

    // The journal: three sessions, all closed; five rolls shown, the secret one left out (a gap, not a failure).
    const journal = await journalOf(sandbox());
    expect(journal.proof.sessions.map((session) => session.id)).toEqual([day!.id, play!.id, next!.id]);
    expect(journal.proof.rolls).toHaveLength(5);
    for (const document of [journal.markdown, journal.html]) {
      const verdict = await verifyJournal(document);
      expect(verdict.lines.join('\n')).toContain('CONFIRMED: 5 roll(s) recomputed from published secrets');
      expect(verdict.confirmed).toBe(true);
      expect(verdict.lines).toContain(`Session ${play!.id}: 1 seed number(s) up to 3 belong to rolls not in this journal (secret or blind rolls, or outside its span); that is not a failure.`);
    }

    // Tampered copies are refused, each saying what does not match.
    const [firstProof] = journal.proof.rolls.filter((roll) => roll.id === rollIdOf(first));
    const dice = firstProof!.dice as { tens: number; ones: number };
    const otherTens = (dice.tens + 3) % 10;
    const tampered: Array<[string, string, RegExp]> = [];
    // A die changed in the visible text only.
    tampered.push([
      'a die changed in the text',
      written(journal.proof, (roll) => journalRollLine(roll.id === firstProof!.id ? { ...roll, dice: { tens: otherTens, ones: dice.ones } } : roll)).markdown,
      new RegExp(`Roll ${firstProof!.id} \\(challenge\\): the journal's text does not show it as recomputed`),
    ]);
    // A die changed in the proof, and the text written to match it.
    const diceChanged = copy(journal.proof);
    diceChanged.rolls.find((roll) => roll.id === firstProof!.id)!.dice = { tens: otherTens, ones: dice.ones };
    tampered.push(['a die changed in the proof', written(diceChanged).markdown, new RegExp(`Roll ${firstProof!.id} \\(challenge\\): rolled again from its seed, its dice are`)]);
    // A total changed in proof and text alike.
    const totalChanged = copy(journal.proof);
    totalChanged.rolls.find((roll) => roll.id === firstProof!.id)!.total = firstProof!.total! + 1;
    tampered.push(['a total changed', written(totalChanged).markdown, new RegExp(`rolled again, its total is ${firstProof!.total}, not ${firstProof!.total! + 1}`)]);
    // The secret changed (another secret: its hash is not the commitment, and it gives other seeds).
    const secretChanged = copy(journal.proof);
    secretChanged.sessions.find((session) => session.id === play!.id)!.secret = '0'.repeat(64);
    tampered.push(['the secret changed', written(secretChanged).markdown, new RegExp(`Session ${play!.id} “The docks heist”: the SHA-256 of the secret given is`)]);
    // A seed changed: another index's seed of the same session, and a seed of its own.
    const seedMoved = copy(journal.proof);
    seedMoved.rolls.find((roll) => roll.id === firstProof!.id)!.seed = derivedSeed(secretHex, { sessionId: play!.id, seedIndex: 7 });
    tampered.push(['a seed moved to another index', written(seedMoved).markdown, new RegExp(`its seed c${play!.id}-7-\\w+ is not the seed of session ${play!.id} number 0`)]);
    const seedForged = copy(journal.proof);
    seedForged.rolls.find((roll) => roll.id === firstProof!.id)!.seed = `c${play!.id}-0-${'ab'.repeat(16)}`;
    tampered.push(['a seed forged', written(seedForged).markdown, new RegExp(`its seed is not the one session ${play!.id}'s secret gives for seed 0`)]);
    // The commitment changed.
    const commitmentChanged = copy(journal.proof);
    commitmentChanged.sessions.find((session) => session.id === play!.id)!.commitment = commitmentOf('another secret');
    tampered.push(['the commitment changed', written(commitmentChanged).html, new RegExp(`is ${play!.commitment}, not the commitment ${commitmentOf('another secret')}`)]);
    for (const [what, document, why] of tampered) {
      const verdict = await verifyJournal(document);
      expect(verdict.confirmed, what).toBe(false);
      const said = verdict.lines.join('\n');
      expect(said, what).toMatch(why);
      expect(said, what).toContain('REFUSED: this journal does not match its proof or its published secrets');
    }

    // The script itself, as a reader runs it: exit 0 for the journal, 1 for a tampered copy.
    const folder = mkdtempSync(join(tmpdir(), 'journal-'));
    writeFileSync(join(folder, 'journal.md'), journal.markdown);
    writeFileSync(join(folder, 'tampered.html'), written(diceChanged).html);
    const run = (file: string) => spawnSync(process.execPath, ['--import', 'tsx', 'src/verify-journal.ts', join(folder, file)], { encoding: 'utf8' });
    const good = run('journal.md');
    expect(good.stdout).toContain('CONFIRMED: 5 roll(s)');
    expect(good.status).toBe(0);
    const bad = run('tampered.html');
    expect(bad.stdout).toContain('REFUSED');
    expect(bad.status).toBe(1);
  });

  it("a journal of a session still open: its rolls are not yet checkable, which is no failure; a file without a proof is refused", async () => {
    await troy();
    await sandbox().one({ ...DISPATCHER, command: 'session open', options: { title: 'Ongoing' } });
    await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Lock Picking', cl: 90 } });
    const journal = await journalOf(sandbox());
    expect(journal.proof.sessions.find((session) => session.title === 'Ongoing')).toMatchObject({ secret: null });
    const verdict = await verifyJournal(journal.markdown);
    expect(verdict.confirmed).toBe(true);
    expect(verdict.lines.join('\n')).toContain('still open, its secret not yet published: its rolls are not yet checkable');
    expect(verdict.lines.join('\n')).toContain('CONFIRMED: 0 roll(s) recomputed from published secrets and shown as rolled; 1 not yet checkable against a secret');
    const none = await verifyJournal('# Journal\n\nNothing here.');
    expect(none.confirmed).toBe(false);
    expect(none.lines[0]).toMatch(/^REFUSED: No proof found/);
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
