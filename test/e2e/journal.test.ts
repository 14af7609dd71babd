// The session journal (issue 25 §4) through the fake Discord: a scene played as a table plays it (a scene marker, an
// intent answered with a call and declined, a Dispatcher's call rolled and failed with its consequence roll, a contest
// agreed and won, a note), then /journal export read as a player and as a Dispatcher would read its two files.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { JOURNAL_PROOF_HTML_ID, JOURNAL_PROOF_MARKDOWN_FENCE, type JournalProof } from '../../src/engine/commitment.js';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import type { OutcomeTable } from '../../src/engine/tables.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { JOURNAL_MAX_ITEMS, journalRollLine } from '../../src/views/journal.js';
import { ARTIFACTS, HAVE_CHROMIUM, launchChromium } from '../helpers/browser.js';
import { importSheet, textOf, useTestSandbox } from '../helpers/sandbox.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const CLIMB = { intent: 'scale the side of the building to the balcony', outcome: 'Troy is on the balcony, unseen' };

const FALL_DAMAGE: OutcomeTable = {
  name: 'Fall Damage',
  die: 'd100',
  asks: 'Nothing to add',
  skill: null,
  rows: [
    { min: 1, max: 60, text: 'Bruised: Troy limps on.', next: null, reveals: null },
    { min: 61, max: 200, text: 'A broken leg.', next: null, reveals: null },
  ],
};

/** A seed whose D100 makes Climbing 40 fail against CL 120 (a die under 80): computed, not guessed. */
const FAILING = Array.from({ length: 200 }, (_, index) => `journal-climb-${index}`).find((seed) => rollD100(seededRng(seed)).value < 80)!;
/** A contest seed where Kat (attacker, CQC vs Troy's 35 + 5 Acuity) succeeds and Troy (defender, +10 Grit vs 37) fails: Kat wins. */
const KAT_WINS = Array.from({ length: 500 }, (_, index) => `journal-contest-${index}`).find((seed) => {
  const rng = seededRng(seed);
  const [kat, troy] = [rollD100(rng).value, rollD100(rng).value];
  return kat >= 40 && kat < 100 && troy < 20;
})!;

const KAT = { name: 'Kat', skills: [{ name: 'CQC', level: 37 }], archetypes: [{ name: 'Acuity', modifier: 5 }], conditions: [] };
const TROY = {
  name: 'Troy',
  skills: [
    { name: 'Climbing', level: 40 },
    { name: 'Shotgun Handling', level: 35 },
  ],
  archetypes: [{ name: 'Grit', modifier: 10 }],
  conditions: [],
};

const sandbox = useTestSandbox({ seeds: [FAILING, 'journal-fall-0', ...Array.from({ length: 10 }, () => KAT_WINS)] });

interface Exported {
  response: SandboxResponse;
  markdown: string;
  html: string;
  proof: JournalProof;
}

/** /journal export as `who`, its two files read; fails unless it is answered with exactly the Markdown and the page. */
async function exportJournal(who: { user: string; roles?: string[] }, options: Record<string, string | boolean> = {}): Promise<Exported> {
  const response = await sandbox().one({ ...who, command: 'journal export', options });
  const files = response.attachments ?? [];
  expect(files.map((file) => file.filename)).toEqual([expect.stringMatching(/^journal-\d{4}-\d{2}-\d{2}\.md$/), expect.stringMatching(/^journal-\d{4}-\d{2}-\d{2}\.html$/)]);
  const markdown = files[0]!.content!;
  const html = files[1]!.content!;
  const fenced = markdown.slice(markdown.indexOf(`${JOURNAL_PROOF_MARKDOWN_FENCE}\n`) + JOURNAL_PROOF_MARKDOWN_FENCE.length + 1);
  const proof = JSON.parse(fenced.slice(0, fenced.indexOf('\n```'))) as JournalProof;
  return { response, markdown, html, proof };
}

/** The Markdown journal's lines of the story (its list items and scene headings), in order. */
function storyLines(markdown: string): string[] {
  return markdown.split('\n').filter((line) => line.startsWith('- **') || line.startsWith('## '));
}

