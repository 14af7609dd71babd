// /d10 (d10 pools, RULES 5) through the real bot and the fake Discord: basic, advanced and cumulative rolls,
// the Roll again button (roller only, once, across a restart), and replays.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/engine/rng.js';
import { nextStepInput, resolveCumulativeStep, type CumulativeStepInput, type CumulativeStepResult } from '../../src/engine/systems/d10-pool/cumulative.js';
import { percentOf } from '../../src/engine/odds.js';
import { poolOdds, resolveAdvancedRoll, resolvePoolRoll, type PoolInput } from '../../src/engine/systems/d10-pool/pool.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';
import { postedAs } from '../helpers/npc-voice.js';

const NO_PINGS = { parse: [] };
const sandbox = useTestSandbox({ seeds: ['d10-1', 'd10-2', 'd10-3', 'd10-4', 'd10-5'] });

async function storedRolls(limit = 10): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox().url}/api/rolls?limit=${limit}`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}

const dice = (faces: number[]) => `\`${faces.map((face) => `[${face}]`).join('')}\``;
const rollIdOf = (text: string) => /Roll (\w{8})/.exec(text)![1]!;

function buttonsOf(response: SandboxResponse): Array<{ custom_id: string; label: string; disabled?: boolean }> {
  return (response.components as Array<{ components: Array<{ custom_id: string; label: string; disabled?: boolean }> }>).flatMap((row) => row.components);
}

describe('/d10 roll', () => {
  it('shows every die, the highest and its matches, the modifier, the TN, the verdict and the odds; stored and replayable', async () => {
    const result = resolvePoolRoll({ dice: 4, targetNumber: 8, modifier: 1, calm: false }, seededRng('d10-1'));
    const reply = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 4, tn: 8, modifier: 1 } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    const text = textOf(reply);
    expect(text).toContain(`🎲 ${dice(result.reading.faces)} → ${result.reading.highest}`);
    expect(text).toContain(`${result.reading.natural} (dice) + 1 modifier = **${result.result}**`);
    expect(text).toContain(`4d10 vs TN 8: ${result.reading.mishap ?? result.verdict}`);
    expect(text).toMatch(/Odds: success \d+(\.\d)?% \(solid \d+(\.\d)?%\) · partial \d+(\.\d)?% · failure \d+(\.\d)?% · automatic failure or botch \d+(\.\d)?%/);
    const rollId = rollIdOf(text);
    const [stored] = await storedRolls(1);
    expect(stored).toMatchObject({ id: rollId, kind: 'd10', system: 'd10-pool', seed: 'd10-1', dice: result.reading.faces, total: result.result, challengeLevel: 8, success: result.success });
    const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain(`Roll ${rollId}: the dice match`);
    expect(replay).toContain(dice(result.reading.faces));
  });

  it('zero dice rolls one die and says a 1 or 2 is a critical failure; calm says the 1s do not count', async () => {
    const zero = textOf(await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 0, tn: 5 } }));
    expect(zero).toContain('Zero dice (0): one die is rolled, and a 1 or 2 is a critical failure.');
    expect(zero).toMatch(/🎲 `\[\d+\]`/);
    const calm = textOf(await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 2, tn: 5, calm: true } }));
    expect(calm).toContain('Calm: no automatic failure, botch or critical failure.');
    expect(calm).not.toContain('automatic failure or botch');
  });

  it('declares the ranges to Discord, which refuses a TN or a modifier outside them; nothing is stored', async () => {
    await expect(sandbox().fake.interact({ user: 'mike', command: 'd10 roll', options: { dice: 3, tn: 0 } })).rejects.toThrow(/"tn" of \/d10 roll must be at least 1/);
    await expect(sandbox().fake.interact({ user: 'mike', command: 'd10 roll', options: { dice: 3, tn: 8, modifier: 99 } })).rejects.toThrow(/"modifier" .* at most 50/);
    expect(await storedRolls()).toEqual([]);
  });
});

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };

