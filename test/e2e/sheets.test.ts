// Two players keep their Operator sheets through the real bot and the fake Discord.
import { describe, expect, it } from 'vitest';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

const NO_PINGS = { parse: [] };

describe('/sheet', () => {
  it('creates a sheet, fills it, and shows it to its owner and to another player', async () => {
    const created = await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: '  Troy ' } });
    expect(created).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(created.content).toMatch(/Created \*\*Troy\*\*; it is your active Tac Talk[^.]* sheet/);

    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Handgun Handling', level: 50 } });
    const changed = await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'climbing', level: 45 } });
    expect(changed.content).toContain('40 → **45**');
    await sandbox().one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } });
    const condition = await sandbox().one({
      user: 'mike',
      command: 'sheet condition add',
      options: { name: 'Shaky hands', modifier: -5, skills: 'handgun handling', minutes: 30 },
    });
    expect(condition.content).toContain('**Shaky hands** (−5 on Handgun Handling, for 30 min)');

    const shown = await sandbox().one({ user: 'mike', command: 'sheet show' });
    expect(shown.ephemeral).toBe(true);
    const text = textOf(shown);
    expect(text).toContain('Troy (active)');
    expect(text).toContain('climbing **45**');
    expect(text).toContain('Handgun Handling **50**');
    expect(text).toContain('Acuity **+10**');
    expect(text).toMatch(/Shaky hands \*\*−5\*\* \(Handgun Handling, 30 min left\)/);

    // Attributes live on a sheet of a system that reads them (a d100 tactics sheet: Aim, Will…), made the current one.
    const tactics = await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy Tactics', system: 'd100-tactics' } });
    expect(tactics.content).toMatch(/it is your active d100[^.]* sheet \(your sheets of other systems stay active for theirs\)/);
    await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: 'Aim', value: 65 } });
    const aim = await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: 'aim', value: 70 } });
    expect(aim.content).toContain('65 → **70**');
    const tooBig = await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: 'Will', value: 5000 } });
    expect(tooBig).toMatchObject({ ephemeral: true });
    expect(tooBig.content).toMatch(/Not set on Troy Tactics: Will takes a value from -1000 to 1000 on a d100[^,]* sheet, not 5000\. Nothing was changed\./);
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).toContain('Attributes (1)\naim **70**');
    const suggested = await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: 'def' }, focused: 'name' });
    expect(suggested.choices).toEqual([{ name: 'Defense', value: 'Defense' }]);
    const troyAgain = await sandbox().one({ user: 'mike', command: 'sheet use', options: { name: 'troy' } });
    expect(troyAgain.content).toMatch(/\*\*Troy\*\* is now your active Tac Talk[^:]* sheet: `\/roll` rolls it\. Your sheets of other systems stay active for theirs\./);

    const seenBySasha = await sandbox().one({ user: 'sasha', command: 'sheet show', options: { user: 'mike', share: true } });
    expect(seenBySasha.ephemeral).toBe(false);
    expect(textOf(seenBySasha)).toContain('Troy (active)');
    const sashaHasNone = await sandbox().one({ user: 'sasha', command: 'sheet show' });
    expect(sashaHasNone).toMatchObject({ ephemeral: true });
    expect(sashaHasNone.content).toContain('You have no Operator sheet on this server yet');
  });

  it('lists, switches, renames and deletes sheets, the delete only by its owner after confirming', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Decoy' } });
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet list' }))).toMatch(/▶ \*\*Decoy\*\*.*\n• \*\*Troy\*\*/);
    await sandbox().one({ user: 'mike', command: 'sheet use', options: { name: 'TROY' } });
    const renamed = await sandbox().one({ user: 'mike', command: 'sheet rename', options: { new_name: 'Troy Walker' } });
    expect(renamed.content).toBe('Renamed **Troy** to **Troy Walker**.');

    const prompt = await sandbox().one({ user: 'mike', command: 'sheet delete', options: { name: 'decoy' } });
    expect(prompt.ephemeral).toBe(true);
    const buttons = (prompt.components[0] as { components: Array<{ custom_id: string; label: string }> }).components;
    const confirm = buttons.find((button) => button.label.startsWith('Delete'))!;

    const intruder = await sandbox().one({ user: 'sasha', button: confirm.custom_id, message: prompt.messageId! });
    expect(intruder).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(intruder.content).toContain('not yours');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet list' }))).toContain('Decoy');

    const done = await sandbox().one({ user: 'mike', button: confirm.custom_id, message: prompt.messageId! });
    expect(done).toMatchObject({ kind: 'update', components: [] });
    expect(done.content).toBe('Deleted **Decoy**.');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet list' }))).not.toContain('Decoy');
  });

  it('autocompletes skill and sheet names from the sheet', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    for (const [name, level] of [['Climbing', 40], ['Close-Quarters Combat', 30], ['Driving', 55]] as const) {
      await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name, level } });
    }
    const choices = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'cl' }, focused: 'skill' });
    expect(choices.kind).toBe('autocomplete');
    expect(choices.choices).toEqual([
      { name: 'Climbing (40)', value: 'Climbing' },
      { name: 'Close-Quarters Combat (30)', value: 'Close-Quarters Combat' },
    ]);
    const sheets = await sandbox().one({ user: 'mike', command: 'sheet use', options: { name: 'tr' }, focused: 'name' });
    expect(sheets.choices).toEqual([{ name: expect.stringMatching(/^Troy · Tac Talk.* \(active\)$/), value: 'Troy' }]);
  });

  it('exports a sheet as a JSON file and imports it back; a bad file changes nothing', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    const exported = await sandbox().one({ user: 'mike', command: 'sheet export' });
    expect(exported.ephemeral).toBe(true);
    expect(exported.attachments).toHaveLength(1);
    const file = exported.attachments![0]!;
    expect(file.filename).toBe('Troy.json');
    const json = JSON.parse(file.content!) as { name: string; skills: unknown[] };
    expect(json).toMatchObject({ format: 'tactalk-operator', version: 1, name: 'Troy', skills: [{ name: 'Climbing', level: 40 }] });

    const corrupt = JSON.stringify({ ...json, skills: [{ name: 'Climbing', level: 400 }] });
    const refused = await sandbox().one({ user: 'sasha', command: 'sheet import', options: { file: { filename: 'troy.json', content: corrupt } } });
    expect(refused.ephemeral).toBe(true);
    expect(refused.content).toContain('`skills[0].level`');
    expect(refused.content).toContain('Nothing was changed');
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'sheet list' }))).toContain('No sheets yet');

    const notJson = await sandbox().one({ user: 'sasha', command: 'sheet import', options: { file: { filename: 'x.json', content: '{"name": "Kat",' } } });
    expect(notJson.content).toContain('not valid JSON');

    const imported = await sandbox().one({ user: 'sasha', command: 'sheet import', options: { file: { filename: 'troy.json', content: file.content! } } });
    expect(imported.content).toContain('Imported **Troy** (1 skills');
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'sheet show' }))).toContain('Climbing **40**');
  });

  it('refuses bad input privately, with what would be right, and never pings', async () => {
    const long = await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'x'.repeat(200) } });
    expect(long).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(long.content).toContain('at most 64 characters; yours has 200');

    const everyone = await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: '@everyone <@&1> hi' } });
    expect(everyone.allowedMentions).toEqual(NO_PINGS);
    const shown = await sandbox().one({ user: 'mike', command: 'sheet show', options: { share: true } });
    expect(shown).toMatchObject({ ephemeral: false, allowedMentions: NO_PINGS });
    expect(textOf(shown)).toContain('@everyone');

    const level = await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 150 } });
    expect(level.content).toMatch(/Climbing takes a skill level from 0 to 100 on a Tac Talk[^,]* sheet, not 150\. Nothing was changed\./);
    const skills = await sandbox().one({ user: 'mike', command: 'sheet condition add', options: { name: 'Hurt', modifier: -5, skills: 'Climbing' } });
    expect(skills.content).toContain('has no skill named **Climbing**');
    const sheets = await sandbox().fake.interact({ user: 'mike', command: 'sheet list' });
    expect(textOf(sheets.responses[0]!)).not.toContain('x'.repeat(65));
  });

  it("lets a Dispatcher change another player's active sheet, and no one else", async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });

    const refused = await sandbox().one({ user: 'sasha', command: 'sheet skill set', options: { name: 'Climbing', level: 99, player: 'mike' } });
    expect(refused).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(refused.content).toContain("Only a Dispatcher can change another player's sheet");

    const wounded = await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'sheet condition add', options: { name: 'Wounded', modifier: -10, player: 'mike' } });
    expect(wounded.content).toContain('Troy is now **Wounded**');
    const changed = await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'sheet skill set', options: { name: 'Climbing', level: 45, player: 'mike' } });
    expect(changed.content).toContain('40 → **45**');
    const choices = await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'sheet skill remove', options: { name: 'cl', player: 'mike' }, focused: 'name' });
    expect(choices.choices).toEqual([{ name: 'Climbing (45)', value: 'Climbing' }]);

    const shown = textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }));
    expect(shown).toContain('Climbing **45**');
    expect(shown).toContain('Wounded **−10**');
    const noSheet = await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'sheet skill set', options: { name: 'Climbing', level: 10, player: 'sasha' } });
    expect(noSheet.content).toContain('sasha has no Operator sheet on this server');
  });
});
