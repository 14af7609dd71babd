// Saved rolls (issue 25 §1): saved from a roll's Save… (a form asking the name) or by typing, rolled by name with
// autocomplete, shared by a Dispatcher with the server (each member rolls it with their own sheet), listed and
// deleted, limited, and carried by the sheet's export and import.
import { describe, expect, it } from 'vitest';
import type { SandboxResponse } from '../../src/sandbox/types.js';
import { SAVED_ROLL_LIMITS, sheetScope } from '../../src/engine/saved-rolls.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();
const DISPATCHER = { user: 'dora', roles: ['dispatcher'] };

type Button = { custom_id: string; label: string };

function button(response: Pick<SandboxResponse, 'components'>, label: string): Button {
  const found = ((response.components ?? []) as Array<{ components: Button[] }>).flatMap((row) => row.components).find((candidate) => candidate.label === label);
  if (!found) throw new Error(`no "${label}" button`);
  return found;
}

const rollIdOf = (response: SandboxResponse) => /Roll (\w{8})/.exec(textOf(response))![1]!;
const guildId = () => sandbox().fake.guildId;

async function sheet(user: string, name: string, climbing: number, roles: string[] = []): Promise<void> {
  await sandbox().one({ user, roles, command: 'sheet create', options: { name } });
  await sandbox().one({ user, roles, command: 'sheet skill set', options: { name: 'Climbing', level: climbing } });
  await sandbox().one({ user, roles, command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } });
}

/** Presses Save… under `roll` and submits its form with `fields`; the form first, then the answer to its submit. */
async function saveWithButton(user: { user: string; roles?: string[] }, roll: SandboxResponse, fields: Record<string, string>) {
  const form = await sandbox().one({ ...user, button: button(roll, 'Save…').custom_id, message: roll.messageId! });
  expect(form.kind).toBe('modal');
  const saved = await sandbox().one({ ...user, modal: `roll:saveform:${rollIdOf(roll)}`, message: roll.messageId!, fields });
  return { form, saved };
}

