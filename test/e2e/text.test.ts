// Text and files (issue 11): names, user text in public embeds, the sheet file's limits and the roll log's words,
// through the real bot and the fake Discord.
import { describe, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { SHEET_LIMITS } from '../../src/engine/sheet.js';
import { tableToJson, type OutcomeTable } from '../../src/engine/tables.js';
import type { SandboxResponse } from '../../src/sandbox/types.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';
import { liveMarkdown } from '../helpers/text.js';

/** A seed whose first D100 shows `value`, as the bot rolls it. */
function seedFor(value: number): string {
  for (let i = 0; ; i++) {
    const seed = `text-${value}-${i}`;
    if (rollD100(seededRng(seed)).value === value) return seed;
  }
}

const sandbox = useTestSandbox({ seeds: [seedFor(20), seedFor(70)] });
const NO_PINGS = { parse: [] };
const DISPATCHER = { user: 'dora', roles: ['dispatcher'] };

function importTable(table: OutcomeTable): Promise<SandboxResponse> {
  return sandbox().one({ ...DISPATCHER, command: 'table import', options: { file: { filename: 'table.json', content: tableToJson(table) } } });
}

describe('names', () => {
  it('that hold a character no one can see are refused privately, saying which and where', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'ZeroWidth', level: 40 } });
    const hidden = await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Zero\u200bWidth', level: 60 } });
    expect(hidden).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(hidden.content).toBe(
      '⚠️ The skill name contains a zero-width character (U+200B) after "Zero", which cannot be seen and would make it look like another name; type it without that character.',
    );
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).toContain('**Skills** (1)\nZeroWidth **40**');

    const reversed = await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy\u202eyorT' } });
    expect(reversed.content).toContain('The sheet name contains a text-direction control (U+202E) after "Troy"');
    const npc = await sandbox().one({ ...DISPATCHER, command: 'npc create', options: { name: '\u2066Thug' } });
    expect(npc.content).toContain('The NPC name contains a text-direction control (U+2066) at its start');
    const table = await importTable({ name: 'Re\u200bload', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 100, text: 'ok', next: null, reveals: null }] });
    expect(table.content).toContain('the table name contains a zero-width character (U+200B) after "Re"');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'table list' }))).toContain('No tables yet');
  });

  it('are read in one Unicode form, so a full-width name is the same skill as the plain one', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    expect((await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Ｃｌｉｍｂｉｎｇ', level: 40 } })).content).toBe('Troy now has **Climbing 40**.');
    expect((await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'climbing', level: 50 } })).content).toBe('Troy: **climbing** 40 → **50**.');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).toContain('**Skills** (1)');
  });
});

describe('user text in public embeds', () => {
  const breaking: OutcomeTable = {
    name: 'Reload',
    die: 'd100',
    asks: '',
    skill: null,
    rows: [
      { min: 1, max: 50, text: '**Jammed**: ```\n# THE GUN EXPLODES\n> and\n- nothing\n1. after [this](https://example.com) shows right', next: null, reveals: null },
      { min: 51, max: 100, text: 'A clean reload.', next: null, reveals: null },
    ],
  };

  it('a row with ``` and other Markdown cannot open a code block in /roll outcome or /table show', async () => {
    await importTable(breaking);
    const rolled = await sandbox().one({ user: 'mike', command: 'roll outcome', options: { table: 'Reload' } });
    expect(rolled.ephemeral).toBe(false);
    const description = (rolled.embeds[0] as { description: string }).description;
    const row = description.slice(description.indexOf('**1–50** · '));
    expect(row).toContain('**Jammed**:');
    expect(liveMarkdown(row)).toEqual([]);

    const shown = await sandbox().one({ user: 'mike', command: 'table show', options: { name: 'Reload' } });
    const rows = (shown.embeds[0] as { description: string }).description;
    expect(liveMarkdown(rows)).toEqual([]);
    expect(rows).toMatch(/^\*\*51–100\*\* · A clean reload\.$/m);
  });

  it("a sheet's notes and names shown to the channel cannot either", async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: '# Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: '```Climbing', level: 40 } });
    await sandbox().one({ user: 'mike', command: 'sheet notes', options: { text: '**Owes** the Dispatcher ``` a favour' } });
    const shown = await sandbox().one({ user: 'mike', command: 'sheet show', options: { share: true } });
    expect(shown.ephemeral).toBe(false);
    const embed = shown.embeds[0] as { description: string; fields: Array<{ name: string; value: string }> };
    for (const text of [embed.description, ...embed.fields.map((field) => field.value)]) expect(liveMarkdown(text), text).toEqual([]);
    expect(embed.fields.find((field) => field.name === 'Notes')?.value).toBe('**Owes** the Dispatcher \\`\\`\\` a favour');
  });
});

