// /code (die codes and result points, RULES 3, seed 002) through the real bot and the fake Discord: quick checks,
// effect rolls, points spent on a condition track (the roller's button, once, across a restart), conceding a scene,
// its end with the action point, and spending action points.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/engine/rng.js';
import { codeCheckDice, concededResistance, pointsToSpend, resolveCodeCheck, type CodeCheckInput } from '../../src/engine/systems/result-points/check.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { codeCheckFromOptions } from '../../commands/code.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';
import { postedAs } from '../helpers/npc-voice.js';

const NO_PINGS = { parse: [] };
const sandbox = useTestSandbox({ seeds: ['code-1', 'code-2', 'code-3', 'code-4'] });

async function storedRolls(limit = 10): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox().url}/api/rolls?limit=${limit}`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}

/** What the bot will roll for these options and seed; `conceded` names a target who conceded the scene. */
function expected(options: Parameters<typeof codeCheckFromOptions>[0], seed: string, conceded?: string) {
  const input: CodeCheckInput = codeCheckFromOptions(options);
  if (conceded) input.against = concededResistance(input.against, conceded);
  return resolveCodeCheck(input, seededRng(seed));
}

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };

function buttonsOf(response: SandboxResponse): Array<{ custom_id: string; label: string }> {
  // The Roll again row every typed roll carries is test/e2e/roll-again.test.ts's; these tests read the command's own.
  return ((response.components ?? []) as Array<{ components: Array<{ custom_id: string; label: string }> }>).flatMap((row) => row.components).filter((button) => !button.custom_id.startsWith('roll:'));
}

/** A player's sheet with the given attributes (tracks are attributes named "<name> track"). */
async function sheet(user: string, name: string, attributes: Record<string, number> = {}): Promise<void> {
  await sandbox().one({ user, command: 'sheet create', options: { name, system: 'result-points' } });
  for (const [attribute, value] of Object.entries(attributes)) await sandbox().one({ user, command: 'sheet attribute set', options: { name: attribute, value } });
}

const dice = (faces: number[]) => `\`${faces.map((face) => `[${face}]`).join('')}\``;
const rollIdOf = (text: string) => /Roll (\w{8})/.exec(text)![1]!;

