// /tactics (d100 roll-under with tactical attacks, RULES 2, seed 001) through the real bot and the fake Discord:
// checks, damage, attacks with the Apply damage button (attacker only, once, across a restart), Psi, replays.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/engine/rng.js';
import { attackDice, resolveAttack, resolveCheck, resolvePsi, resolveReaction, resolveSocial, rollDamage } from '../../src/engine/systems/d100-tactics/tactics.js';
import { attackInput } from '../helpers/attack-input.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';
import { postedAs } from '../helpers/npc-voice.js';

const NO_PINGS = { parse: [] };
const sandbox = useTestSandbox({ seeds: ['t-1', 't-2', 't-3', 't-4', 't-5', 't-6'] });

async function storedRolls(limit = 10): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox().url}/api/rolls?limit=${limit}`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}
const rollIdOf = (text: string) => /Roll (\w{8})/.exec(text)![1]!;
const d100Text = (d: { tens: number; ones: number; value: number }) => `\`[${d.tens}][${d.ones}] → ${d.value}\``;

async function sheet(user: string, name: string, attributes: Record<string, number>): Promise<void> {
  await sandbox().one({ user, command: 'sheet create', options: { name, system: 'd100-tactics' } });
  for (const [attribute, value] of Object.entries(attributes)) await sandbox().one({ user, command: 'sheet attribute set', options: { name: attribute, value } });
}

function buttonsOf(response: SandboxResponse): Array<{ custom_id: string; label: string }> {
  // The Roll again row every typed roll carries is test/e2e/roll-again.test.ts's; these tests read the command's own.
  return (response.components as Array<{ components: Array<{ custom_id: string; label: string }> }>).flatMap((row) => row.components).filter((button) => !button.custom_id.startsWith('roll:'));
}

async function replayMatches(rollId: string): Promise<string> {
  const text = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } }));
  expect(text).toContain(`Roll ${rollId}: the dice match`);
  return text;
}