/** Leroy, mike's active d10 pools sheet: Pistol 4 and Tactics 3 (skills), Reflexes 3 (an attribute). */
async function leroy(): Promise<void> {
  await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Leroy', system: 'd10-pool' } });
  await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Pistol', level: 4 } });
  await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Tactics', level: 3 } });
  await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: 'Reflexes', value: 3 } });
}

describe('/d10 rolls from the sheet (the dice of a skill or attribute, by name)', () => {
  it('dice:Pistol rolls the 4 dice of the active sheet’s Pistol, names Leroy, and is stored and replayed with them', async () => {
    await leroy();
    const result = resolvePoolRoll({ dice: 4, targetNumber: 8, modifier: 0, calm: false }, seededRng('d10-1'));
    const reply = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 'pistol', tn: 8 } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false });
    const text = textOf(reply);
    expect(text).toContain('**Leroy**');
    expect(text).toContain(`Pistol 4d10 vs TN 8: ${result.reading.mishap ?? result.verdict}`);
    expect(text).toContain('📋 Pistol (skill): 4 dice');
    expect(text).toContain(`🎲 ${dice(result.reading.faces)} → ${result.reading.highest}`);
    expect(text).toContain(expectedOdds(4, 8, 0));
    const rollId = rollIdOf(text);
    expect((await storedRolls(1))[0]).toMatchObject({ kind: 'd10', dice: result.reading.faces, inputs: { dice: 4, pool: { name: 'Pistol', kind: 'skill' }, sheet: { name: 'Leroy' } } });
    const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain(`Roll ${rollId}: the dice match`);
    expect(replay).toContain('Pistol 4d10 vs TN 8');
  });

  it('explicit dice still roll, credited to the active sheet’s character, or to the member without one', async () => {
    await leroy();
    expect(textOf(await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 3, tn: 8 } }))).toMatch(/^\*\*Leroy\*\*$/m);
    const sasha = textOf(await sandbox().one({ user: 'sasha', command: 'd10 roll', options: { dice: '3', tn: 8 } }));
    expect(sasha).toMatch(/^\*\*sasha\*\*$/m);
    expect(sasha).toContain('3d10 vs TN 8');
  });

  it('an advanced roll takes its primary dice and its secondary level from the sheet; a fastdraw and a cumulative roll their dice', async () => {
    await leroy();
    const advanced = resolveAdvancedRoll({ dice: 4, secondary: 3, mode: 'additive', halve: false, targetNumber: 10, modifier: 0, calm: false }, seededRng('d10-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'd10 advanced', options: { primary: 'Pistol', secondary: 'tactics', mode: 'additive', tn: 10 } }));
    expect(text).toContain('**Leroy**');
    expect(text).toContain('Pistol 4d10 additive vs TN 10');
    expect(text).toContain('📋 Pistol (skill): 4 dice · Tactics (skill): level 3, the secondary skill');
    expect(text).toContain(`${advanced.reading.natural} (dice) + 3 Tactics (secondary skill) = **${advanced.result}**`);
    expect(textOf(await sandbox().one({ user: 'mike', command: 'roll replay', options: { id: rollIdOf(text) } }))).toContain('the dice match');

    const fastdraw = textOf(await sandbox().one({ user: 'mike', command: 'd10 fastdraw', options: { dice: 'Reflexes', tn: 6 } }));
    expect(fastdraw).toContain('Fastdraw Reflexes 3d10 vs TN 6');
    expect(fastdraw).toContain('📋 Reflexes (attribute): 3 dice');

    const first = await sandbox().one({ user: 'mike', command: 'd10 extended', options: { dice: 'Pistol', tn: 8, target: 1000, rolls: 3, calm: true } });
    expect(textOf(first)).toContain('**Leroy** · Pistol: 4 dice vs TN 8');
    const again = buttonsOf(first)[0]!.custom_id;
    const second = await sandbox().one({ user: 'mike', button: again, message: first.messageId! });
    expect(textOf(second)).toContain('**Leroy** · Pistol: 4 dice vs TN 8');
    expect(textOf(second)).toContain('**2.**');
  });

  it('a name not on the sheet is refused with the nearest ones; a name without a sheet says how to make one; out-of-range dice are refused; nothing is stored', async () => {
    const noSheet = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 'Pistol', tn: 8 } });
    expect(noSheet).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(noSheet.content).toContain('no d10 pools sheet');
    expect(noSheet.content).toContain('a number of dice');
    await leroy();
    const typo = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 'Pistl', tn: 8 } });
    expect(typo).toMatchObject({ ephemeral: true });
    expect(typo.content).toContain('Leroy has no skill or attribute named **Pistl** for dice. Did you mean Pistol 4?');
    const secondary = await sandbox().one({ user: 'mike', command: 'd10 advanced', options: { primary: 3, secondary: 'Driving', mode: 'additive' } });
    expect(secondary.content).toContain('Leroy has no skill or attribute named **Driving** for the secondary skill.');
    const tooMany = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 31, tn: 8 } });
    expect(tooMany).toMatchObject({ ephemeral: true });
    expect(tooMany.content).toContain('The number of dice must be a whole number from -20 to 30; 31 is not.');
    expect(await storedRolls()).toEqual([]);
  });

  it('autocompletes dice with the sheet’s skills and attributes and their dice, a typed number as itself, and how to make a sheet without one', async () => {
    const none = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: '', tn: 8 }, focused: 'dice' });
    expect((none.choices as Array<{ name: string }>)[0]!.name).toContain('No d10 pools sheet yet');
    await leroy();
    const all = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: '', tn: 8 }, focused: 'dice' });
    expect(all.choices).toEqual([
      { name: 'Pistol (skill, 4 dice)', value: 'Pistol' },
      { name: 'Reflexes (attribute, 3 dice)', value: 'Reflexes' },
      { name: 'Tactics (skill, 3 dice)', value: 'Tactics' },
    ]);
    const typed = await sandbox().one({ user: 'mike', command: 'd10 advanced', options: { primary: 4, secondary: 'tac', mode: 'additive' }, focused: 'secondary' });
    expect(typed.choices).toEqual([{ name: 'Tactics (skill, level 3)', value: 'Tactics' }]);
    const number = await sandbox().one({ user: 'mike', command: 'd10 extended', options: { dice: '5' }, focused: 'dice' });
    expect(number.choices).toEqual([{ name: '5 dice', value: '5' }]);
  });

  it('a Dispatcher rolls an NPC’s skill with as_npc, named as the NPC; a player may not', async () => {
    await sandbox().one({ ...DISPATCHER, command: 'npc create', options: { name: 'Viper', system: 'd10-pool' } });
    await sandbox().one({ ...DISPATCHER, command: 'npc skill set', options: { npc: 'Viper', name: 'Claws', level: 5 } });
    const result = resolvePoolRoll({ dice: 5, targetNumber: 9, modifier: 0, calm: false }, seededRng('d10-1'));
    // Posted under the NPC's name through the channel's webhook.
    const text = textOf(postedAs(sandbox(), await sandbox().one({ ...DISPATCHER, command: 'd10 roll', options: { dice: 'claws', tn: 9, as_npc: 'Viper' } }), 'Viper'));
    expect(text).toContain('**Viper**');
    expect(text).toContain(`Claws 5d10 vs TN 9: ${result.reading.mishap ?? result.verdict}`);
    expect((await storedRolls(1))[0]).toMatchObject({ npc: 'Viper', inputs: { sheet: { name: 'Viper' }, pool: { name: 'Claws' } } });
    const player = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 'claws', tn: 9, as_npc: 'Viper' } });
    expect(player).toMatchObject({ ephemeral: true });
    expect(await storedRolls()).toHaveLength(1);
  });
});

