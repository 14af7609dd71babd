// One command per sheet entry (issue 23): Troy's sheet took a `/sheet skill set` per skill. `/sheet set` takes
// whole lists (`skills:Climbing 40, CQC 37`, `archetypes:…`, `attributes:…`), each entry checked as the single
// commands check it, all or nothing: one refused entry stores none, and the answer names it and what would be right.
import { describe, expect, it } from 'vitest';
import type { SandboxInteractionRequest } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

const NO_PINGS = { parse: [] };
const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const CYRILLIC_ES = '\u0421';

type Choice = { name: string; value: string };

async function set(options: Record<string, string>, as: Omit<SandboxInteractionRequest, 'command'> = { user: 'mike' }) {
  return sandbox().one({ ...as, command: 'sheet set', options });
}

async function shown(user = 'mike'): Promise<string> {
  return textOf(await sandbox().one({ user, command: 'sheet show' }));
}

describe('/sheet set: several entries in one command', () => {
  it("fills the seed's Troy (four skills, two archetypes) in one command where the single commands took six", async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    const filled = await set({ skills: 'Climbing 40, Handgun Handling 50, Driving 55, Shotgun Handling 35', archetypes: 'Acuity +10, Dexterity +5' });
    expect(filled).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(filled.content).toBe(
      'Set 6 entries on **Troy**:\nSkills: **Climbing 40**, **Handgun Handling 50**, **Driving 55**, **Shotgun Handling 35**\nArchetype modifiers: **Acuity +10**, **Dexterity +5**',
    );
    const sheet = await shown();
    for (const entry of ['Climbing **40**', 'Handgun Handling **50**', 'Driving **55**', 'Shotgun Handling **35**', 'Acuity **+10**', 'Dexterity **+5**']) expect(sheet).toContain(entry);

    // Entries already there change as `/sheet skill set` changes them (the name as typed, the number before shown).
    const again = await set({ skills: 'climbing 45, Driving 55' });
    expect(again.content).toBe('Set 2 entries on **Troy**:\nSkills: **climbing** 40 → **45**, **Driving 55** (as it was)');
    // The single-entry commands work as they did.
    expect((await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'CQC', level: 40 } })).content).toBe('Troy now has **CQC 40**.');
  });

  it('stores nothing when one entry is refused, and names that entry with what would be right', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    const cases: Array<[Record<string, string>, string | RegExp]> = [
      [{ skills: 'CQC 37, Driving 155' }, /^⚠️ Nothing was set on \*\*Troy\*\*: in `skills`, entry 2 \(\*\*Driving 155\*\*\): Driving takes a skill level from 0 to 100 on a Tac Talk[^,]* sheet, not 155\. No entry was stored; fix that one and send the command again\./],
      [{ skills: 'CQC 37, Driving' }, 'in `skills`, entry 2 (**Driving**): it has no level: write the name, a space and its level, e.g. `Climbing 40`.'],
      [{ skills: 'CQC 37', archetypes: 'Acuity +150' }, /in `archetypes`, entry 1 \(\*\*Acuity \+150\*\*\): Acuity takes a modifier from -100 to 100/],
      [{ skills: 'CQC 37, Dri\u200bving 55' }, 'entry 2 (**Dri\u200bving 55**): The skill name contains a zero-width character (U+200B)'],
      [{ skills: 'CQC 37, Driving 50, cqc 40' }, 'in `skills`, entry 3 (**cqc 40**): **cqc** is already entry 1 of this list; give each once.'],
      [{ skills: 'CQC 37, Driving 50, Driv\u0456ng 40' }, 'entry 3 (**Driv\u0456ng 40**): **Driv\u0456ng** looks just like **Driving**, entry 2 of this list'],
      [{ skills: `CQC 37, ${CYRILLIC_ES}limbing 45` }, `entry 2 (**${CYRILLIC_ES}limbing 45**): **${CYRILLIC_ES}limbing** looks just like this sheet’s skill **Climbing**`],
      [{ skills: 'CQC 37', attributes: 'Aim 65' }, 'in `attributes`, entry 1 (**Aim 65**): a Tac Talk'],
    ];
    for (const [options, expected] of cases) {
      const refused = await set(options);
      expect(refused, JSON.stringify(options)).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
      if (typeof expected === 'string') expect(refused.content).toContain(expected);
      else expect(refused.content).toMatch(expected);
      // What was typed comes back to copy, so a long list need not be typed again.
      for (const [option, list] of Object.entries(options)) expect(refused.content).toContain(`${option}:${list}`);
    }
    const sheet = await shown();
    expect(sheet).toContain('**Skills** (1)\nClimbing **40**');
    expect(sheet).not.toMatch(/CQC|Driving|Acuity|Aim/);
  });

  it('keeps a sheet inside its limits: 99 skills in one list, then a list that would make 101 stores none of itself', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    const many = Array.from({ length: 99 }, (_, index) => `Skill ${index + 1} ${index % 100}`).join(', ');
    const filled = await set({ skills: many });
    expect(filled.content).toMatch(/^Set 99 entries on \*\*Troy\*\*:\nSkills: /);
    expect(filled.content!.length).toBeLessThanOrEqual(2000);
    const over = await set({ skills: 'Skill 1 50, Extra A 1, Extra B 2' });
    expect(over.content).toContain(
      'in `skills`, entry 3 (**Extra B 2**): a sheet holds at most 100 skills; Troy has 99 and this list adds 2 new, so set fewer or remove some first (`/sheet skill remove`).',
    );
    const sheet = await shown();
    expect(sheet).toContain('**Skills** (99)');
    expect(sheet).toContain('Skill 1 **0**');
  });

  it("checks each entry against the sheet's system: a d6 pools sheet takes its thirteen skills and four attributes, every list or none", async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Kat', system: 'd6-pool' } });
    const refused = await set({ attributes: 'STR 3, AGI 2, WIT 4, EMP 1', skills: 'Force 2, Parkour 1' });
    expect(refused.content).toContain('in `skills`, entry 2 (**Parkour 1**): **Parkour** is not a skill of a d6 pools');
    expect(await shown()).not.toMatch(/STR|Force/);
    const archetypes = await set({ archetypes: 'Acuity +5' });
    expect(archetypes.content).toContain('a d6 pools with pushing sheet holds no archetypes');
    const filled = await set({ attributes: 'STR 3, AGI 2, WIT 4, EMP 1', skills: 'Force 2, Melee 1' });
    expect(filled.content).toBe('Set 6 entries on **Kat**:\nSkills: **Force 2**, **Melee 1**\nAttributes: **STR 3**, **AGI 2**, **WIT 4**, **EMP 1**');
  });

  it('autocompletes the entry being typed from the names the system reads and those the sheet has', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Kat', system: 'd6-pool' } });
    await set({ skills: 'Melee 2' });
    const choices = await sandbox().one({ user: 'mike', command: 'sheet set', options: { skills: 'Force 3, me' }, focused: 'skills' });
    expect(choices.choices as Choice[]).toEqual([
      { name: 'Force 3, Medical', value: 'Force 3, Medical' },
      { name: 'Force 3, Melee (now 2)', value: 'Force 3, Melee' },
    ]);
    // A finished entry is offered back as it is, so sending it never swaps it for another.
    const done = await sandbox().one({ user: 'mike', command: 'sheet set', options: { skills: 'Force 3, Melee 4' }, focused: 'skills' });
    expect(done.choices).toEqual([{ name: 'Force 3, Melee 4', value: 'Force 3, Melee 4' }]);
  });

  it('a new sheet says how to fill it in one go, with an example its system takes', async () => {
    for (const system of ['tactalk', 'd100-tactics', 'd6-pool', 'd10-pool']) {
      const created = await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: `Sheet ${system}`, system } });
      const example = /Several at once: `\/sheet set (.+)`\.$/.exec(created.content ?? '')?.[1];
      expect(example, created.content).toBeDefined();
      // `skills:Force 3, Melee 2 attributes:STR 5, AGI 4` → { skills: 'Force 3, Melee 2', attributes: 'STR 5, AGI 4' }
      const options = Object.fromEntries([...example!.matchAll(/(\w+):(.*?)(?= \w+:|$)/g)].map(([, option, list]) => [option!, list!]));
      const filled = await set(options);
      expect(filled.content, `${system}: ${example}`).toMatch(/^Set [24] entries on \*\*Sheet /);
    }
    const code = await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Die codes', system: 'result-points' } });
    expect(code.content).not.toContain('/sheet set');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).toContain('*none yet: `/sheet skill set`, or several at once with `/sheet set`*');
  });

  it('asks for a list when none is given', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    const none = await set({});
    expect(none).toMatchObject({ ephemeral: true });
    expect(none.content).toContain('Give at least one list');
    expect((await set({ skills: ' , ' })).content).toContain('`skills` holds no entry');
  });

  it("lets a Dispatcher fill another player's sheet with player:, and no one else", async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    const refused = await set({ skills: 'Climbing 99', player: 'mike' }, { user: 'sasha' });
    expect(refused).toMatchObject({ ephemeral: true });
    expect(refused.content).toContain("Only a Dispatcher can change another player's sheet");
    const filled = await set({ skills: 'Climbing 40, CQC 37', player: 'mike' }, DISPATCHER);
    expect(filled.content).toContain('Set 2 entries on **Troy**');
    expect(await shown()).toContain('Climbing **40**');
    const sheets = await sandbox().one({ ...DISPATCHER, command: 'sheet set', options: { player: 'mike', sheet: 'tr' }, focused: 'sheet' });
    expect((sheets.choices as Choice[]).map((choice) => choice.value)).toEqual(['Troy']);
  });
});

