// Names that look alike (issue 22, "Smaller holes"): `Troy` and `Тroy` with a Cyrillic Т would be two sheets that
// nobody can tell apart, and an NPC `Bоss` beside `Boss` a trap for whoever rolls it. A name that looks just like
// one already in its list is refused, privately, naming the one it looks like; and no text-direction control in a
// user's text reaches a public message.
import { expect, it } from 'vitest';
import { tableToJson, type OutcomeTable } from '../../src/engine/tables.js';
import { textOf, useTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const CYRILLIC_TE = '\u0422';
const CYRILLIC_O = '\u043e';
const CYRILLIC_ES = '\u0421';

const sandbox = useTestSandbox();

async function refused(request: Parameters<TestSandbox['one']>[0]): Promise<string> {
  const answer = await sandbox().one(request);
  expect(answer.ephemeral, JSON.stringify(answer)).toBe(true);
  return textOf(answer);
}

it('a member’s second sheet may not look just like the first, by create, rename or import', async () => {
  expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } }))).toContain('Created **Troy**');
  expect(await refused({ user: 'mike', command: 'sheet create', options: { name: `${CYRILLIC_TE}roy` } })).toBe(
    `⚠️ **${CYRILLIC_TE}roy** looks just like your sheet **Troy**, where its "${CYRILLIC_TE}" (U+0422, Cyrillic) passes for another letter: two names that look the same would be taken for each other. Choose a name that can be told apart (or use **Troy**). Nothing was changed.`,
  );
  expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Kat' } }))).toContain('Created **Kat**');
  expect(await refused({ user: 'mike', command: 'sheet rename', options: { sheet: 'Kat', new_name: `${CYRILLIC_TE}roy` } })).toContain('looks just like your sheet **Troy**');
  const file = JSON.stringify({ format: 'tactalk-operator', version: 1, name: `${CYRILLIC_TE}roy` });
  expect(await refused({ user: 'mike', command: 'sheet import', options: { file: { filename: 'troy.json', content: file } } })).toContain('looks just like your sheet **Troy**');
  // Another member's sheets are another list; the same name in another case is still the same sheet's rule.
  expect(textOf(await sandbox().one({ user: 'sasha', command: 'sheet create', options: { name: `${CYRILLIC_TE}roy` } }))).toContain('Created');
  expect(await refused({ user: 'mike', command: 'sheet create', options: { name: 'TROY' } })).toContain('You already have a sheet named **Troy**');
  const list = textOf(await sandbox().one({ user: 'mike', command: 'sheet list' }));
  expect(list).toContain('Troy');
  expect(list).toContain('Kat');
  expect(list).not.toContain(CYRILLIC_TE);
});

it('the server’s NPCs, a sheet’s skills and the server’s tables keep look-alikes out too', async () => {
  expect(textOf(await sandbox().one({ ...DISPATCHER, command: 'npc create', options: { name: 'Boss' } }))).toContain('Boss');
  expect(await refused({ ...DISPATCHER, command: 'npc create', options: { name: `B${CYRILLIC_O}ss` } })).toContain('looks just like this server’s NPC **Boss**');

  await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
  expect(await refused({ user: 'mike', command: 'sheet skill set', options: { name: `${CYRILLIC_ES}limbing`, level: 60 } })).toContain(
    `**${CYRILLIC_ES}limbing** looks just like this sheet’s skill **Climbing**`,
  );
  // The skill itself, typed in any case, is still set as before.
  expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'climbing', level: 45 } }))).toContain('40 → **45**');

  const table = (name: string): OutcomeTable => ({ name, die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 100, text: 'ok', next: null, reveals: null }] });
  const upload = (name: string) => ({ ...DISPATCHER, command: 'table import', options: { file: { filename: 'table.json', content: tableToJson(table(name)) } } });
  expect(textOf(await sandbox().one(upload('Reload')))).toContain('Imported **Reload**');
  expect(await refused(upload(`R${'\u0435'}load`))).toContain('looks just like this server’s table **Reload**');
  expect(textOf(await sandbox().one({ user: 'mike', command: 'table list' }))).toContain('1 of 50 tables');
});

it('no text-direction override or isolate in a user’s text reaches a public message', async () => {
  const reversed = `Claim the \u202eelbat eht rednu\u202c reward \u2066isolated\u2069 \u202astart\u202b end\u202d.`;
  const table: OutcomeTable = { name: 'Loot', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 200, text: reversed, next: null, reveals: null }] };
  await sandbox().one({ ...DISPATCHER, command: 'table import', options: { file: { filename: 'loot.json', content: tableToJson(table) } } });
  const rolled = await sandbox().one({ user: 'mike', command: 'roll outcome', options: { table: 'Loot' } });
  expect(rolled.ephemeral).toBeFalsy();
  const shown = textOf(rolled);
  expect(shown).toContain('Claim the elbat eht rednu reward isolated start end.');
  expect(shown).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
});