/** The odds line the bot must show, computed from the exact counts. */
function expectedOdds(dice: number, tn: number, bonus: number, options: { partial?: boolean; mishap?: string } = {}): string {
  const odds = poolOdds(dice, tn, bonus, false, options.partial ?? true);
  const pct = (count: bigint) => `${percentOf(count, odds.outcomes)}%`;
  return [
    `Odds: success ${pct(odds.solid + odds.success)} (solid ${pct(odds.solid)})`,
    ...(options.partial === false ? [] : [`partial ${pct(odds.partial)}`]),
    `failure ${pct(odds.failure)}`,
    `${options.mishap ?? 'automatic failure or botch'} ${pct(odds.mishap)}`,
  ].join(' · ');
}

/** The natural reading (highest + matches) a seed gives a calm pool of this many dice. */
const naturalOf = (dice: number, seed: string) => resolvePoolRoll({ dice, targetNumber: null, modifier: 0, calm: true }, seededRng(seed)).reading.natural;

describe('/d10 roll: situations that take dice away, aiming, unsafe misses (seed 004)', () => {
  it('each situation takes one die and aiming adds +1 per phase, at most 3; the breakdown shows both and the odds stay exact; replayable', async () => {
    const input: PoolInput = { dice: 5, targetNumber: 9, modifier: 0, calm: false, situations: ['in the dark', 'wounded'], aimPhases: 5, unsafe: false };
    const result = resolvePoolRoll(input, seededRng('d10-1'));
    expect(result.reading.faces).toHaveLength(3);
    const reply = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 5, tn: 9, situations: 'in the dark, wounded', aim: 5 } });
    const text = textOf(reply);
    expect(text).toContain('Dice: 5 − 1 (in the dark) − 1 (wounded) = 3 (each situation takes one die)');
    expect(text).toContain(`🎲 ${dice(result.reading.faces)} → ${result.reading.highest}`);
    expect(text).toContain(`${result.reading.natural} (dice) + 3 aiming (5 phases, only 3 add) = **${result.result}**`);
    expect(text).toContain(expectedOdds(3, 9, 3));
    const rollId = rollIdOf(text);
    expect((await storedRolls(1))[0]).toMatchObject({ kind: 'd10', dice: result.reading.faces, total: result.result, inputs: { situations: ['in the dark', 'wounded'], aimPhases: 5 } });
    const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain(`Roll ${rollId}: the dice match`);
    expect(replay).toContain('Dice: 5 − 1 (in the dark) − 1 (wounded) = 3');
    expect(replay).toContain('+ 3 aiming (5 phases, only 3 add)');
  });

  it('penalties down to zero dice roll one die, and a 1 or 2 is a critical failure', async () => {
    const result = resolvePoolRoll({ dice: 1, targetNumber: 5, modifier: 0, calm: false, situations: ['prone', 'in the dark'] }, seededRng('d10-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 1, tn: 5, situations: 'prone; in the dark' } }));
    expect(text).toContain('Dice: 1 − 1 (prone) − 1 (in the dark) = -1');
    expect(text).toContain('Zero dice (-1): one die is rolled, and a 1 or 2 is a critical failure.');
    expect(text).toContain(`🎲 ${dice(result.reading.faces)}`);
    expect(text).toContain(expectedOdds(-1, 5, 0, { mishap: 'critical failure' }));
  });

  it('unsafe: a near miss is a failure, not a partial success, and the odds have no partial', async () => {
    const natural = naturalOf(3, 'd10-1');
    const tn = natural + 1; // short by 1, within 25 % of any TN of 4 or more: a partial success if it were safe
    const text = textOf(await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 3, tn, calm: true, unsafe: true } }));
    expect(text).toContain(`**${natural} < TN ${tn}: failure** (short by 1; no partial success: missing is not safe)`);
    expect(text).toContain('Missing is not safe: a near miss is a failure, not a partial success.');
    expect(text).toMatch(/Odds: success [\d.]+% \(solid [\d.]+%\) · failure [\d.]+%$/m);
    // The same near miss, safe, is a partial success.
    const safe = textOf(await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 3, tn: naturalOf(3, 'd10-2') + 1, calm: true } }));
    expect(safe).toContain(': partial success** (short by 1');
  });

  it('an advanced roll takes the situations and aiming too', async () => {
    const result = resolveAdvancedRoll({ dice: 3, secondary: 4, mode: 'additive', halve: false, targetNumber: 10, modifier: 0, calm: false, situations: ['prone'], aimPhases: 2, unsafe: false }, seededRng('d10-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'd10 advanced', options: { primary: 3, secondary: 4, mode: 'additive', tn: 10, situations: 'prone', aim: 2 } }));
    expect(result.reading.faces).toHaveLength(2);
    expect(text).toContain('Dice: 3 − 1 (prone) = 2');
    expect(text).toContain(`${result.reading.natural} (dice) + 4 secondary skill + 2 aiming (2 phases) = **${result.result}**`);
    expect(text).toContain(expectedOdds(2, 10, 6));
  });

  it('refuses, privately and storing nothing, a situation named twice or a bare number; Discord refuses aiming past 20 phases', async () => {
    const twice = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 3, tn: 8, situations: 'wounded, wounded' } });
    expect(twice).toMatchObject({ ephemeral: true });
    expect(twice.content).toContain('"wounded" is named twice; each situation takes one die away once.');
    const number = await sandbox().one({ user: 'mike', command: 'd10 roll', options: { dice: 3, tn: 8, situations: '2' } });
    expect(number.content).toContain('To roll fewer dice, lower `dice`.');
    await expect(sandbox().fake.interact({ user: 'mike', command: 'd10 roll', options: { dice: 3, tn: 8, aim: 21 } })).rejects.toThrow(/"aim" .* at most 20/);
    expect(await storedRolls()).toEqual([]);
  });
});

