// A sheet belongs to its system (RULES 6.1): a player has an active sheet per system, each command reads the one of
// its own system, and entries are checked against the sheet's system when they are set — through the fake Discord.
import { describe, expect, it } from 'vitest';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();
const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
type Choice = { name: string; value: string };

async function storedRolls(): Promise<Array<{ kind: string; inputs: unknown }>> {
  const response = await fetch(`${sandbox().url}/api/rolls?limit=50`);
  return ((await response.json()) as { rolls: Array<{ kind: string; inputs: unknown }> }).rolls;
}

/** Mike with a d6 pools sheet only: Kat, STR 3, Force 2. */
async function d6Only(): Promise<void> {
  await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Kat', system: 'd6-pool' } });
  await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: 'STR', value: 3 } });
  await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Force', level: 2 } });
}

describe('a sheet per system', () => {
  it('with a d6 pools sheet and a Tac Talk sheet both active, /roll challenge rolls the Tac Talk one and /pool the d6 one', async () => {
    await d6Only();
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy', system: 'tactalk' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    const list = textOf(await sandbox().one({ user: 'mike', command: 'sheet list' }));
    expect(list).toMatch(/▶ \*\*Kat\*\* · d6 pools/);
    expect(list).toMatch(/▶ \*\*Troy\*\* · Tac Talk/);

    const challenge = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 50 } });
    expect(challenge.ephemeral).toBeFalsy();
    expect(textOf(challenge)).toContain('Troy');
    const pool = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force' } });
    expect(pool.ephemeral).toBeFalsy();
    const rolled = await storedRolls();
    expect(rolled.find((roll) => roll.kind === 'pool')?.inputs).toMatchObject({ sheet: { name: 'Kat' }, skillLevel: 2, attributeValue: 3 });

    // Picking another Tac Talk sheet leaves the d6 pools one active.
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Backup', system: 'tactalk' } });
    const backToTroy = await sandbox().one({ user: 'mike', command: 'sheet use', options: { name: 'Troy' } });
    expect(backToTroy.content).toMatch(/\*\*Troy\*\* is now your active Tac Talk.* sheet/);
    const listed = textOf(await sandbox().one({ user: 'mike', command: 'sheet list' }));
    expect(listed).toMatch(/▶ \*\*Kat\*\*/);
    expect(listed).toMatch(/• \*\*Backup\*\*/);
    expect(listed).toMatch(/▶ \*\*Troy\*\*/);
  });

  it('a player with only a d6 pools sheet is told which sheet each Tac Talk and d100 tactics command needs, and how to make it; nothing is rolled', async () => {
    await d6Only();
    const advice = (command: string, system: string) =>
      new RegExp(`\`${command}\` rolls a ${system}[^;]* sheet; you have none \\(yours: \\*\\*Kat\\*\\*, d6 pools[^)]*\\)\\. Make one with \`/sheet create name:… system:${system}[^\`]*\`\\.`);
    const challenge = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 50 } });
    expect(challenge).toMatchObject({ ephemeral: true });
    expect(challenge.content).toMatch(advice('/roll challenge', 'Tac Talk'));
    const contest = await sandbox().one({ user: 'mike', command: 'contest start', options: { opponent: 'sasha', intent: 'Kat outruns Troy', stakes: 'Troy falls behind', skill: 'Running', role: 'attacker' } });
    expect(contest.content).toMatch(advice('/contest start', 'Tac Talk'));
    const tactics = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Aim' } });
    expect(tactics.content).toMatch(advice('/tactics', 'd100'));
    const dispatch = await sandbox().one({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', intent: 'get in', outcome: 'Kat is inside', skill: 'Climbing', cl: 50 } });
    expect(dispatch).toMatchObject({ ephemeral: true });
    expect(dispatch.content).toMatch(/`\/dispatch` rolls a Tac Talk[^;]* sheet; .* has none on this server\./);
    expect(await storedRolls()).toEqual([]);
  });

  it('/tactics check attribute:Aim on a Tac Talk-only player says they have no d100 tactics sheet instead of rolling at 0 %', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    const check = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Aim' } });
    expect(check).toMatchObject({ ephemeral: true });
    expect(check.content).toMatch(/`\/tactics` rolls a d100[^;]* sheet; you have none/);
    expect(await storedRolls()).toEqual([]);
  });

  it('an NPC of another system is refused by name for as_npc', async () => {
    await sandbox().one({ ...DISPATCHER, command: 'npc create', options: { name: 'Grunt', system: 'd6-pool' } });
    const refused = await sandbox().one({ ...DISPATCHER, command: 'tactics check', options: { attribute: 'Aim', as_npc: 'Grunt' } });
    expect(refused.content).toMatch(/\*\*Grunt\*\* is a d6 pools[^;]* sheet; `\/tactics` reads a d100[^.]* sheet\. Name an NPC of that system/);
  });
});