describe('/code roll', () => {
  it('against a named difficulty: every die, the pips, the difficulty, the result points and the verdict; stored and replayable', async () => {
    const result = expected({ code: '3D+2', difficulty: 'moderate' }, 'code-1');
    const reply = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '3D+2', difficulty: 'moderate' } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    const text = textOf(reply);
    expect(text).toContain(`🎲 3D+2: ${dice(result.roll.dice)} + 2 = ${result.roll.total}`);
    expect(text).toContain('Difficulty **Moderate (13)**: the middle of its band, 11–15');
    expect(text).toContain(`Result points ${result.total} − 13 = **${result.total - 13}**`);
    expect(text).toContain(result.success ? `success, **${result.effectiveness!.name}**` : '0 or less, **failure**');
    expect(text).toMatch(/Chance of success: \d+(\.\d)?%/);
    const rollId = rollIdOf(text);
    const [stored] = await storedRolls(1);
    expect(stored).toMatchObject({ id: rollId, kind: 'code', system: 'result-points', seed: 'code-1', dice: { roll: result.roll.dice, boosts: [], penalties: [], opponent: null }, total: result.total, challengeLevel: 13, success: result.success });

    const replay = await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } });
    expect(textOf(replay)).toContain(`Roll ${rollId}: the dice match`);
    expect(textOf(replay)).toContain(`${dice(result.roll.dice)} + 2 = ${result.roll.total}`);
  });

  it('a check stored when a named difficulty meant the top of its band replays with its stored number', async () => {
    // Stored before named difficulties took the middle of their band: Moderate was 15.
    const inputs: CodeCheckInput = { code: { dice: 3, pips: 2 }, boost: [], penalty: [], against: { kind: 'difficulty', value: 15, name: 'Moderate' } };
    const result = resolveCodeCheck(inputs, seededRng('old-moderate'));
    const rollId = await sandbox().bot.store.rolls.record({
      guildId: sandbox().fake.guildId,
      channelId: sandbox().fake.channelId,
      userId: sandbox().fake.user('mike').id,
      kind: 'code',
      system: 'result-points',
      inputs,
      seed: 'old-moderate',
      dice: codeCheckDice(result),
      result,
      total: result.total,
      challengeLevel: 15,
      success: result.success,
    });
    const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain(`Roll ${rollId}: the dice match`);
    expect(replay).toContain('vs difficulty Moderate (15)');
    expect(replay).toContain('Difficulty **Moderate (15)**: the top of its band, 11–15, as a named difficulty was read when this was rolled');
    expect(replay).toContain(`Result points ${result.total} − 15 = **${result.total - 15}**`);
  });

  it('a standing check reads the total on the effectiveness table', async () => {
    const result = expected({ code: '4D' }, 'code-1');
    const text = textOf(await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '4d' } }));
    expect(text).toContain(`🎲 4D: ${dice(result.roll.dice)} = ${result.total}`);
    expect(text).toContain(`Result points **${result.total}** → **${result.effectiveness!.name}**`);
    expect(text).toContain('Chance of an effect: 100%');
  });

  it('against a fixed resistance: 3D+2 resists with 3 × 3 + 2 = 11, and nothing is rolled for it', async () => {
    const result = expected({ code: '4D', resistance: '3D+2' }, 'code-1');
    const text = textOf(await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '4D', resistance: '3D+2' } }));
    expect(text).toContain('Fixed resistance 3D+2 = 3 × 3 + 2 = **11**');
    expect(text).toContain(`Result points ${result.total} − 11 = **${result.total - 11}**`);
    const [stored] = await storedRolls(1);
    expect((stored!.dice as { opponent: unknown }).opponent).toBeNull();
  });

  it('against an active opponent with helpers: boost and penalty dice shown and summed, the opponent rolled', async () => {
    const options = { code: '3D+1', opponent: '4D+1', boost: '2D+1, 1D', penalty: '1D' };
    const result = expected(options, 'code-1');
    const reply = await sandbox().one({ user: 'mike', command: 'code roll', options });
    const text = textOf(reply);
    expect(text).toContain(`➕ Boost 2D+1: ${dice(result.boosts[0]!.dice)} + 1 = ${result.boosts[0]!.total}`);
    expect(text).toContain(`➕ Boost 1D: ${dice(result.boosts[1]!.dice)} = ${result.boosts[1]!.total}`);
    expect(text).toContain(`➖ Penalty 1D: ${dice(result.penalties[0]!.dice)} = ${result.penalties[0]!.total}`);
    expect(text).toContain(`Total ${result.roll.total} + ${result.boosts[0]!.total} + ${result.boosts[1]!.total} − ${result.penalties[0]!.total} = **${result.total}**`);
    expect(text).toContain(`Opponent rolls 4D+1: ${dice(result.opponent!.dice)} + 1 = ${result.opponent!.total} → **${result.opponent!.total}**`);
    const replay = await sandbox().one({ user: 'mike', command: 'roll replay', options: { id: rollIdOf(text) } });
    expect(textOf(replay)).toContain('the dice match');
    expect(textOf(replay)).toContain(`Opponent rolls 4D+1: ${dice(result.opponent!.dice)}`);
  });

  it('refuses bad input privately and stores nothing', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ code: '3D+2', difficulty: 'easy', opponent: '3D' }, 'Give only one of `difficulty`, `resistance` (fixed) and `opponent`'],
      [{ code: '3d6' }, 'is not a die code'],
      [{ code: '3D', difficulty: 'hard' }, 'is not a difficulty'],
      [{ code: '3D', difficulty: '0' }, 'from 1 to 99'],
      [{ code: '3D', resistance: 'lots' }, 'not a die code'],
      [{ code: '30D', boost: '30D', opponent: '1D' }, 'at most 60'],
    ];
    for (const [options, message] of cases) {
      const reply = await sandbox().one({ user: 'mike', command: 'code roll', options });
      expect(reply, JSON.stringify(options)).toMatchObject({ kind: 'reply', ephemeral: true });
      expect(reply.content).toContain(message);
    }
    expect(await storedRolls()).toEqual([]);
  });

  it('autocompletes difficulty names with their values, and a typed number as itself', async () => {
    const names = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '3D', difficulty: 'diff' }, focused: 'difficulty' });
    expect(names.choices).toEqual([
      { name: 'Difficult (18; 16–20)', value: 'difficult' },
      { name: 'Very Difficult (23; 21–25)', value: 'very difficult' },
    ]);
    const number = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '3D', difficulty: '12' }, focused: 'difficulty' });
    expect(number.choices).toEqual([{ name: '12', value: '12' }]);
  });
});