describe('/log', () => {
  it('names the table of an outcome roll and of the next table rolled from it', async () => {
    const rows = [
      { min: 1, max: 50, text: 'Jammed.', next: 'Jam', reveals: null },
      { min: 51, max: 100, text: 'Fine.', next: null, reveals: null },
    ];
    await importTable({ name: 'Reload', die: 'd100', asks: '', skill: null, rows });
    await importTable({ name: 'Jam', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 100, text: 'Stuck for a round.', next: null, reveals: null }] });
    const first = await sandbox().one({ user: 'mike', command: 'roll outcome', options: { table: 'Reload' } });
    const [button] = (first.components as Array<{ components: Array<{ custom_id: string }> }>).flatMap((row) => row.components);
    await sandbox().act({ user: 'mike', button: button!.custom_id, message: first.messageId! });

    const log = textOf(await sandbox().one({ user: 'mike', command: 'log' }));
    expect(log).toMatch(/ · outcome on Jam → \*\*70\*\*: Stuck for a round\.$/m);
    expect(log).toMatch(/ · outcome on Reload → \*\*20\*\*: Jammed\.$/m);
    expect(log).not.toContain('outcome on ?');
  });
});

describe('the sheet file', () => {
  it('the largest sheet the limits allow exports, imports on another account, and exports the same again', async () => {
    const mike = sandbox().fake.user('mike').id;
    const store = sandbox().bot.store.operators;
    const guildId = sandbox().fake.guildId;
    const name = (index: number) => `${index} `.padEnd(SHEET_LIMITS.nameLength, '装填');
    const sheet = await store.create({ guildId, ownerId: mike }, name(0));
    const skills: string[] = [];
    for (let index = 0; index < SHEET_LIMITS.skills; index++) {
      skills.push(name(index));
      await store.setSkill(sheet, name(index), index % 101);
    }
    for (let index = 0; index < SHEET_LIMITS.archetypes; index++) await store.setArchetype(sheet, name(index), -100);
    // A Tac Talk sheet holds no attributes (they belong to other systems' sheets), so the largest has none.
    for (let index = 0; index < SHEET_LIMITS.conditions; index++) {
      await store.setCondition(sheet, { name: name(index), modifier: -100, skills: skills.slice(0, SHEET_LIMITS.skillsPerCondition), expiresAt: null }, new Date());
    }
    await store.setNotes(sheet, '装'.repeat(SHEET_LIMITS.notesLength));

    const exported = await sandbox().one({ user: 'mike', command: 'sheet export' });
    const file = exported.attachments![0]!.content!;
    expect(Buffer.byteLength(file, 'utf8')).toBeGreaterThan(185_000);

    const imported = await sandbox().one({ user: 'sasha', command: 'sheet import', options: { file: { filename: 'largest.json', content: file } } });
    expect(imported.content).toContain(`(${SHEET_LIMITS.skills} skills, ${SHEET_LIMITS.archetypes} archetypes, ${SHEET_LIMITS.conditions} conditions); it is your active Tac Talk (Decision Engine) sheet.`);
    const again = await sandbox().one({ user: 'sasha', command: 'sheet export' });
    expect(again.attachments![0]!.content).toBe(file);
  });

  it('a condition names each skill once, however often it is typed', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    await sandbox().one({ user: 'mike', command: 'sheet condition add', options: { name: 'Tired', modifier: -5, skills: 'Climbing, climbing, CLIMBING' } });
    const exported = await sandbox().one({ user: 'mike', command: 'sheet export' });
    expect(JSON.parse(exported.attachments![0]!.content!)).toMatchObject({ conditions: [{ name: 'Tired', skills: ['Climbing'] }] });
  });
});