describe('/tactics check', () => {
  it('d100 ≤ attribute + modifier: both dice, the target, the verdict and the exact chance; stored; replays', async () => {
    await sheet('mike', 'Mike', { Aim: 65 });
    const expected = resolveCheck({ attribute: { name: 'Aim', value: 65 }, modifiers: [{ name: 'modifier', value: -10 }] }, seededRng('t-1'));
    const reply = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'aim', modifier: -10 } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    const text = textOf(reply);
    expect(text).toContain('Target: 65 Aim − 10 modifier = **55**');
    expect(text).toContain(`🎲 ${d100Text(expected.d100)} ${expected.success ? '≤' : '>'} 55: **${expected.success ? 'success' : 'failure'}** (chance 55%)`);
    const rollId = rollIdOf(text);
    expect((await storedRolls(1))[0]).toMatchObject({ id: rollId, kind: 'check', system: 'd100-tactics', seed: 't-1', total: expected.d100.value, challengeLevel: 55, success: expected.success });
    expect(await replayMatches(rollId)).toContain('Target: 65 Aim − 10 modifier = **55**');
  });

  it('a seed attribute not on the sheet is 0; Health cannot be checked; an unknown one is a private error', async () => {
    await sheet('mike', 'Mike', { Aim: 65, Stealth: 30 });
    expect(textOf(await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Crit' } }))).toContain('Target: 0 Crit = **0**');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'stealth' } }))).toContain('Target: 30 Stealth = **30**');
    const health = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Health' } });
    expect(health).toMatchObject({ ephemeral: true });
    expect(health.content).toContain('Health is never checked');
    const unknown = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Stelth' } });
    expect(unknown).toMatchObject({ ephemeral: true });
    expect(await storedRolls()).toHaveLength(2);
  });

  it('a target below 0 is a plain check that cannot succeed: rolled, a failure at 0 %, stored and replayed (Aim 70 − 71, Will −300, Tech 20 − 100, Dodge −1)', async () => {
    await sheet('mike', 'Mike', { Aim: 70, Will: -300, Tech: 20, Dodge: -1 });
    const checks: Array<[Record<string, unknown>, string]> = [
      [{ attribute: 'Aim', modifier: -71 }, 'Target: 70 Aim − 71 modifier = **-1**'],
      [{ attribute: 'Will' }, 'Target: -300 Will = **-300**'],
      [{ attribute: 'Tech', modifier: -100 }, 'Target: 20 Tech − 100 modifier = **-80**'],
      [{ attribute: 'Dodge' }, 'Target: -1 Dodge = **-1**'],
    ];
    for (const [index, [options, target]] of checks.entries()) {
      const reply = await sandbox().one({ user: 'mike', command: 'tactics check', options });
      expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
      const text = textOf(reply);
      expect(text).toContain(`Mike: ${options.attribute} check, failure`);
      expect(text).toContain(target);
      expect(text).toMatch(/\*\*failure\*\* \(chance 0%\)/);
      expect(text).toContain('A target below 1 cannot succeed.');
      expect(text).not.toContain('cannot be used');
      expect((await storedRolls(1))[0]).toMatchObject({ kind: 'check', seed: `t-${index + 1}`, success: false });
      await replayMatches(rollIdOf(text));
    }
  });
});

describe('/tactics damage', () => {
  it('base + the range die, stored and replayed; a range outside 2–6 is a clear private error', async () => {
    const expected = rollDamage({ base: 5, range: 4 }, seededRng('t-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics damage', options: { base: 5, range: 4 } }));
    expect(text).toContain(`Damage range 4: d12 \`[${expected.face}]\` ÷ 3 → ${expected.roll}`);
    expect(text).toContain(`5 base + ${expected.roll} roll = **${expected.total}**`);
    const rollId = rollIdOf(text);
    expect((await storedRolls(1))[0]).toMatchObject({ kind: 'damage', dice: [expected.face], total: expected.total });
    await replayMatches(rollId);
    const bad = await sandbox().one({ user: 'mike', command: 'tactics damage', options: { base: 5, range: 7 } });
    expect(bad).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(bad.content).toContain('There is no damage range 7: the damage table has ranges 2, 3, 4, 5 and 6.');
    expect(await storedRolls()).toHaveLength(1);
  });
});