describe("a sheet's entries are checked against its system when they are set", () => {
  it('"Mobility 40" on a d6 pools sheet is refused at set time, naming what the system accepts', async () => {
    await d6Only();
    const skill = await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Mobility', level: 40 } });
    expect(skill).toMatchObject({ ephemeral: true });
    expect(skill.content).toMatch(/Not set on Kat: Mobility takes a skill level from 0 to 5 on a d6 pools[^,]* sheet, not 40\. Nothing was changed\./);
    const attribute = await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: 'Mobility', value: 40 } });
    expect(attribute.content).toMatch(/\*\*Mobility\*\* is not an attribute of a d6 pools[^,]* sheet, which holds STR, AGI, WIT, EMP at 0–10/);
    const jumping = await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Jumping', level: 2 } });
    expect(jumping.content).toMatch(/\*\*Jumping\*\* is not a skill of a d6 pools[^,]* sheet, which holds the thirteen skills at 0–5: Force, Melee, Stamina/);
    const archetype = await sandbox().one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } });
    expect(archetype.content).toMatch(/a d6 pools[^ ]* .*sheet holds no archetypes/);
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).not.toContain('Mobility');
  });

  it('an imported d6 pools sheet with an entry it does not hold is refused, naming its path; nothing is written', async () => {
    const file = { name: 'Kat', system: 'd6-pool', skills: [{ name: 'Force', level: 2 }, { name: 'Climbing', level: 3 }], attributes: [{ name: 'STR', value: 3 }] };
    const refused = await sandbox().one({ user: 'mike', command: 'sheet import', options: { file: { filename: 'kat.json', content: JSON.stringify(file) } } });
    expect(refused.content).toMatch(/`skills\[1\]\.name` is refused: \*\*Climbing\*\* is not a skill of a d6 pools[^,]* sheet/);
    const tooHigh = { ...file, skills: [{ name: 'Force', level: 40 }] };
    const refusedLevel = await sandbox().one({ user: 'mike', command: 'sheet import', options: { file: { filename: 'kat.json', content: JSON.stringify(tooHigh) } } });
    expect(refusedLevel.content).toMatch(/`skills\[0\]\.level` is refused: Force takes a skill level from 0 to 5/);
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet list' }))).toContain('No sheets yet');
  });

  it('an entry stored before the check is kept and marked on /sheet show, and can still be removed', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    const troy = (await sandbox().bot.store.operators.active({ guildId: sandbox().fake.guildId, ownerId: sandbox().fake.user('mike').id }, 'tactalk'))!;
    await sandbox().bot.store.operators.setAttribute(troy, 'Aim', 65);
    const shown = textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }));
    expect(shown).toContain('Aim **65** ⚠');
    expect(shown).toMatch(/⚠ Not part of a Tac Talk.* sheet \(1\)\nA Tac Talk.* sheet holds skills 0–100, archetype modifiers and conditions\. The marked entries were kept/);
    const removed = await sandbox().one({ user: 'mike', command: 'sheet attribute remove', options: { name: 'Aim' } });
    expect(removed.content).toContain('Removed the attribute **Aim**');
  });
});

describe('autocomplete per system', () => {
  it("offers the system's names, and to a player without a sheet of that system, how to make one (a choice refused with the same advice if sent)", async () => {
    const hint = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'cl' }, focused: 'skill' });
    expect(hint.choices).toEqual([{ name: expect.stringMatching(/^No Tac Talk.* sheet yet: \/sheet create name:…( system:Tac Talk.*)? — then add skills$/), value: '(no sheet yet)' }]);
    const sent = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: (hint.choices as Choice[])[0]!.value, cl: 50, level: 40 } });
    expect(sent.content).toMatch(/`\/roll challenge` rolls a Tac Talk[^;]* sheet; you have none\. Make one with `\/sheet create name:… system:Tac Talk/);
    expect(await storedRolls()).toEqual([]);
    const tactics = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: '' }, focused: 'attribute' });
    expect(tactics.choices).toEqual([{ name: expect.stringMatching(/^No d100.* sheet yet: .* — then add attributes$/), value: '(no sheet yet)' }]);

    await d6Only();
    const skills = await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'st' }, focused: 'name' });
    expect((skills.choices as Choice[]).map((choice) => choice.value)).toEqual(['Stamina', 'Stealth']);
    const attributes = await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: '' }, focused: 'name' });
    expect((attributes.choices as Choice[]).map((choice) => choice.name)).toEqual(['AGI', 'EMP', 'STR (3)', 'WIT']);

    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy', system: 'tactalk' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    const ofTroy = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'cl' }, focused: 'skill' });
    expect(ofTroy.choices).toEqual([{ name: 'Climbing (40)', value: 'Climbing' }]);
    const dispatched = await sandbox().one({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', skill: 'cl' }, focused: 'skill' });
    expect(dispatched.choices).toEqual([{ name: 'Climbing (40)', value: 'Climbing' }]);
  });
});

it('a skill the sheet lacks is refused with the nearest skills and what would work, `level:` included', async () => {
  await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  for (const [name, level] of [['Climbing', 40], ['Jump Shot', 35], ['Driving', 30]] as const) await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name, level } });
  const refused = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Jumping', cl: 50 } });
  expect(refused).toMatchObject({ ephemeral: true });
  expect(refused.content).toMatch(
    /Troy has no skill named \*\*Jumping\*\*\. (Nearest|Its skills): .*\*\*Jump Shot\*\* 35.* You can roll one of those, add it with `\/sheet skill set name:Jumping level:…` or give `level:` \(its aptitude, 0–100\) to roll Jumping without the sheet\./,
  );
  const withLevel = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Jumping', cl: 50, level: 30 } });
  expect(withLevel.ephemeral).toBeFalsy();
});