describe('saved rolls', () => {
  it('Save… names a roll on the sheet; /roll saved suggests it with what it rolls and rolls it anew, with its own Roll again', async () => {
    await sheet('mike', 'Troy', 40);
    const roll = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90, archetypes: 'Acuity', modifier: -5 } });
    const { form, saved } = await saveWithButton({ user: 'mike' }, roll, { name: 'Breach' });
    // A player's form asks only the name: sharing with the server is a Dispatcher's.
    expect(JSON.stringify(form.modal)).not.toContain('Everyone on this server');
    expect(saved).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(saved.content).toContain('Saved **Breach** on Troy: `/roll challenge skill:Climbing cl:90 archetypes:Acuity modifier:-5`');

    const choices = await sandbox().one({ user: 'mike', command: 'roll saved', options: { name: 'bre' }, focused: 'name' });
    expect(choices.choices).toEqual([{ name: 'Breach: /roll challenge skill:Climbing cl:90 archetypes:Acuity modifier:-5', value: 'Breach' }]);

    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 55 } });
    const rolled = await sandbox().one({ user: 'mike', command: 'roll saved', options: { name: 'breach' } });
    expect(rolled).toMatchObject({ kind: 'reply', ephemeral: false });
    expect(textOf(rolled)).toContain('+ 55 Climbing + 10 Acuity');
    expect(textOf(rolled)).toContain('− 5 situational');
    const stored = (await sandbox().bot.store.rolls.find(guildId(), rollIdOf(rolled)))!;
    expect(stored.invocation).toEqual((await sandbox().bot.store.rolls.find(guildId(), rollIdOf(roll)))!.invocation);
    expect(button(rolled, 'Roll again').custom_id).toBe(`roll:again:${stored.id}`);
  });

  it('saved by typing: /roll save from:last saves the newest roll, a dice roll among them', async () => {
    await sheet('mike', 'Troy', 40);
    const dice = (await sandbox().act({ user: 'mike', command: 'roll dice', options: { expression: '2d6+1', label: 'Knife' } })).responses.at(-1)!;
    expect(dice.kind === 'reply' || dice.kind === 'edit').toBe(true);
    const saved = await sandbox().one({ user: 'mike', command: 'roll save', options: { name: 'Knife', from: 'last' } });
    expect(saved.content).toContain('Saved **Knife** on Troy: `/roll dice expression:2d6+1 label:Knife`');
    const rolled = await sandbox().one({ user: 'mike', command: 'roll saved', options: { name: 'Knife' } });
    expect(textOf(rolled)).toContain('Knife');
    expect((await sandbox().bot.store.rolls.find(guildId(), rollIdOf(rolled)))!.kind).toBe('dice');

    const none = await sandbox().one({ user: 'kat', command: 'roll save', options: { name: 'Mine' } });
    expect(none).toMatchObject({ ephemeral: true });
    expect(none.content).toContain('You have made no roll here lately that can be saved');
  });

  it("a Dispatcher shares a roll with the server; a player rolls it with the player's own sheet, and cannot share or delete shared ones", async () => {
    await sheet('dora', 'Warden', 20, DISPATCHER.roles);
    await sheet('mike', 'Troy', 70);
    const roll = await sandbox().one({ ...DISPATCHER, command: 'roll challenge', options: { skill: 'Climbing', cl: 100 } });
    const { form, saved } = await saveWithButton(DISPATCHER, roll, { name: 'Wall', share: 'server' });
    expect(JSON.stringify(form.modal)).toContain('Everyone on this server');
    expect(saved.content).toContain('Saved **Wall** for everyone on this server');

    const choices = await sandbox().one({ user: 'mike', command: 'roll saved', options: { name: '' }, focused: 'name' });
    expect(choices.choices).toEqual([{ name: 'Wall (server): /roll challenge skill:Climbing cl:100', value: 'Wall' }]);
    const rolled = await sandbox().one({ user: 'mike', command: 'roll saved', options: { name: 'Wall' } });
    expect(textOf(rolled)).toContain('+ 70 Climbing');
    expect(textOf(rolled)).toContain('Troy');
    expect((await sandbox().bot.store.rolls.find(guildId(), rollIdOf(rolled)))!.userId).toBe(sandbox().fake.user('mike').id);

    const share = await sandbox().one({ user: 'mike', command: 'roll save', options: { name: 'Mine', from: rollIdOf(rolled), shared: true } });
    expect(share).toMatchObject({ ephemeral: true });
    expect(share.content).toContain('Only a Dispatcher can share a saved roll with the server');
    const del = await sandbox().one({ user: 'mike', command: 'roll saved-delete', options: { name: 'Wall', shared: true } });
    expect(del.content).toContain("Only a Dispatcher can delete the server's shared rolls");
    // The player's own roll of the same name comes before the server's, in the suggestions and when rolled.
    await sandbox().one({ user: 'mike', command: 'roll save', options: { name: 'Wall', from: rollIdOf(rolled) } });
    const mineFirst = await sandbox().one({ user: 'mike', command: 'roll saved', options: { name: 'wa' }, focused: 'name' });
    expect(mineFirst.choices).toEqual([{ name: 'Wall: /roll challenge skill:Climbing cl:100', value: 'Wall' }]);
    const list = await sandbox().one({ user: 'mike', command: 'roll saved-list' });
    expect(list.content).toContain('**On Troy** (1/25)');
    expect(list.content).toContain('**Shared on this server** (1/50)');
    const deleted = await sandbox().one({ ...DISPATCHER, command: 'roll saved-delete', options: { name: 'Wall', shared: true } });
    expect(deleted.content).toContain('Deleted **Wall**, shared on this server');
    expect(await sandbox().bot.store.savedRolls.list(guildId(), 'server')).toEqual([]);
    // Mike's own Wall is his still.
    expect((await sandbox().one({ user: 'mike', command: 'roll saved-list' })).content).toContain('- **Wall**');
  });

  it('refuses past the limits, saying them: 25 a sheet, 50 a server, names of 40 characters; without a sheet, says how to make one', async () => {
    await sheet('mike', 'Troy', 40);
    const roll = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    const troy = (await sandbox().bot.store.operators.active({ guildId: guildId(), ownerId: sandbox().fake.user('mike').id }, 'tactalk'))!;
    const invocation = (await sandbox().bot.store.rolls.find(guildId(), rollIdOf(roll)))!.invocation!;
    for (let index = 0; index < SAVED_ROLL_LIMITS.perSheet; index++) await sandbox().bot.store.savedRolls.save(guildId(), sheetScope(troy.id), `Roll ${index}`, invocation, 'mike');
    const full = await saveWithButton({ user: 'mike' }, roll, { name: 'One more' });
    expect(full.saved).toMatchObject({ ephemeral: true });
    expect(full.saved.content).toContain('This sheet already holds 25 saved rolls, the most a sheet may.');
    // Under the name of one it has, it replaces that one.
    expect((await saveWithButton({ user: 'mike' }, roll, { name: 'roll 3' })).saved.content).toContain('replacing the roll saved under that name');

    for (let index = 0; index < SAVED_ROLL_LIMITS.perServer; index++) await sandbox().bot.store.savedRolls.save(guildId(), 'server', `Shared ${index}`, invocation, 'dora');
    const serverFull = await sandbox().one({ ...DISPATCHER, command: 'roll save', options: { name: 'Another', from: rollIdOf(roll), shared: true } });
    // The roll is mike's: a Dispatcher saves only their own.
    expect(serverFull.content).toContain('who made this roll, can save it');
    await sheet('dora', 'Warden', 20, DISPATCHER.roles);
    await sandbox().one({ ...DISPATCHER, command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    const refused = await sandbox().one({ ...DISPATCHER, command: 'roll save', options: { name: 'Another', shared: true } });
    expect(refused.content).toContain('This server already shares 50 saved rolls, the most it may.');

    // A name is at most 40 characters: the form's field and the option take no more (Discord holds them to it).
    expect(JSON.stringify(full.form.modal)).toContain(`"max_length":${SAVED_ROLL_LIMITS.nameLength}`);
    const badName = await sandbox().one({ user: 'mike', command: 'roll save', options: { name: '   ' } });
    expect(badName.content).toContain('The saved roll name cannot be empty');

    const dice = (await sandbox().act({ user: 'kat', command: 'roll dice', options: { expression: '1d20' } })).responses.at(-1)!;
    const noSheet = await sandbox().one({ user: 'kat', button: button(dice, 'Save…').custom_id, message: dice.messageId! });
    expect(noSheet).toMatchObject({ ephemeral: true });
    expect(noSheet.content).toBe('⚠️ A saved roll is kept on your active sheet, and you have no active sheet on this server. Make one with `/sheet create name:…` (or pick one with `/sheet use name:…`), then save it. Nothing was saved.');
  });

  it('go with the sheet: exported and imported as another sheet they roll by name; an older file replacing it keeps them', async () => {
    await sheet('mike', 'Troy', 40);
    const roll = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90, archetypes: 'Acuity' } });
    await saveWithButton({ user: 'mike' }, roll, { name: 'Breach' });
    const exported = await sandbox().one({ user: 'mike', command: 'sheet export' });
    const file = exported.attachments![0]!;
    const content = file.content!;
    const json = JSON.parse(content) as { rolls: Array<{ name: string; roll: unknown }> };
    expect(json.rolls).toEqual([{ name: 'Breach', roll: { command: 'roll', path: 'challenge', options: [{ name: 'skill', type: 3, value: 'Climbing' }, { name: 'cl', type: 4, value: 90 }, { name: 'archetypes', type: 3, value: 'Acuity' }] } }]);

    const imported = await sandbox().one({ user: 'mike', command: 'sheet import', options: { file: { filename: 'troy.json', content: content.replace('"name": "Troy"', '"name": "Troy Two"') } } });
    expect(imported.content).toContain('Imported **Troy Two**');
    const rolled = await sandbox().one({ user: 'mike', command: 'roll saved', options: { name: 'Breach' } });
    expect(textOf(rolled)).toContain('Troy Two');

    // A file from before saved rolls replaces the sheet and keeps the saved rolls it had.
    const old = JSON.parse(content) as Record<string, unknown>;
    delete old.rolls;
    old.name = 'Troy Two';
    await sandbox().one({ user: 'mike', command: 'sheet import', options: { file: { filename: 'old.json', content: JSON.stringify(old) }, replace: true } });
    const again = await sandbox().one({ user: 'mike', command: 'roll saved', options: { name: 'Breach' } });
    expect(textOf(again)).toContain('Troy Two');
  });

  it('a saved roll from an edited file is checked as typing it would be: an option the command lacks, a wrong type or too long a label is refused, rolling nothing', async () => {
    const file = (rolls: unknown[]) => ({ file: { filename: 'troy.json', content: JSON.stringify({ name: 'Troy', skills: [{ name: 'Climbing', level: 40 }], rolls }) }, replace: true });
    const edited = [
      { name: 'Unknown', roll: { command: 'roll', path: 'challenge', options: [{ name: 'skill', type: 3, value: 'Climbing' }, { name: 'cl', type: 4, value: 90 }, { name: 'luck', type: 4, value: 50 }] } },
      { name: 'Typed', roll: { command: 'roll', path: 'challenge', options: [{ name: 'skill', type: 3, value: 'Climbing' }, { name: 'cl', type: 3, value: '90' }] } },
      { name: 'Label', roll: { command: 'roll', path: 'dice', options: [{ name: 'expression', type: 3, value: '1d6' }, { name: 'label', type: 3, value: 'x'.repeat(101) }] } },
      { name: 'Missing', roll: { command: 'roll', path: 'challenge', options: [{ name: 'skill', type: 3, value: 'Climbing' }] } },
      { name: 'Gone', roll: { command: 'roll', path: 'replay', options: [{ name: 'id', type: 3, value: 'abcdefgh' }] } },
    ];
    expect((await sandbox().one({ user: 'mike', command: 'sheet import', options: file(edited) })).content).toContain('Imported **Troy**');
    const words = {
      Unknown: 'its option `luck` is not one the command takes now',
      Typed: 'its option `cl` is not one the command takes now',
      Label: 'its `label` is not of a length the command takes',
      Missing: 'it lacks the option `cl` the command needs now',
      Gone: '/roll replay is no longer a roll this bot repeats',
    };
    for (const [name, text] of Object.entries(words)) {
      const refused = await sandbox().one({ user: 'mike', command: 'roll saved', options: { name } });
      expect(refused, name).toMatchObject({ ephemeral: true });
      expect(refused.content, name).toContain(text);
    }
    expect(await sandbox().bot.store.db.roll.count()).toBe(0);
  });
});