function indexOfLine(lines: string[], pattern: RegExp): number {
  const index = lines.findIndex((line) => pattern.test(line));
  expect(index, `${pattern} in\n${lines.join('\n')}`).toBeGreaterThanOrEqual(0);
  return index;
}

/** Plays the scene: every kind of entry the journal tells, in this order. */
async function playTheScene(): Promise<{ requestId: string; directId: string; contestId: string }> {
  const s = sandbox();
  await importSheet(s, 'mike', TROY);
  await importSheet(s, 'sasha', KAT);
  await s.bot.store.tables.save(s.fake.guildId, FALL_DAMAGE);

  const marker = await s.one({ ...DISPATCHER, command: 'journal scene', options: { title: 'The warehouse roof' } });
  expect(marker).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: { parse: [] } });
  expect(marker.content).toContain('🎬 **Scene: The warehouse roof**');

  // An intent answered with a call, and declined.
  const stated = await s.one({ user: 'mike', command: 'roll intent', options: CLIMB });
  const requestId = /Intent #(\d+)/.exec(textOf(stated))![1]!;
  await s.act({ ...DISPATCHER, modal: `dispatch:callform:${requestId}`, message: stated.messageId!, fields: { skill: 'Climbing', cl: '120', adds: '', consequence: 'Troy falls from the wall.', consequence_table: 'Fall Damage' } });
  await s.act({ user: 'mike', button: `dispatch:decline:${requestId}`, message: stated.messageId! });

  // A Dispatcher's call, rolled, failed, and its consequence rolled.
  const direct = await s.act({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', skill: 'Climbing', cl: 120, ...CLIMB, consequence: 'Troy slips.', 'consequence-table': 'Fall Damage' } });
  const post = direct.responses.find((response) => !response.ephemeral)!;
  const directId = /#(\d+)/.exec(textOf(post))![1]!;
  await s.act({ user: 'mike', button: `dispatch:roll:${directId}`, message: post.messageId! });
  await s.act({ user: 'mike', button: `dispatch:consequence:${directId}`, message: post.messageId! });

  // A contest agreed and won.
  const opening = await s.one({ user: 'sasha', command: 'contest start', options: { opponent: 'mike', intent: 'Kat disarms Troy on the roof', stakes: 'Troy is disarmed', skill: 'CQC', role: 'attacker', archetypes: 'Acuity' } });
  const contestId = /Contest #(\d+)/.exec(textOf(opening))![1]!;
  await s.one({ user: 'mike', button: `contest:accept:${contestId}`, message: opening.messageId! });
  await s.act({ user: 'mike', modal: `contest:acceptform:${contestId}`, message: opening.messageId!, fields: { stakes: 'Kat is thrown off the roof', role: 'defender', skill: 'Shotgun Handling', archetypes: 'Grit' } });
  await s.act({ user: 'sasha', button: `contest:agree:${contestId}`, message: opening.messageId! });

  const note = await s.one({ user: 'sasha', command: 'journal note', options: { text: 'Kat pockets the **keycard**' } });
  expect(note).toMatchObject({ ephemeral: true });
  return { requestId, directId, contestId };
}

describe('/journal export', () => {
  it('reads as the scene was played: the scene, the intent, the call with its stakes, the decline, a call rolled and its consequence, the contest’s terms and winner, a note; each roll’s line as the proof renders it', async () => {
    const { requestId, directId, contestId } = await playTheScene();
    const { response, markdown, html, proof } = await exportJournal({ user: 'sasha' }, { since: 'today' });
    expect(response).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: { parse: [] } });
    expect(response.content).toContain('📜 The journal since today');

    const lines = storyLines(markdown);
    const order = [
      indexOfLine(lines, /^## Scene: The warehouse roof/),
      indexOfLine(lines, new RegExp(`mike states an intent for Troy: scale the side of the building to the balcony\\. If it works: Troy is on the balcony, unseen \\(request ${requestId}\\)`)),
      indexOfLine(lines, new RegExp(`dee calls for a roll from mike: Climbing against CL 120\\. Stakes: .*If it fails: Troy falls from the wall\\. Then a roll on the table Fall Damage \\(request ${requestId}\\)`)),
      indexOfLine(lines, new RegExp(`mike declines the roll: nothing is rolled \\(request ${requestId}\\)`)),
      indexOfLine(lines, new RegExp(`dee calls for a roll from mike: Climbing against CL 120.*If it fails: Troy slips\\. \\(request ${directId}\\)|If it fails: Troy slips\\. Then a roll on the table Fall Damage \\(request ${directId}\\)`)),
      indexOfLine(lines, new RegExp(`mike, answering the call of request ${directId}: \`roll \\w{8} · challenge · D100 \\d+ \\(\\d, \\d\\) · total \\d+ · failure · seed ${FAILING}\``)),
      indexOfLine(lines, new RegExp(`mike, the consequence of request ${directId} on the table Fall Damage: \`roll \\w{8} · outcome`)),
      indexOfLine(lines, new RegExp(`Contest ${contestId} agreed: Kat disarms Troy on the roof\\. If Kat wins: Troy is disarmed\\. If Troy wins: Kat is thrown off the roof`)),
      indexOfLine(lines, new RegExp(`sasha, round 1 of contest ${contestId}: \`roll \\w{8} · contest · dice \\[D100 \\d+ \\(\\d, \\d\\), D100 \\d+ \\(\\d, \\d\\)\\]`)),
      indexOfLine(lines, new RegExp(`Contest ${contestId}: Kat wins over Troy after 1 round`)),
      indexOfLine(lines, /sasha notes: Kat pockets the \\\*\\\*keycard\\\*\\\*/),
    ];
    expect(order, lines.join('\n')).toEqual([...order].sort((a, b) => a - b));

    // Every roll made is in the proof, and its line (rendered from the proof alone, as the verifier does) in both files.
    const stored = await sandbox().bot.store.rolls.latestOfAllServers(10);
    expect(proof.rolls.map((roll) => roll.id).sort()).toEqual(stored.map((roll) => roll.id).sort());
    expect(proof.format).toBe('tactalk-journal/1');
    expect(proof.guildId).toBe(sandbox().fake.guildId);
    for (const roll of proof.rolls) {
      expect(markdown).toContain(journalRollLine(roll));
      expect(html).toContain(journalRollLine(roll));
    }
    // The declined call rolled nothing: three rolls (the call, its consequence, the contest round).
    expect(proof.rolls.map((roll) => roll.kind)).toEqual(['challenge', 'outcome', 'contest']);
  });

  it('tells requests settled without a roll (let happen, withdrawn, cancelled) and a challenge declined', async () => {
    const s = sandbox();
    await importSheet(s, 'mike', TROY);
    await importSheet(s, 'sasha', KAT);
    const intent = async () => {
      const stated = await s.one({ user: 'mike', command: 'roll intent', options: CLIMB });
      return { id: /Intent #(\d+)/.exec(textOf(stated))![1]!, message: stated.messageId! };
    };
    const granted = await intent();
    await s.act({ ...DISPATCHER, button: `dispatch:noroll:${granted.id}`, message: granted.message });
    const withdrawn = await intent();
    await s.act({ user: 'mike', button: `dispatch:withdraw:${withdrawn.id}`, message: withdrawn.message });
    const cancelled = await intent();
    await s.act({ ...DISPATCHER, button: `dispatch:cancel:${cancelled.id}`, message: cancelled.message });
    const opening = await s.one({ user: 'sasha', command: 'contest start', options: { opponent: 'mike', intent: 'Kat trips Troy', stakes: 'Troy falls', skill: 'CQC', role: 'attacker' } });
    const contestId = /Contest #(\d+)/.exec(textOf(opening))![1]!;
    await s.act({ user: 'mike', button: `contest:decline:${contestId}`, message: opening.messageId! });

    const lines = storyLines((await exportJournal({ user: 'mike' }, { since: '1h' })).markdown).map((line) => line.replace(/^- \*\*\d\d:\d\d\*\* /, ''));
    expect(lines.filter((line) => !line.includes('states an intent'))).toEqual([
      `dee lets it happen with no roll (request ${granted.id})`,
      `mike withdraws the intent (request ${withdrawn.id})`,
      // Cancelled before any Dispatcher answered it: the request does not keep which one cancelled it.
      `A Dispatcher cancels the request (request ${cancelled.id})`,
      `Contest ${contestId} ended with no winner: the challenge was declined`,
    ]);
  });

  it('leaves a secret roll and a blind roll not yet revealed out for a player, and includes them for a Dispatcher’s include_secret, privately; a player may not ask for it', async () => {
    const s = sandbox();
    await importSheet(s, 'mike', TROY);
    await s.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 50 } });
    await importSheet(s, 'dee', { ...TROY, name: 'Vance' });
    await s.one({ ...DISPATCHER, command: 'roll challenge', options: { skill: 'Climbing', cl: 50, secret: true } });
    await s.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 60, blind: true } });
    const rolls = await s.bot.store.rolls.latestOfAllServers(10);
    const secretRoll = rolls.find((roll) => roll.secret)!;
    const blindRoll = (await s.bot.store.db.roll.findMany({ where: { blind: true } }))[0]!;
    const plainRoll = rolls.find((roll) => !roll.secret && roll.id !== blindRoll.id)!;
    expect([secretRoll, blindRoll, plainRoll].every(Boolean)).toBe(true);

    const forPlayers = await exportJournal({ user: 'sasha' }, { since: '1h' });
    expect(forPlayers.proof.rolls.map((roll) => roll.id)).toEqual([plainRoll.id]);
    expect(forPlayers.markdown).not.toContain(secretRoll.id);
    expect(forPlayers.markdown).not.toContain(blindRoll.id);
    expect(forPlayers.html).not.toContain(blindRoll.id);
    expect(forPlayers.markdown).toContain('Secret and blind rolls not yet revealed are left out.');

    const refused = await s.one({ user: 'sasha', command: 'journal export', options: { since: '1h', include_secret: true } });
    expect(refused).toMatchObject({ ephemeral: true });
    expect(refused.content).toContain('Only a Dispatcher can include secret and blind rolls in a journal');
    expect(refused.attachments ?? []).toEqual([]);

    const forDispatchers = await exportJournal(DISPATCHER, { since: '1h', include_secret: true });
    expect(forDispatchers.response.ephemeral).toBe(true);
    expect(forDispatchers.proof.rolls.map((roll) => roll.id).sort()).toEqual([plainRoll.id, secretRoll.id, blindRoll.id].sort());
    expect(forDispatchers.markdown).toContain('(secret, shown to Dispatchers)');

    // Once revealed, the blind roll is in everyone's journal.
    await s.one({ ...DISPATCHER, command: 'blind reveal', options: { id: blindRoll.id } });
    expect((await exportJournal({ user: 'sasha' }, { since: '1h' })).proof.rolls.map((roll) => roll.id).sort()).toEqual([plainRoll.id, blindRoll.id].sort());
  });

  it('a blind call: the call is told without its CL, its roll and what it answered are left out until a Dispatcher reveals it', async () => {
    const s = sandbox();
    await importSheet(s, 'mike', TROY);
    const direct = await s.act({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', skill: 'Climbing', cl: 70, ...CLIMB, blind: true } });
    const post = direct.responses.find((response) => !response.ephemeral)!;
    const requestId = /#(\d+)/.exec(textOf(post))![1]!;
    await s.act({ user: 'mike', button: `dispatch:roll:${requestId}`, message: post.messageId! });
    const [roll] = await s.bot.store.db.roll.findMany({ where: { blind: true } });
    expect(roll).toBeDefined();

    const before = await exportJournal({ user: 'mike' }, { since: '1h' });
    expect(storyLines(before.markdown)).toEqual([expect.stringMatching(new RegExp(`dee calls for a roll from mike: Climbing against a hidden CL\\. .*\\(request ${requestId}\\)$`))]);
    expect(before.markdown).not.toContain(roll!.id);
    expect(before.markdown).not.toMatch(/\b70\b/);
    const forDispatchers = await exportJournal(DISPATCHER, { since: '1h', include_secret: true });
    expect(forDispatchers.markdown).toContain(`mike, answering the call of request ${requestId} (secret, shown to Dispatchers): \`roll ${roll!.id} · challenge`);

    // Revealed, it is still a roll against a hidden CL (a blind call hides its CL): a player's journal keeps it out.
    await s.one({ ...DISPATCHER, command: 'blind reveal', options: { id: roll!.id } });
    expect((await exportJournal({ user: 'mike' }, { since: '1h' })).markdown).not.toContain(roll!.id);
  });

  it('since: a scene marker starts at the scene, picked from the suggestions (newest first) or typed by title; until: ends a span', async () => {
    const s = sandbox();
    await importSheet(s, 'mike', TROY);
    await s.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 60 } });
    await s.one({ ...DISPATCHER, command: 'journal scene', options: { title: 'The docks' } });
    await s.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 70 } });
    await s.one({ ...DISPATCHER, command: 'journal scene', options: { title: 'The chase' } });
    await s.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 80 } });
    const [first, second, third] = (await s.bot.store.rolls.latestOfAllServers(10)).reverse();

    const suggestions = await s.act({ user: 'mike', command: 'journal export', options: { since: '' }, focused: 'since' });
    const choices = suggestions.responses[0]!.choices as Array<{ name: string; value: string }>;
    expect(choices.map((choice) => choice.name.replace(/ \(.*/, ''))).toEqual(['Scene: The chase', 'Scene: The docks', 'Today']);
    const docks = choices.find((choice) => choice.name.startsWith('Scene: The docks'))!.value;

    const fromDocks = await exportJournal({ user: 'mike' }, { since: docks });
    expect(fromDocks.proof.rolls.map((roll) => roll.id)).toEqual([second!.id, third!.id]);
    expect(storyLines(fromDocks.markdown)[0]).toBe('## Scene: The docks');
    expect(fromDocks.response.content).toContain('since the scene “The docks”');

    const typed = await exportJournal({ user: 'mike' }, { since: 'chase' });
    expect(typed.proof.rolls.map((roll) => roll.id)).toEqual([third!.id]);

    const between = await exportJournal({ user: 'mike' }, { since: '1h', until: docks });
    expect(between.proof.rolls.map((roll) => roll.id)).toEqual([first!.id]);

    const nonsense = await s.one({ user: 'mike', command: 'journal export', options: { since: 'last tuesday-ish' } });
    expect(nonsense).toMatchObject({ ephemeral: true });
    expect(nonsense.content).toContain('`since:` reads `2h`, `3d`');
    expect(nonsense.content).toContain('“last tuesday-ish” is none of those');
    const backwards = await s.one({ user: 'mike', command: 'journal export', options: { since: docks, until: '2h' } });
    expect(backwards.content).toContain('`until:`');
    expect(backwards.content).toContain('must come after `since:`');
  });

  it('since: this session starts at the server’s open play session; with none yet, it says what to type instead', async () => {
    const s = sandbox();
    const none = await s.one({ user: 'mike', command: 'journal export', options: { since: 'this session' } });
    expect(none).toMatchObject({ ephemeral: true });
    expect(none.content).toContain('no play session yet');
    await importSheet(s, 'mike', TROY);
    await s.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 60 } });
    await s.bot.store.db.playSession.create({ data: { guildId: s.fake.guildId, kind: 'play', title: 'Night one', secret: 'x'.repeat(64), commitment: 'y'.repeat(64), openKey: s.fake.guildId, openedAt: new Date() } });
    await s.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 70 } });
    const [, newer] = (await s.bot.store.rolls.latestOfAllServers(10)).reverse();
    const session = await exportJournal({ user: 'mike' }, { since: 'this session' });
    expect(session.proof.rolls.map((roll) => roll.id)).toEqual([newer!.id]);
    expect(session.response.content).toContain('“Night one”');
    // No since: at all is this session too.
    expect((await exportJournal({ user: 'mike' })).proof.rolls.map((roll) => roll.id)).toEqual([newer!.id]);
  });

  it('is bounded: past 5,000 entries it stops, and says where and how to get the rest', async () => {
    const s = sandbox();
    const start = Date.now() - 3_600_000;
    await s.bot.store.db.journalEntry.createMany({
      data: Array.from({ length: JOURNAL_MAX_ITEMS + 20 }, (_, index) => ({
        guildId: s.fake.guildId,
        channelId: s.fake.channelId,
        userId: s.fake.user('mike').id,
        kind: 'note',
        details: JSON.stringify({ text: `note ${index + 1}` }),
        createdAt: new Date(start + index * 100),
      })),
    });
    const { response, markdown, html } = await exportJournal({ user: 'mike' }, { since: '2h' });
    const lines = storyLines(markdown);
    expect(lines).toHaveLength(JOURNAL_MAX_ITEMS);
    expect(lines.at(-1)).toContain(`notes: note ${JOURNAL_MAX_ITEMS}`);
    const next = new Date(start + JOURNAL_MAX_ITEMS * 100).toISOString();
    expect(markdown).toContain(`This journal stops here, at ${next}: one export holds at most ${JOURNAL_MAX_ITEMS} entries. For the rest: /journal export since:${next}`);
    expect(html).toContain(`/journal export since:${next}`);
    expect(response.content).toContain(`It stops at ${next}`);
    // The rest, as the journal says.
    const rest = await exportJournal({ user: 'mike' }, { since: next });
    expect(storyLines(rest.markdown)).toHaveLength(20);
    expect(storyLines(rest.markdown)[0]).toContain(`note ${JOURNAL_MAX_ITEMS + 1}`);
    expect(rest.markdown).not.toContain('This journal stops here');
  });

  it('only a Dispatcher sets a scene marker: a player is refused privately and nothing is stored or posted', async () => {
    const s = sandbox();
    const refused = await s.one({ user: 'mike', command: 'journal scene', options: { title: 'My scene' } });
    expect(refused).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(refused.content).toContain('Only a Dispatcher can mark a scene');
    expect(refused.content).toContain('/journal note');
    expect(await s.bot.store.db.journalEntry.count()).toBe(0);
    expect(s.fake.messages().filter((message) => !message.ephemeral)).toEqual([]);
  });

  it('the HTML file is a whole page on its own (no outside resource) with the proof as JSON, and renders in Chromium at phone width', async () => {
    await playTheScene();
    const { html, proof } = await exportJournal({ user: 'sasha' }, { since: 'today' });
    expect(html.startsWith('<!DOCTYPE html>\n<html lang="en">')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(html).toMatch(/<style>[\s\S]+<\/style>/);
    expect(html).not.toMatch(/<link\b|<img\b|\bsrc=|url\(|@import|https?:\/\/(?!discord\.com\/channels\/)/);
    const script = new RegExp(`<script type="application/json" id="${JOURNAL_PROOF_HTML_ID}">\\n([\\s\\S]*?)\\n</script>`).exec(html);
    expect(script).not.toBeNull();
    expect(script![1]).not.toContain('<');
    expect(JSON.parse(script![1]!)).toEqual(proof);
    // User text is text, never markup: the note's asterisks show as typed in the page.
    expect(html).toContain('Kat pockets the **keycard**');

    if (!HAVE_CHROMIUM && !process.env.CI) return;
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
      const outside: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith('data:') && request.url() !== 'about:blank') outside.push(request.url());
      });
      await page.setContent(html);
      expect(await page.locator('h1').textContent()).toContain('Journal of');
      expect(await page.locator('h2').first().textContent()).toContain('Scene: The warehouse roof');
      const text = (await page.locator('main').textContent()) ?? '';
      for (const roll of proof.rolls) expect(text).toContain(journalRollLine(roll));
      // Nothing wider than the phone: no sideways scrolling.
      expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      expect(outside).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'journal-phone.png'), fullPage: true });
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.screenshot({ path: path.join(ARTIFACTS, 'journal-desktop.png'), fullPage: true });
    } finally {
      await browser.close();
    }
  });
});