describe('/tactics attack', () => {

  it('shows each step from both sheets; stored and replayed identically', async () => {
    await sheet('mike', 'Mike', { Aim: 70, Crit: 20 });
    await sheet('sasha', 'Sasha', { Defense: 10, Dodge: 25, Armor: 1, Health: 12 });
    const expected = resolveAttack(attackInput({}), seededRng('t-1'));
    const reply = await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 4, weapon_range: 3, cover: 'half' } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    const text = textOf(reply);
    expect(text).toContain('1. Defense\n10 Defense + 20 half cover = **30**');
    expect(text).toContain('2. Target value\n70 Aim − 30 defense = **40**');
    expect(text).toContain(`3. Aim check\n🎲 ${d100Text(expected.aim.d100)}`);
    if (expected.dodge) expect(text).toContain(`Dodge 25 Dodge = **25**: 🎲 ${d100Text(expected.dodge.d100)}`);
    if (expected.damage) expect(text).toContain(`→ **${expected.damage.final} damage**`);
    const rollId = rollIdOf(text);
    expect((await storedRolls(1))[0]).toMatchObject({ kind: 'attack', system: 'd100-tactics', total: expected.damage?.final ?? 0, challengeLevel: 40, success: expected.damage !== null });
    const replay = await replayMatches(rollId);
    expect(replay).toContain('10 Defense + 20 half cover = **30**');
  });

  it('Apply damage: only the attacker, once, across a restart; Health persists on the target sheet', async () => {
    await sheet('mike', 'Mike', { Aim: 200 });
    await sheet('sasha', 'Sasha', { Health: 12, Armor: 1 });
    const expected = resolveAttack(attackInput({ defense: 0, dodge: 0 }, { attacker: { name: 'Mike', aim: 200, crit: 0 }, weaponBase: 6, cover: 'none' }), seededRng('t-1'));
    expect(expected.hit).toBe('hit');
    const damage = expected.damage!.final;
    const reply = await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 6, weapon_range: 3, cover: 'none' } });
    const rollId = rollIdOf(textOf(reply));
    expect(buttonsOf(reply)).toEqual([expect.objectContaining({ custom_id: `tactics:apply:${rollId}`, label: `Apply ${damage} damage` })]);

    const intruder = await sandbox().one({ user: 'sasha', button: `tactics:apply:${rollId}`, message: reply.messageId! });
    expect(intruder).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(intruder.content).toContain('who made this attack, can apply its damage. Nothing was changed.');

    await sandbox().restartBot();
    const applied = await sandbox().one({ user: 'mike', button: `tactics:apply:${rollId}`, message: reply.messageId! });
    expect(applied).toMatchObject({ kind: 'update', allowedMentions: NO_PINGS });
    // Apply damage is gone; the attack's Roll again stays.
    expect(buttonsOf(applied)).toEqual([]);
    expect(JSON.stringify(applied.components)).toContain(`roll:again:${rollId}`);
    expect(textOf(applied)).toContain(`Sasha: Health 12 → **${12 - damage}** (${damage} damage)`);

    // The button is gone, so it cannot be pressed again (a stale second press is refused: see the next test).
    await expect(sandbox().fake.interact({ user: 'mike', button: `tactics:apply:${rollId}`, message: reply.messageId! })).rejects.toThrow(/has no component/);

    const shown = textOf(await sandbox().one({ user: 'sasha', command: 'sheet show' }));
    expect(shown).toContain(`Health **${12 - damage}**`);
    // The applied marker replays as the attack it applied.
    const marker = (await storedRolls(1))[0]!;
    expect(marker).toMatchObject({ kind: 'attack-applied', total: 12 - damage });
    await replayMatches(marker.id as string);
  });

  it('two presses at once apply the damage once', async () => {
    await sheet('mike', 'Mike', { Aim: 200 });
    await sheet('sasha', 'Sasha', { Health: 20 });
    const reply = await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 6, weapon_range: 3, cover: 'none' } });
    const press = { user: 'mike', button: buttonsOf(reply)[0]!.custom_id, message: reply.messageId! };
    const results = await Promise.all([sandbox().fake.interact(press), sandbox().fake.interact(press)]);
    for (const result of results) expect(result.errors).toEqual([]);
    expect(results.map((result) => result.responses.map((response) => response.kind)).sort()).toEqual([['reply'], ['update']]);
    const refusal = results.flatMap((result) => result.responses).find((response) => response.kind === 'reply')!;
    expect(refusal).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(refusal.content).toContain("This attack's damage was already applied");
    const damage = /Apply (\d+) damage/.exec(buttonsOf(reply)[0]!.label)![1]!;
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'sheet show' }))).toContain(`Health **${20 - Number(damage)}**`);
  });

  it('flanking grants Crit: an attacker with Crit 0 who flanks checks Crit at 50 and may crit; the reading is stored and replays', async () => {
    await sheet('mike', 'Mike', { Aim: 200 });
    await sheet('sasha', 'Sasha', { Health: 30 });
    const seeds = ['t-1', 't-2', 't-3', 't-4', 't-5', 't-6'];
    const input = attackInput({ defense: 0, dodge: 0, armor: 0 }, { attacker: { name: 'Mike', aim: 200, crit: 0 }, cover: 'full', flanked: true });
    // Some of these very attacks are critical.
    expect(seeds.some((seed) => resolveAttack(input, seededRng(seed)).hit === 'critical')).toBe(true);
    for (const seed of seeds) {
      const expected = resolveAttack(input, seededRng(seed));
      const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 4, weapon_range: 3, cover: 'full', flanked: true } }));
      expect(text).toContain('flanked (+50 Crit)');
      expect(text).toContain(`Crit 0 Crit + 50 flanked = **50**: 🎲 ${d100Text(expected.crit!.d100)} ${expected.crit!.success ? '≤ 50: **critical**' : '> 50: **no critical**'}`);
      expect(text).toContain(`Mike → Sasha: ${expected.hit === 'critical' ? 'critical hit' : 'hit'}, ${expected.damage!.final} damage`);
      expect((await storedRolls(1))[0]).toMatchObject({ kind: 'attack', seed, inputs: { flankingNeedsOwnCrit: false }, dice: { crit: { tens: expected.crit!.d100.tens, ones: expected.crit!.d100.ones } } });
      await replayMatches(rollIdOf(text));
    }
  });

  it('house rule flanking_needs_own_crit: a Crit-0 flanker makes no Crit check and never crits; each attack keeps the reading it was rolled with', async () => {
    const ADMIN = { user: 'olga', permissions: ['ManageGuild'] };
    await sheet('mike', 'Mike', { Aim: 200 });
    await sheet('sasha', 'Sasha', { Health: 30 });
    const attackOptions = { target: 'sasha', weapon_base: 4, weapon_range: 3, cover: 'full', flanked: true };
    const on = await sandbox().one({ ...ADMIN, command: 'config house-rule', options: { name: 'flanking_needs_own_crit', state: 'on' } });
    expect(on.content).toBe('House rule `flanking_needs_own_crit` is now **on**. New `/tactics attack`s use it; attacks already rolled keep the reading they were rolled with.');
    const literal = textOf(await sandbox().one({ user: 'mike', command: 'tactics attack', options: attackOptions }));
    expect(literal).toContain('flanked (+50 only on a Crit above 0)');
    expect(literal).toContain("No Crit check (Mike has no Crit; flanking's +50 only adds to a Crit above 0: `flanking_needs_own_crit`).");
    expect(literal).not.toContain('critical');
    expect((await storedRolls(1))[0]).toMatchObject({ seed: 't-1', inputs: { flankingNeedsOwnCrit: true }, dice: { crit: null } });

    await sandbox().one({ ...ADMIN, command: 'config house-rule', options: { name: 'flanking_needs_own_crit', state: 'off' } });
    const granted = textOf(await sandbox().one({ user: 'mike', command: 'tactics attack', options: attackOptions }));
    expect(granted).toContain('Crit 0 Crit + 50 flanked = **50**');
    expect((await storedRolls(1))[0]).toMatchObject({ seed: 't-2', inputs: { flankingNeedsOwnCrit: false } });
    // The first attack replays under the house rule it was rolled with, though the server no longer has it.
    expect(await replayMatches(rollIdOf(literal))).toContain('No Crit check (Mike has no Crit');
    expect(await replayMatches(rollIdOf(granted))).toContain('Crit 0 Crit + 50 flanked = **50**');
  });

  it('attacks stored before the flanking reading was stored replay as rolled: before issue 12 a Crit-0 flanker checked at 50, after it made no check', async () => {
    const mike = sandbox().fake.user('mike').id;
    const input = attackInput({ defense: 0, dodge: 0, armor: 0 }, { attacker: { name: 'Mike', aim: 200, crit: 0 }, cover: 'full', flanked: true });
    const { critBonus: _c, dodgeBonus: _d, dashing: _x, flankingNeedsOwnCrit: _f, ...beforeIssue12 } = input;
    const { flankingNeedsOwnCrit: _g, ...fromIssue12 } = input;
    const eras: Array<[object, boolean, string]> = [
      [beforeIssue12, false, 'Crit 0 Crit + 50 flanked = **50**'],
      [fromIssue12, true, "No Crit check (Mike has no Crit; flanking's +50 only adds to a Crit above 0"],
    ];
    for (const [stored, flankingNeedsOwnCrit, shown] of eras) {
      const result = resolveAttack({ ...input, flankingNeedsOwnCrit }, seededRng('old-flank'));
      const rollId = await sandbox().bot.store.rolls.record({
        guildId: sandbox().fake.guildId,
        channelId: sandbox().fake.channelId,
        userId: mike,
        kind: 'attack',
        system: 'd100-tactics',
        inputs: stored,
        seed: 'old-flank',
        dice: attackDice(result),
        result,
        total: result.damage?.final ?? 0,
        challengeLevel: result.aim.target,
        success: result.damage !== null,
      });
      expect(await replayMatches(rollId)).toContain(shown);
    }
  });

  it('crit_bonus (e.g. a laser sight) gives a Crit-0 attacker a Crit check, flanked at bonus + 50; replayed', async () => {
    await sheet('mike', 'Mike', { Aim: 200 });
    await sheet('sasha', 'Sasha', { Health: 30 });
    const expected = resolveAttack(attackInput({ defense: 0, dodge: 0, armor: 0 }, { attacker: { name: 'Mike', aim: 200, crit: 0 }, critBonus: 10, cover: 'none', flanked: true }), seededRng('t-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 4, weapon_range: 3, cover: 'none', flanked: true, crit_bonus: 10 } }));
    expect(text).toContain('Crit bonus +10');
    expect(text).toContain(`Crit 0 Crit + 10 Crit bonus + 50 flanked = **60**: 🎲 ${d100Text(expected.crit!.d100)}`);
    expect(text).toContain(expected.hit === 'critical' ? 'critical hit' : 'hit');
    expect(await replayMatches(rollIdOf(text))).toContain('+ 10 Crit bonus + 50 flanked = **60**');
  });

  it('dashing: the target has +30 Dodge against the reaction attack — Dodge 0 checks at 30, Dodge 25 at 55; shown, stored, replayed', async () => {
    await sheet('mike', 'Mike', { Aim: 200 });
    await sheet('sasha', 'Sasha', { Health: 30 });
    const expected = resolveAttack(attackInput({ defense: 0, dodge: 0, armor: 0 }, { attacker: { name: 'Mike', aim: 200, crit: 0 }, cover: 'none', dashing: true }), seededRng('t-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 4, weapon_range: 3, cover: 'none', dashing: true } }));
    expect(text).toContain('target dashing (+30 Dodge)');
    expect(text).toContain(`Dodge 0 Dodge + 30 dashing = **30**: 🎲 ${d100Text(expected.dodge!.d100)} ${expected.dodge!.success ? '≤ 30: **dodged**' : '> 30: **not dodged**'}`);
    expect(text).toContain(`Mike → Sasha: ${expected.hit}`);
    expect((await storedRolls(1))[0]).toMatchObject({ kind: 'attack', inputs: { dashing: true } });
    expect(await replayMatches(rollIdOf(text))).toContain('Dodge 0 Dodge + 30 dashing = **30**');

    await sandbox().one({ user: 'sasha', command: 'sheet attribute set', options: { name: 'Dodge', value: 25 } });
    const withDodge = textOf(await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 4, weapon_range: 3, cover: 'none', dashing: true, dodge_bonus: 5 } }));
    expect(withDodge).toContain('Dodge 25 Dodge + 5 Dodge bonus + 30 dashing = **60**');
    // Not dashing, Dodge 0: no Dodge check at all.
    await sandbox().one({ user: 'sasha', command: 'sheet attribute set', options: { name: 'Dodge', value: 0 } });
    expect(textOf(await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 4, weapon_range: 3, cover: 'none' } }))).toContain('No Dodge check (Sasha has no Dodge).');
  });

  it('melee (+20, half cover does not count, marked does not add), without proficiency (hit → graze), armor leaves at least 1', async () => {
    await sheet('mike', 'Mike', { Aim: 150 });
    await sheet('sasha', 'Sasha', { Defense: 10, Armor: 5, Health: 30 });
    const input = attackInput({ defense: 10, dodge: 0, armor: 5 }, { attacker: { name: 'Mike', aim: 150, crit: 0 }, weaponBase: 0, weaponRange: 2, melee: true, marked: true, proficient: false });
    const expected = resolveAttack(input, seededRng('t-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 0, weapon_range: 2, cover: 'half', melee: true, marked: true, proficient: false } }));
    expect(text).toContain('1. Defense\n10 Defense = **10** (half cover only stops ranged attacks)');
    expect(text).toContain('2. Target value\n150 Aim − 10 defense + 20 melee = **160**');
    expect(expected.hit).toBe('graze');
    expect(text).toContain('6. Not proficient\nhit → **graze**');
    expect(text).toContain(`Graze: ${expected.damage!.roll.total} ÷ 2 → 1`);
    expect(text).toContain('1 − 5 armor = -4, at least 1 → **1 damage**');
    expect(text).toContain('Mike → Sasha: graze, 1 damage');
  });

  it('a Dispatcher attacks an NPC; players may not name NPCs; a miss offers no button', async () => {
    await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'npc create', options: { name: 'Sectoid', system: 'd100-tactics' } });
    await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'npc attribute set', options: { npc: 'Sectoid', name: 'Aim', value: -200 } });
    await sheet('sasha', 'Sasha', { Health: 10 });
    const miss = await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'tactics attack', options: { as_npc: 'Sectoid', target: 'sasha', weapon_base: 3, weapon_range: 2, cover: 'full' } });
    // A miss has no button the bot edits later: it is posted under the NPC's name through the channel's webhook.
    const posted = postedAs(sandbox(), miss, 'Sectoid');
    expect(textOf(posted)).toContain('Sectoid → Sasha: miss');
    expect(posted.components).toEqual([]);
    const refused = await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target_npc: 'Sectoid', weapon_base: 3, weapon_range: 2, cover: 'none' } });
    expect(refused).toMatchObject({ ephemeral: true });
  });
});