describe('/code roll: the effect roll', () => {
  it('a success is followed by the effect roll, shown, stored with the dice and replayed', async () => {
    const options = { code: '6D+2', difficulty: 'very easy', effect: '2D+1' };
    const result = expected(options, 'code-1');
    expect(result.success).toBe(true);
    const text = textOf(await sandbox().one({ user: 'mike', command: 'code roll', options }));
    expect(text).toContain(`💥 Effect roll 2D+1: ${dice(result.effect!.dice)} + 1 = ${result.effect!.total}`);
    const [stored] = await storedRolls(1);
    expect(stored).toMatchObject({ kind: 'code', dice: { roll: result.roll.dice, opponent: null, effect: result.effect!.dice } });
    const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollIdOf(text) } }));
    expect(replay).toContain('the dice match');
    expect(replay).toContain(`💥 Effect roll 2D+1: ${dice(result.effect!.dice)}`);
  });

  it('a failure throws no effect roll', async () => {
    const text = textOf(await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '1D', difficulty: 'heroic', effect: '3D' } }));
    expect(text).toContain('💥 Effect roll 3D: not rolled, the check did not succeed');
    expect((await storedRolls(1))[0]).toMatchObject({ dice: { effect: null } });
  });
});

/** A die-code sheet for `user` with these abilities, each set by its rank with /code ability. */
async function withAbilities(user: string, name: string, abilities: Record<string, string>): Promise<void> {
  await sheet(user, name);
  for (const [ability, code] of Object.entries(abilities)) {
    const set = await sandbox().one({ user, command: 'code ability', options: { name: ability, code } });
    expect(set).toMatchObject({ kind: 'reply', ephemeral: true });
  }
}