describe('/d10 fastdraw (the seed’s sample action)', () => {
  it('success draws the weapon as a free action, the phase action still to declare (Earl); failure loses this phase’s action; both replay', async () => {
    const first = naturalOf(3, 'd10-1');
    const drawn = textOf(await sandbox().one({ user: 'mike', command: 'd10 fastdraw', options: { dice: 3, tn: first, calm: true } }));
    expect(drawn).toContain(`Fastdraw 3d10 vs TN ${first}: success`);
    expect(drawn).toContain('⚡ **Drawn as a free action**: this phase’s action is still yours to declare.');

    const second = naturalOf(3, 'd10-2');
    const lost = textOf(await sandbox().one({ user: 'mike', command: 'd10 fastdraw', options: { dice: 3, tn: second + 1, calm: true } }));
    expect(lost).toContain(`Fastdraw 3d10 vs TN ${second + 1}: failure`);
    expect(lost).toContain(`**${second} < TN ${second + 1}: failure** (short by 1; a fastdraw succeeds or fails)`);
    expect(lost).toContain('✋ **Fastdraw failed**: this phase’s action is lost.');
    expect(lost).not.toContain('partial');

    const rolls = await storedRolls(2);
    expect(rolls.map((roll) => [roll.kind, (roll.inputs as { action?: string }).action, roll.success])).toEqual([['d10', 'fastdraw', false], ['d10', 'fastdraw', true]]);
    const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollIdOf(lost) } }));
    expect(replay).toContain('the dice match');
    expect(replay).toContain(`Fastdraw 3d10 vs TN ${second + 1}: failure`);
    expect(replay).toContain('✋ **Fastdraw failed**: this phase’s action is lost.');
  });
});