describe('/tactics psi', () => {
  it('Psi + difficulty, contested by a member’s Will, with a collar; stored and replayed', async () => {
    await sheet('mike', 'Mike', { Psi: 80 });
    await sheet('sasha', 'Sasha', { Will: 60 });
    const expected = resolvePsi({ psi: 80, difficulty: -10, target: { name: 'Sasha', will: 60 }, collar: true }, seededRng('t-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics psi', options: { difficulty: -10, target: 'sasha', collar: true } }));
    expect(text).toContain("Target: 80 Psi − 10 difficulty − 60 Sasha's Will + 50 contested (average Will) − 105 Psi collar = **-45**");
    expect(text).toContain(`🎲 ${d100Text(expected.check.d100)} > -45: **failure** (chance 0%)`);
    await replayMatches(rollIdOf(text));
    const bad = await sandbox().fake.interact({ user: 'mike', command: 'tactics psi', options: { difficulty: 30 } }).catch((error: Error) => error);
    expect(String(bad)).toMatch(/at most 20/);
  });
});

describe('/tactics check unproficient_equipment', () => {
  it('Tech − 50; stored and replayed; below 0 the equipment cannot be used and nothing is rolled; not for other attributes', async () => {
    await sheet('mike', 'Mike', { Tech: 70, Aim: 60 });
    const expected = resolveCheck({ attribute: { name: 'Tech', value: 70 }, modifiers: [{ name: 'equipment without proficiency', value: -50 }] }, seededRng('t-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'tech', unproficient_equipment: true } }));
    expect(text).toContain('Target: 70 Tech − 50 equipment without proficiency = **20**');
    expect(text).toContain(`🎲 ${d100Text(expected.d100)}`);
    await replayMatches(rollIdOf(text));
    const unusable = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Tech', modifier: -30, unproficient_equipment: true } });
    expect(unusable).toMatchObject({ ephemeral: false, allowedMentions: NO_PINGS });
    expect(textOf(unusable)).toContain('Target: 70 Tech − 30 modifier − 50 equipment without proficiency = **-10**');
    expect(textOf(unusable)).toContain('the equipment cannot be used');
    const aim = await sandbox().one({ user: 'mike', command: 'tactics check', options: { attribute: 'Aim', unproficient_equipment: true } });
    expect(aim).toMatchObject({ ephemeral: true });
    expect(aim.content).toContain('is for Tech checks');
    expect(await storedRolls()).toHaveLength(1);
  });
});

describe('/tactics social', () => {
  it('Will with each penalty term by term; stored and replayed', async () => {
    await sheet('mike', 'Mike', { Will: 70 });
    const input = { will: 70, speciesDistance: 100, alien: true, psionicListener: true, speakerPsionic: false, modifier: 5 };
    const expected = resolveSocial(input, seededRng('t-1'));
    const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics social', options: { species_distance: 100, alien: true, psionic_listener: true, modifier: 5 } }));
    expect(text).toContain('Target: 70 Will − 20 species distance 100% − 5 extreme alien features − 5 strong psionics + 5 modifier = **45**');
    expect(text).toContain(`🎲 ${d100Text(expected.check.d100)} ${expected.check.success ? '≤' : '>'} 45`);
    const rollId = rollIdOf(text);
    expect((await storedRolls(1))[0]).toMatchObject({ id: rollId, kind: 'social', system: 'd100-tactics', challengeLevel: 45, success: expected.check.success });
    expect(await replayMatches(rollId)).toContain('= **45**');
  });

  it('a psionic speaker (Psi on the sheet, or speaker_psionic) takes no psionics penalty', async () => {
    await sheet('mike', 'Mike', { Will: 60, Psi: 40 });
    const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics social', options: { species_distance: 25, psionic_listener: true } }));
    expect(text).toContain('Target: 60 Will − 5 species distance 25% = **55**');
    expect(text).toContain('No strong-psionics penalty: the speaker is psionic.');
    const overridden = textOf(await sandbox().one({ user: 'mike', command: 'tactics social', options: { psionic_listener: true, speaker_psionic: false } }));
    expect(overridden).toContain('Target: 60 Will − 5 strong psionics = **55**');
  });
});

describe('/tactics reaction', () => {
  it('Defense against a hazard and Dodge reactions start at +50, then the modifier; stored and replayed', async () => {
    await sheet('mike', 'Mike', { Dodge: 20 });
    const expected = resolveReaction({ kind: 'dodge', value: 20, modifier: -15 }, seededRng('t-1'));
    const dodge = textOf(await sandbox().one({ user: 'mike', command: 'tactics reaction', options: { kind: 'dodge', modifier: -15 } }));
    expect(dodge).toContain('Dodge reaction check');
    expect(dodge).toContain('Target: 20 Dodge + 50 reaction check − 15 modifier = **55**');
    expect(dodge).toContain(`🎲 ${d100Text(expected.check.d100)}`);
    expect((await storedRolls(1))[0]).toMatchObject({ kind: 'reaction', challengeLevel: 55 });
    await replayMatches(rollIdOf(dodge));
    const defense = textOf(await sandbox().one({ user: 'mike', command: 'tactics reaction', options: { kind: 'defense' } }));
    expect(defense).toContain('Target: 0 Defense + 50 hazard check = **50**');
    await replayMatches(rollIdOf(defense));
  });
});

describe('/tactics move', () => {
  it('a Move: each square’s cost in order (diagonals 2, 1, …; rough doubles) against the sheet’s Mobility; nothing stored', async () => {
    await sheet('mike', 'Mike', { Mobility: 10 });
    const reply = await sandbox().one({ user: 'mike', command: 'tactics move', options: { path: '3s 3d 1rd' } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    const text = textOf(reply);
    expect(text).toContain('Mike: Move, 10 of 10 Mobility points');
    expect(text).toContain('3 straight: 3 × 1 = 3');
    expect(text).toContain('3 diagonal: 2 + 1 + 2 = 5');
    expect(text).toContain('1 rough diagonal: 2');
    expect(text).toContain('Cost: 7 squares = **10**');
    expect(text).toContain('Move (Core Action): 10 Mobility = **10**');
    expect(text).toContain('**Fits**: 0 left.');
    expect(text).toContain('No dice were rolled, so nothing was stored.');
    expect(await storedRolls()).toHaveLength(0);
    const over = textOf(await sandbox().one({ user: 'mike', command: 'tactics move', options: { path: '3s 3d 1rd 1s' } }));
    expect(over).toContain('Mike: Move, 11 of 10 Mobility points, too far');
    expect(over).toContain('**Too far**: 1 over.');
  });

  it('a Dash: twice Mobility, a Full Action, +30 Dodge against reaction actions; move actions spend the same points', async () => {
    await sheet('mike', 'Mike', { Mobility: 8 });
    const text = textOf(await sandbox().one({ user: 'mike', command: 'tactics move', options: { path: '6s', dash: true, equip: 6, take: 1 } }));
    expect(text).toContain('Dash (Full Action: both actions): 2 × 8 Mobility = **16**');
    expect(text).toContain('equip (a heavy weapon): 6');
    expect(text).toContain('take an item: 4');
    expect(text).toContain('Cost: 6 squares 6 + move actions 10 = **16**');
    expect(text).toContain('**Fits**: 0 left.');
    expect(text).toContain('While dashing: +30 Dodge against reaction actions');
    const carry = textOf(await sandbox().one({ user: 'mike', command: 'tactics move', options: { path: '1s', pick_up: true } }));
    expect(carry).toContain('pick up a person: 10');
    expect(carry).toContain('**Too far**: 3 over.');
    const putDown = textOf(await sandbox().one({ user: 'mike', command: 'tactics move', options: { path: '2d', put_down: true, other: 1, equip: 4 } }));
    expect(putDown).toContain('Cost: 2 squares 3 + move actions 7 = **10**');
  });

  it('Mobility from the option (no sheet needed) or a Dispatcher’s NPC; a sheet without Mobility and a bad path are private errors', async () => {
    const quick = textOf(await sandbox().one({ user: 'mike', command: 'tactics move', options: { path: '2d', mobility: 3 } }));
    expect(quick).toContain('Move (Core Action): 3 Mobility = **3**');
    await sheet('sasha', 'Sasha', { Aim: 50 });
    const noMobility = await sandbox().one({ user: 'sasha', command: 'tactics move', options: { path: '2s' } });
    expect(noMobility).toMatchObject({ ephemeral: true, allowedMentions: NO_PINGS });
    expect(noMobility.content).toContain('Sasha has no Mobility on the sheet.');
    const bad = await sandbox().one({ user: 'sasha', command: 'tactics move', options: { path: '3 north', mobility: 5 } });
    expect(bad).toMatchObject({ ephemeral: true });
    expect(bad.content).toContain('could not be read at `north`');
    await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'npc create', options: { name: 'Chryssalid', system: 'd100-tactics' } });
    await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'npc attribute set', options: { npc: 'Chryssalid', name: 'Mobility', value: 12 } });
    const moved = await sandbox().one({ user: 'dee', roles: ['dispatcher'], command: 'tactics move', options: { path: '12s', as_npc: 'Chryssalid' } });
    expect(textOf(postedAs(sandbox(), moved, 'Chryssalid'))).toContain('Chryssalid: Move, 12 of 12 Mobility points');
    expect((await sandbox().one({ user: 'sasha', command: 'tactics move', options: { path: '1s', as_npc: 'Chryssalid' } }))).toMatchObject({ ephemeral: true });
  });
});