describe('/code rolls from the sheet (abilities by name)', () => {
  it('code:Blaster rolls the rank of the active sheet’s Blaster, names Kat, and is stored and replayed with it', async () => {
    await sheet('sasha', 'Kat');
    const set = await sandbox().one({ user: 'sasha', command: 'code ability', options: { name: 'Blaster', code: '3D+2' } });
    expect(set.content).toBe('**Kat** now has **Blaster** **3D+2** (kept as its fixed value, 11).');
    const result = resolveCodeCheck({ code: { dice: 3, pips: 2 }, boost: [], penalty: [], against: { kind: 'difficulty', value: 13, name: 'Moderate' } }, seededRng('code-1'));
    const text = textOf(await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'blaster', difficulty: 'moderate' } }));
    expect(text).toMatch(/^\*\*Kat\*\*$/m);
    expect(text).toContain('Blaster 3D+2 vs difficulty Moderate (13)');
    expect(text).toContain(`🎲 Blaster 3D+2: ${dice(result.roll.dice)} + 2 = ${result.roll.total}`);
    expect(text).toContain(`Result points ${result.total} − 13 = **${result.total - 13}**`);
    const [stored] = await storedRolls(1);
    expect(stored).toMatchObject({ kind: 'code', dice: { roll: result.roll.dice }, inputs: { code: { dice: 3, pips: 2 }, ability: 'Blaster', roller: { name: 'Kat' } } });
    const replay = textOf(await sandbox().one({ user: 'mike', command: 'roll replay', options: { id: rollIdOf(text) } }));
    expect(replay).toContain('the dice match');
    expect(replay).toContain(`🎲 Blaster 3D+2: ${dice(result.roll.dice)}`);

    const again = await sandbox().one({ user: 'sasha', command: 'code ability', options: { name: 'blaster', code: '4D' } });
    expect(again.content).toBe('**Kat**: **blaster** 3D+2 → **4D** (kept as its fixed value, 12).');
  });

  it('resistance and opponent take the target’s ability: its fixed value, or its rank rolled', async () => {
    await withAbilities('sasha', 'Kat', { Blaster: '3D+2' });
    await withAbilities('mike', 'Troy', { Dodge: '4D+1' });
    const fixed = textOf(await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'Blaster', target: 'mike', resistance: 'dodge' } }));
    expect(fixed).toContain('Blaster 3D+2 vs fixed resistance 13 (Dodge 4D+1)');
    expect(fixed).toContain('Fixed resistance Dodge 4D+1 = 3 × 4 + 1 = **13**');
    expect(fixed).toContain('🎯 Against Troy');

    const result = resolveCodeCheck({ code: { dice: 3, pips: 2 }, boost: [], penalty: [], against: { kind: 'active', code: { dice: 4, pips: 1 } } }, seededRng('code-2'));
    const active = textOf(await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'Blaster', target: 'mike', opponent: 'Dodge' } }));
    expect(active).toContain('Blaster 3D+2 vs active resistance Dodge 4D+1');
    expect(active).toContain(`Opponent rolls Dodge 4D+1: ${dice(result.opponent!.dice)} + 1 = ${result.opponent!.total} → **${result.opponent!.total}**`);
    expect((await storedRolls(1))[0]).toMatchObject({ inputs: { against: { kind: 'active', code: { dice: 4, pips: 1 }, ability: 'Dodge' } }, dice: { opponent: result.opponent!.dice } });
    expect(textOf(await sandbox().one({ user: 'mike', command: 'roll replay', options: { id: rollIdOf(active) } }))).toContain('the dice match');
  });

  it('a name not on the sheet, a name without a sheet, a target’s ability without a target and a rank of 3 pips are refused; nothing is stored', async () => {
    const noSheet = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'Blaster' } });
    expect(noSheet).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(noSheet.content).toContain('is not a die code');
    expect(noSheet.content).toContain('Nor is **Blaster** an ability: you have no die-code sheet to read one from.');
    await withAbilities('sasha', 'Kat', { Blaster: '3D+2' });
    const typo = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'Blastr' } });
    expect(typo.content).toContain('Kat has no ability named **Blastr** for die code. Did you mean Blaster 3D+2?');
    const noTarget = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'Blaster', resistance: 'Dodge' } });
    expect(noTarget.content).toContain('To resist with an ability (**Dodge**), name whose it is: `target` (a member) or `target_npc`');
    const pips = await sandbox().one({ user: 'sasha', command: 'code ability', options: { name: 'Stealth', code: '3D+3' } });
    expect(pips).toMatchObject({ ephemeral: true });
    expect(pips.content).toContain('3D+3 is not one; the rank of the same fixed value is 4D');
    expect(await storedRolls()).toEqual([]);
  });

  it('autocompletes code with the roller’s abilities, resistance and opponent with the target’s, and a die code typed as itself', async () => {
    const none = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: '' }, focused: 'code' });
    expect((none.choices as Array<{ name: string }>)[0]!.name).toContain('No Die codes and result points sheet yet');
    await withAbilities('sasha', 'Kat', { Blaster: '3D+2', Brawling: '2D' });
    await withAbilities('mike', 'Troy', { Dodge: '4D+1' });
    const own = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'b' }, focused: 'code' });
    expect(own.choices).toEqual([
      { name: 'Blaster 3D+2', value: 'Blaster' },
      { name: 'Brawling 2D', value: 'Brawling' },
    ]);
    const typed = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: '5D+1' }, focused: 'code' });
    expect(typed.choices).toEqual([{ name: '5D+1', value: '5D+1' }]);
    const resistance = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'Blaster', target: 'mike', resistance: '' }, focused: 'resistance' });
    expect(resistance.choices).toEqual([{ name: 'Dodge 4D+1 (fixed 13)', value: 'Dodge' }]);
    const opponent = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'Blaster', target: 'mike', opponent: 'do' }, focused: 'opponent' });
    expect(opponent.choices).toEqual([{ name: 'Dodge 4D+1', value: 'Dodge' }]);
    const noTarget = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'Blaster', opponent: '' }, focused: 'opponent' });
    expect(noTarget.choices).toEqual([]);
  });

  it('a Dispatcher gives an NPC an ability and rolls it with as_npc; /code status lists abilities; /sheet skill set takes the fixed value', async () => {
    await sandbox().one({ ...DISPATCHER, command: 'npc create', options: { name: 'Sectoid', system: 'result-points' } });
    expect((await sandbox().one({ user: 'mike', command: 'code ability', options: { name: 'Claws', code: '5D', npc: 'Sectoid' } })).ephemeral).toBe(true);
    expect((await sandbox().one({ ...DISPATCHER, command: 'code ability', options: { name: 'Claws', code: '5D', npc: 'Sectoid' } })).content).toBe('**Sectoid** now has **Claws** **5D** (kept as its fixed value, 15).');
    // Posted under the NPC's name through the channel's webhook.
    const claws = textOf(postedAs(sandbox(), await sandbox().one({ ...DISPATCHER, command: 'code roll', options: { code: 'claws', as_npc: 'Sectoid' } }), 'Sectoid'));
    expect(claws).toMatch(/^\*\*Sectoid\*\*$/m);
    expect(claws).toContain('🎲 Claws 5D: ');
    expect((await storedRolls(1))[0]).toMatchObject({ npc: 'Sectoid', inputs: { ability: 'Claws' } });

    await withAbilities('sasha', 'Kat', { Blaster: '3D+2' });
    await sandbox().one({ user: 'sasha', command: 'sheet skill set', options: { name: 'Stealth', level: 7 } });
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'code status' }))).toContain('Abilities: Blaster 3D+2 · Stealth 2D+1');
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: 'stealth' } }))).toContain('🎲 Stealth 2D+1: ');
    const notARank = await sandbox().one({ user: 'sasha', command: 'sheet skill set', options: { name: 'Luck', level: 2 } });
    expect(notARank.content).toContain('Luck takes a skill level from 3 to 92');
  });
});