describe('/d10 advanced', () => {
  it('additive, halved: half the secondary level added; replayable', async () => {
    const result = resolveAdvancedRoll({ dice: 3, secondary: 7, mode: 'additive', halve: true, targetNumber: 10, modifier: 0, calm: false }, seededRng('d10-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'd10 advanced', options: { primary: 3, secondary: 7, mode: 'additive', halve: true, tn: 10 } }));
    expect(text).toContain(`${result.reading.natural} (dice) + 3 secondary skill (halved) = **${result.result}**`);
    expect(text).toContain('3d10 additive vs TN 10');
    const rollId = rollIdOf(text);
    expect((await storedRolls(1))[0]).toMatchObject({ kind: 'd10-advanced', system: 'd10-pool' });
    expect(textOf(await sandbox().one({ user: 'mike', command: 'roll replay', options: { id: rollId } }))).toContain('the dice match');
  });

  it('subtractive without a TN: the result stands on its own (e.g. a TN for allies)', async () => {
    const result = resolveAdvancedRoll({ dice: 2, secondary: 3, mode: 'subtractive', halve: false, targetNumber: null, modifier: 0, calm: false }, seededRng('d10-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'd10 advanced', options: { primary: 2, secondary: 3, mode: 'subtractive' } }));
    expect(text).toContain(`${result.reading.natural} (dice) − 3 secondary skill (subtracted) = **${result.result}**`);
    if (!result.reading.mishap) expect(text).toContain(`Result **${result.result}** (no TN: e.g. the TN your allies roll against).`);
    const refused = await sandbox().one({ user: 'mike', command: 'd10 advanced', options: { primary: 2, secondary: 3, mode: 'subtractive', halve: true } });
    expect(refused).toMatchObject({ ephemeral: true });
    expect(refused.content).toContain('Only an additive roll halves the secondary skill');
  });
});

/** The steps the bot will roll for this first input, one seed per step. */
function expectedSteps(first: CumulativeStepInput, seeds: string[]): CumulativeStepResult[] {
  const steps: CumulativeStepResult[] = [];
  let input = first;
  for (const seed of seeds) {
    const step = resolveCumulativeStep(input, seededRng(seed));
    steps.push(step);
    if (step.end) break;
    input = nextStepInput(step);
  }
  return steps;
}

describe('/d10 extended (a cumulative roll)', () => {
  const options = { dice: 2, tn: 8, target: 1000, rolls: 4, calm: true };
  const settings = { dice: 2, targetNumber: 8, modifier: 0, calm: true, target: 1000, count: null, maxRolls: 4 };

  it('grows one message roll by roll; only the roller may press Roll again; a restart loses nothing; the last roll ends it', async () => {
    const first = await sandbox().one({ user: 'mike', command: 'd10 extended', options });
    expect(first).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    const cumulativeId = /Cumulative roll (\w{8})/.exec(textOf(first))![1]!;
    const steps = expectedSteps({ ...settings, cumulativeId, step: 1, before: { total: 0, successes: 0 } }, ['d10-1', 'd10-2', 'd10-3', 'd10-4']);
    expect(steps.map((step) => step.end)).toEqual([null, null, null, 'out of rolls']);
    expect(textOf(first)).toContain(`**1.** ${dice(steps[0]!.roll.reading.faces)}`);
    expect(textOf(first)).toContain(`total **${steps[0]!.after.total} / 1000**`);
    expect(buttonsOf(first)).toEqual([expect.objectContaining({ custom_id: `d10:again:${cumulativeId}:2`, label: 'Roll again (2 of 4)' })]);
    const messageId = first.messageId!;

    // Someone else presses: refused privately, nothing rolled, the message unchanged.
    const intruder = await sandbox().one({ user: 'sasha', button: `d10:again:${cumulativeId}:2`, message: messageId });
    expect(intruder).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(intruder.content).toContain(`Only <@${sandbox().fake.user('mike').id}>, who started this cumulative roll, can roll again. Nothing was rolled.`);
    expect(await storedRolls()).toHaveLength(1);

    const second = await sandbox().one({ user: 'mike', button: `d10:again:${cumulativeId}:2`, message: messageId });
    expect(second).toMatchObject({ kind: 'update', allowedMentions: NO_PINGS });
    expect(textOf(second)).toContain(`**2.** ${dice(steps[1]!.roll.reading.faces)}`);
    expect(textOf(second)).toContain(`total **${steps[1]!.after.total} / 1000**`);
    expect(buttonsOf(second)[0]!.custom_id).toBe(`d10:again:${cumulativeId}:3`);

    // The bot restarts between two steps: the next press goes on from the roll log.
    await sandbox().restartBot();
    const third = await sandbox().one({ user: 'mike', button: `d10:again:${cumulativeId}:3`, message: messageId });
    expect(textOf(third)).toContain(`**1.** ${dice(steps[0]!.roll.reading.faces)}`);
    expect(textOf(third)).toContain(`**3.** ${dice(steps[2]!.roll.reading.faces)}`);
    expect(textOf(third)).toContain(`total **${steps[2]!.after.total} / 1000**`);

    const last = await sandbox().one({ user: 'mike', button: `d10:again:${cumulativeId}:4`, message: messageId });
    expect(textOf(last)).toContain('❌ **Out of rolls**: 4 rolls used and the goal not reached.');
    expect(last.components).toEqual([]);

    const rolls = await storedRolls();
    expect(rolls).toHaveLength(4);
    expect(rolls.every((roll) => roll.kind === 'd10-extended' && (roll.inputs as { cumulativeId: string }).cumulativeId === cumulativeId)).toBe(true);
    expect(rolls.map((roll) => roll.total)).toEqual(steps.map((step) => step.after.total).reverse());

    // Any step replays alone, with the running state it was rolled on.
    const stepTwoId = /\*\*2\.\*\*.*`(\w{8})`/.exec(textOf(last))![1]!;
    const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: stepTwoId } }));
    expect(replay).toContain(`Roll ${stepTwoId}: the dice match`);
    expect(replay).toContain(`Cumulative roll ${cumulativeId}, roll 2 of at most 4`);
    expect(replay).toContain(`Before: total ${steps[0]!.after.total}`);
  });

  it('ends when the count of successes is reached, and removes the button', async () => {
    const first = await sandbox().one({ user: 'mike', command: 'd10 extended', options: { dice: 3, tn: 2, count: 1, calm: true } });
    // Three d10 always read 2 or more, and TN 2: the first roll succeeds (solid above 3).
    expect(textOf(first)).toMatch(/✅ \*\*Successes reached\*\* in 1 roll\./);
    expect(first.components).toEqual([]);
    expect((await storedRolls(1))[0]).toMatchObject({ success: true });
  });

  it('two presses at once make the step once: one updates the message, the other is told privately', async () => {
    const first = await sandbox().one({ user: 'mike', command: 'd10 extended', options });
    const button = buttonsOf(first)[0]!.custom_id;
    const press = { user: 'mike', button, message: first.messageId! };
    const results = await Promise.all([sandbox().fake.interact(press), sandbox().fake.interact(press)]);
    for (const result of results) expect(result.errors).toEqual([]);
    const kinds = results.map((result) => result.responses.map((response) => response.kind)).sort();
    expect(kinds).toEqual([['reply'], ['update']]);
    const refusal = results.flatMap((result) => result.responses).find((response) => response.kind === 'reply')!;
    expect(refusal).toMatchObject({ ephemeral: true });
    expect(refusal.content).toMatch(/Roll 2 of this cumulative roll was already made \(`\w{8}`\)\. Nothing was rolled\./);
    expect(await storedRolls()).toHaveLength(2);
  });

  it('situations take one die from every roll, shown in the header', async () => {
    const first = await sandbox().one({ user: 'mike', command: 'd10 extended', options: { dice: 3, tn: 8, target: 1000, rolls: 2, situations: 'in the dark' } });
    const cumulativeId = /Cumulative roll (\w{8})/.exec(textOf(first))![1]!;
    const steps = expectedSteps({ ...settings, dice: 3, calm: false, maxRolls: 2, situations: ['in the dark'], cumulativeId, step: 1, before: { total: 0, successes: 0 } }, ['d10-1', 'd10-2']);
    expect(steps[0]!.roll.reading.faces).toHaveLength(2);
    expect(textOf(first)).toContain('dice 3 − 1 (in the dark) = 2 vs TN 8');
    expect(textOf(first)).toContain(`**1.** ${dice(steps[0]!.roll.reading.faces)}`);
    const second = await sandbox().one({ user: 'mike', button: `d10:again:${cumulativeId}:2`, message: first.messageId! });
    expect(textOf(second)).toContain(`**2.** ${dice(steps[1]!.roll.reading.faces)}`);
  });

  it('refuses a cumulative roll without a goal, or counting without a TN', async () => {
    const none = await sandbox().one({ user: 'mike', command: 'd10 extended', options: { dice: 3, tn: 8 } });
    expect(none.content).toContain('A cumulative roll needs a goal');
    const noTn = await sandbox().one({ user: 'mike', command: 'd10 extended', options: { dice: 3, count: 2 } });
    expect(noTn.content).toContain('add `tn`');
    expect(await storedRolls()).toEqual([]);
  });
});