describe('/npc set', () => {
  it('fills an NPC in one command for a Dispatcher, and for no one else', async () => {
    await sandbox().one({ ...DISPATCHER, command: 'npc create', options: { name: 'Thug' } });
    const refused = await sandbox().one({ user: 'mike', command: 'npc set', options: { npc: 'Thug', skills: 'Brawling 40' } });
    expect(refused.content).toContain('Only a Dispatcher can change NPC sheets');
    const filled = await sandbox().one({ ...DISPATCHER, command: 'npc set', options: { npc: 'thug', skills: 'Handgun Handling 40, Brawling 30', archetypes: 'Brute +5' } });
    expect(filled.content).toBe('Set 3 entries on **Thug**:\nSkills: **Handgun Handling 40**, **Brawling 30**\nArchetype modifiers: **Brute +5**');
    const bad = await sandbox().one({ ...DISPATCHER, command: 'npc set', options: { npc: 'Thug', skills: 'Driving 20, Brawling 300' } });
    expect(bad.content).toContain('Nothing was set on **Thug**: in `skills`, entry 2 (**Brawling 300**)');
    const npc = textOf(await sandbox().one({ ...DISPATCHER, command: 'npc show', options: { name: 'Thug' } }));
    expect(npc).toContain('Brawling **30**');
    expect(npc).not.toContain('Driving');
  });
});