describe('/code roll: points spent on a condition track', () => {
  it('the roller spends the points on the target track with a button, once, across a restart; the track persists', async () => {
    await sheet('sasha', 'Kat');
    expect((await sandbox().one({ user: 'sasha', command: 'code track', options: { name: 'Wounds' } })).content).toContain('**Kat** now has a Wounds track: Wounds 0.');
    // 6D+2 against an opponent's 1D always succeeds (8 or more against 6 at most).
    const options = { code: '6D+2', opponent: '1D' };
    const result = expected(options, 'code-1');
    const amount = pointsToSpend(result);
    const reply = await sandbox().one({ user: 'mike', command: 'code roll', options: { ...options, target: 'sasha', track: 'wounds' } });
    const rollId = rollIdOf(textOf(reply));
    expect(textOf(reply)).toContain('🎯 Against Kat: Wounds 0');
    expect(buttonsOf(reply)).toEqual([expect.objectContaining({ custom_id: `code:spend:${rollId}`, label: `Spend ${amount} on Kat's Wounds` })]);

    const intruder = await sandbox().one({ user: 'sasha', button: `code:spend:${rollId}`, message: reply.messageId! });
    expect(intruder).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(intruder.content).toContain('who rolled this check, can spend its points. Nothing was changed.');

    await sandbox().restartBot();
    const spent = await sandbox().one({ user: 'mike', button: `code:spend:${rollId}`, message: reply.messageId! });
    expect(spent).toMatchObject({ kind: 'update', allowedMentions: NO_PINGS });
    // Its own button is gone; the roll's Roll again stays.
    expect(buttonsOf(spent)).toEqual([]);
    expect(JSON.stringify(spent.components)).toContain(`roll:again:${rollId}`);
    expect(textOf(spent)).toContain(`✅ Spent **${amount}** on Kat's Wounds 0 → **${amount}**`);
    await expect(sandbox().fake.interact({ user: 'mike', button: `code:spend:${rollId}`, message: reply.messageId! })).rejects.toThrow(/has no component/);

    expect(textOf(await sandbox().one({ user: 'sasha', command: 'code status' }))).toContain(`Condition tracks: Wounds ${amount}`);
    const marker = (await storedRolls(1))[0]!;
    expect(marker).toMatchObject({ kind: 'code-spend', total: amount });
    const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: marker.id as string } }));
    expect(replay).toContain(`Roll ${marker.id as string}: the dice match`);
  });

  it('two presses at once spend the points once', async () => {
    await sheet('sasha', 'Kat', { 'Wounds track': 0 });
    const reply = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '6D+2', opponent: '1D', target: 'sasha', track: 'Wounds' } });
    const amount = Number(/Spend (\d+)/.exec(buttonsOf(reply)[0]!.label)![1]);
    const press = { user: 'mike', button: buttonsOf(reply)[0]!.custom_id, message: reply.messageId! };
    const results = await Promise.all([sandbox().fake.interact(press), sandbox().fake.interact(press)]);
    for (const result of results) expect(result.errors).toEqual([]);
    expect(results.map((result) => result.responses.map((response) => response.kind)).sort()).toEqual([['reply'], ['update']]);
    expect(results.flatMap((result) => result.responses).find((response) => response.kind === 'reply')!.content).toContain("This check's points were already spent");
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'code status' }))).toContain(`Wounds ${amount}`);
  });

  it('a track at Overwhelming (26) takes its character out of action until it is lowered; the track shows on their checks', async () => {
    await sheet('sasha', 'Kat', { 'Wounds track': 20 });
    const reply = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '6D+2', resistance: '1D', target: 'sasha', track: 'Wounds' } });
    const amount = Number(/Spend (\d+)/.exec(buttonsOf(reply)[0]!.label)![1]);
    expect(amount).toBeGreaterThanOrEqual(6); // 6D+2 (8 or more) against a fixed 3
    const spent = textOf(await sandbox().one({ user: 'mike', button: buttonsOf(reply)[0]!.custom_id, message: reply.messageId! }));
    expect(spent).toContain(`Kat's Wounds 20 → **${20 + amount}** (Overwhelming): **out of action** (26 or more)`);

    const refused = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: '3D' } });
    expect(refused).toMatchObject({ ephemeral: true });
    expect(refused.content).toContain(`Kat is out of action: Wounds ${20 + amount}`);
    const lowered = await sandbox().one({ user: 'sasha', command: 'code track', options: { name: 'Wounds', points: 7 } });
    expect(lowered.content).toContain(`**Kat**: Wounds ${20 + amount} → **7** (Adequate)`);
    const check = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: '3D' } });
    expect(textOf(check)).toContain('📋 Kat: Wounds 7 (Adequate)');
  });

  it('refuses a track the target does not have, or a track without a target, and rolls nothing', async () => {
    await sheet('sasha', 'Kat');
    const missing = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '3D', target: 'sasha', track: 'Fatigue' } });
    expect(missing).toMatchObject({ ephemeral: true });
    expect(missing.content).toContain('Kat has no Fatigue track. Add it first: `/code track name:Fatigue`');
    const alone = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '3D', track: 'Wounds' } });
    expect(alone.content).toContain('name them too, with `target`');
    const npc = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '3D', target_npc: 'Sectoid' } });
    expect(npc.content).toContain('Dispatcher');
    expect(await storedRolls()).toEqual([]);
  });

  it("a failure offers no button; only a Dispatcher changes another player's track", async () => {
    await sheet('sasha', 'Kat', { 'Wounds track': 3 });
    const failed = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '1D', difficulty: 'heroic', target: 'sasha', track: 'Wounds' } });
    expect(buttonsOf(failed)).toEqual([]);
    expect(textOf(failed)).toContain('Nothing to spend on Wounds: the check did not succeed.');
    const player = await sandbox().one({ user: 'mike', command: 'code track', options: { name: 'Wounds', points: 0, player: 'sasha' } });
    expect(player).toMatchObject({ ephemeral: true });
    const dispatcher = await sandbox().one({ ...DISPATCHER, command: 'code track', options: { name: 'Wounds', points: 0, player: 'sasha' } });
    expect(dispatcher.content).toContain('**Kat**: Wounds 3 → **0**');
  });

  it("autocompletes the target's tracks with their points", async () => {
    await sheet('sasha', 'Kat', { 'Wounds track': 4, 'Stress track': 0, Health: 10 });
    const choices = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '3D', target: 'sasha', track: '' }, focused: 'track' });
    expect(choices.choices).toEqual([
      { name: 'Stress (0)', value: 'Stress' },
      { name: 'Wounds (4)', value: 'Wounds' },
    ]);
  });
});

describe('/code concede and /code scene-end', () => {
  it('a player who concedes takes no more actions, resists only with fixed values, and gets an action point when the scene ends', async () => {
    await sheet('sasha', 'Kat');
    const conceded = await sandbox().one({ user: 'sasha', command: 'code concede' });
    expect(conceded).toMatchObject({ ephemeral: false, allowedMentions: NO_PINGS });
    expect(conceded.content).toContain('🏳️ **Kat** concedes scene 1 of this channel: takes no more actions in it and resists only with fixed values; an action point comes when a Dispatcher ends the scene.');
    expect((await sandbox().one({ user: 'sasha', command: 'code concede' })).content).toContain('**Kat** has already conceded');
    const conceding = await sandbox().one({ user: 'sasha', command: 'code status' });
    expect(conceding).toMatchObject({ ephemeral: true });
    expect(textOf(conceding)).toContain('**Conceded** the scene: takes no more actions and resists only with fixed values until it ends; then gains an action point.');

    // "their character may take no more actions"
    const acting = await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: '3D' } });
    expect(acting).toMatchObject({ ephemeral: true });
    expect(acting.content).toContain('Kat conceded this scene and may take no more actions');

    // "If a character acts against an opponent who has conceded, that opponent can only use fixed resistance values."
    await sandbox().restartBot();
    const options = { code: '4D', opponent: '3D+1' };
    const result = expected(options, 'code-1', 'Kat');
    const against = textOf(await sandbox().one({ user: 'mike', command: 'code roll', options: { ...options, target: 'sasha' } }));
    expect(against).toContain('Fixed resistance 3D+1 = 3 × 3 + 1 = **10**: Kat conceded the scene, so resists only with fixed values (nothing rolled)');
    expect(against).toContain(`Result points ${result.total} − 10 = **${result.total - 10}**`);
    expect((await storedRolls(1))[0]).toMatchObject({ challengeLevel: 10, dice: { opponent: null } });

    const player = await sandbox().one({ user: 'mike', command: 'code scene-end' });
    expect(player).toMatchObject({ ephemeral: true });
    const ended = await sandbox().one({ ...DISPATCHER, command: 'code scene-end' });
    expect(textOf(ended)).toContain('🎬 Scene 1 of this channel ends');
    expect(textOf(ended)).toContain('**Kat** conceded: action points 0 → **1**');
    expect(textOf(ended)).toContain('Scene 2 begins.');

    const status = textOf(await sandbox().one({ user: 'sasha', command: 'code status' }));
    expect(status).toContain('Action points: **1**');
    expect(status).not.toContain('Conceded');
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'code roll', options: { code: '3D' } }))).toContain('🎲 3D');

    const next = textOf(await sandbox().one({ ...DISPATCHER, command: 'code scene-end' }));
    expect(next).toContain('🎬 Scene 2 of this channel ends');
    expect(next).toContain('Nobody conceded.');
    // A concession is in the roll log and replays as recorded.
    const concession = (await storedRolls(20)).find((roll) => roll.kind === 'code-scene' && (roll.inputs as { event: string }).event === 'concede')!;
    expect(textOf(await sandbox().one({ ...DISPATCHER, command: 'roll replay', options: { id: concession.id as string } }))).toContain('Kat conceded. No dice.');
  });

  it('an NPC concedes for a Dispatcher only and earns no action point; players conceding at once each get theirs', async () => {
    await sandbox().one({ ...DISPATCHER, command: 'npc create', options: { name: 'Sectoid', system: 'result-points' } });
    expect((await sandbox().one({ user: 'mike', command: 'code concede', options: { npc: 'Sectoid' } })).ephemeral).toBe(true);
    expect((await sandbox().one({ ...DISPATCHER, command: 'code concede', options: { npc: 'Sectoid' } })).content).toContain('🏳️ **Sectoid** concedes scene 1 of this channel: takes no more actions in it and resists only with fixed values.');
    // The conceded NPC cannot act, even for a Dispatcher.
    expect((await sandbox().one({ ...DISPATCHER, command: 'code roll', options: { code: '3D', as_npc: 'Sectoid' } })).content).toContain('Sectoid conceded this scene');

    await sheet('sasha', 'Kat');
    await sheet('mike', 'Troy');
    const both = await Promise.all(['sasha', 'mike'].map((user) => sandbox().fake.interact({ user, command: 'code concede' })));
    for (const answer of both) expect(answer.responses[0]!.content).toContain('concedes scene 1');
    const ended = textOf(await sandbox().one({ ...DISPATCHER, command: 'code scene-end' }));
    expect(ended).toContain('**Sectoid** (NPC) conceded');
    expect(ended).toContain('**Kat** conceded: action points 0 → **1**');
    expect(ended).toContain('**Troy** conceded: action points 0 → **1**');
  });
});

describe('/code concede racing /code scene-end', () => {
  it('a concession made while the scene ends is settled once: never lost, never counted twice', async () => {
    await sheet('sasha', 'Kat');
    const actionPoints = async () => {
      const status = textOf(await sandbox().one({ user: 'sasha', command: 'code status' }));
      return { points: Number(/Action points: \*\*(\d+)\*\*/.exec(status)![1]), conceded: status.includes('**Conceded**') };
    };
    for (let trial = 0; trial < 8; trial++) {
      const before = trial;
      const answers = await Promise.all([sandbox().fake.interact({ user: 'sasha', command: 'code concede' }), sandbox().fake.interact({ ...DISPATCHER, command: 'code scene-end' })]);
      for (const answer of answers) expect(answer.errors).toEqual([]);
      const after = await actionPoints();
      if (after.conceded) {
        // The concession landed in the next scene: it is still pending, and ending that scene pays it.
        expect(after.points, `trial ${trial}`).toBe(before);
        await sandbox().one({ ...DISPATCHER, command: 'code scene-end' });
      }
      expect((await actionPoints()).points, `trial ${trial}`).toBe(before + 1);
    }
  });
});

describe('/code action-point', () => {
  it('spends one action point, never below 0', async () => {
    await sheet('sasha', 'Kat', { 'Action points': 1 });
    const spent = await sandbox().one({ user: 'sasha', command: 'code action-point', options: { reason: 'a **daring** leap @everyone' } });
    expect(spent).toMatchObject({ ephemeral: false, allowedMentions: NO_PINGS });
    expect(spent.content).toContain('⚡ **Kat** spends an action point: a \\*\\*daring\\*\\* leap @everyone. Action points 1 → **0**.');
    const none = await sandbox().one({ user: 'sasha', command: 'code action-point' });
    expect(none).toMatchObject({ ephemeral: true });
    expect(none.content).toContain('**Kat** has no action points. A player earns one by conceding a scene');
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'code status' }))).toContain('Action points: **0**');
  });
});
