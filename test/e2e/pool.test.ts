// /pool (d6 pools, RULES 4) through the real bot and the fake Discord: the roll from the sheet, Push (roller only,
// once, across a restart), the condition it costs stored on the sheet and applied on the next roll, replays.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/engine/rng.js';
import { opposedResult, resolveD6Pool, resolvePush, resolveTieBreak, tieBreakFaces, type D6PoolInput } from '../../src/engine/systems/d6-pool/pool.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { derivedRollId } from '../../src/store/rolls.js';
import { formatD6Dice } from '../../src/views/d6-pool.js';
import { startTestSandbox, textOf, useTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const NO_PINGS = { parse: [] };
const sandbox = useTestSandbox({ seeds: ['pool-1', 'pool-2', 'pool-3', 'pool-4', 'pool-5'] });

async function storedRolls(limit = 10): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox().url}/api/rolls?limit=${limit}`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}

const group = (faces: number[]) => `\`${faces.map((face) => `[${face}]`).join('')}\``;
const rollIdOf = (text: string) => /Roll (\w{8})/.exec(text)![1]!;

interface Control {
  type: number;
  custom_id: string;
  label?: string;
  placeholder?: string;
  options?: Array<{ value: string; label: string }>;
}

function componentsOf(response: SandboxResponse): Control[] {
  // The Roll again row every typed roll carries is test/e2e/roll-again.test.ts's; these tests read the command's own.
  return (response.components as Array<{ components: Control[] }>).flatMap((row) => row.components).filter((control) => !control.custom_id.startsWith('roll:'));
}

async function kat(box: TestSandbox): Promise<void> {
  await box.one({ user: 'mike', command: 'sheet create', options: { name: 'Kat', system: 'd6-pool' } });
  await box.one({ user: 'mike', command: 'sheet attribute set', options: { name: 'STR', value: 3 } });
  await box.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Force', level: 2 } });
}

const forceInput = (overrides: Partial<D6PoolInput> = {}): D6PoolInput => ({
  skill: 'Force',
  attribute: 'STR',
  skillLevel: 2,
  attributeValue: 3,
  gear: 1,
  modifiers: [],
  sheet: { id: 1, name: 'Kat' },
  ...overrides,
});

describe('/pool', () => {
  it('rolls skill + attribute + gear from the sheet, shows each group of dice, successes and banes, the odds; stored and replayable', async () => {
    await kat(sandbox());
    const expected = resolveD6Pool(forceInput({ modifiers: [{ name: 'Hard', value: -2 }, { name: 'help (1)', value: 1 }] }), seededRng('pool-1'));
    const reply = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'force', gear: 1, difficulty: 'Hard', help: 1 } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    const text = textOf(reply);
    // 2 skill + 1 gear + 3 STR, −2 + 1: one skill die goes.
    expect(text).toContain('Force 2 + STR 3 + gear 1, Hard −2, help (1) +1 = **5 dice**: 1 skill · 1 gear · 3 STR (modifiers −1: skill dice go first, then gear, then STR)');
    const faces = expected.dice.map((die) => die.face);
    expect(text).toContain(`🎲 Skill ${group(faces.slice(0, 1))} · Gear ${group(faces.slice(1, 2))} · STR ${group(faces.slice(2))}`);
    expect(text).toContain(`${expected.sixes} six`);
    expect(text).toMatch(/Odds of at least one success with 5 dice: \d+(\.\d)?%/);
    const rollId = rollIdOf(text);
    expect((await storedRolls(1))[0]).toMatchObject({ id: rollId, kind: 'pool', system: 'd6-pool', seed: 'pool-1', dice: faces, total: expected.successes, success: expected.success });
    const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } }));
    expect(replay).toContain(`Roll ${rollId}: the dice match`);
    expect(replay).toContain(`STR ${group(faces.slice(2))}`);
  });

  it('Push is one step: choosing its condition pushes and puts the condition on the sheet; refused to anyone else; once, also after a restart', async () => {
    await kat(sandbox());
    const roll = resolveD6Pool(forceInput(), seededRng('pool-1'));
    const pushable = roll.dice.filter((die) => die.face !== 1 && die.face !== 6).length;
    expect(pushable).toBeGreaterThan(0); // the seed leaves dice to push
    const first = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', gear: 1 } });
    const rollId = rollIdOf(textOf(first));
    // The only control is the select: there is no Push button that pushes without its condition.
    const [select, ...others] = componentsOf(first);
    expect(others).toEqual([]);
    expect(select).toMatchObject({ type: 3, custom_id: `pool:push:${rollId}`, placeholder: `Push: re-roll ${pushable} ${pushable === 1 ? 'die' : 'dice'} and suffer a condition: pick it to push` });
    expect(select!.options!.map((option) => option.value)).toEqual(['Exhausted', 'Angry', 'Frightened', 'Battered', 'Sick', 'Confused']);
    expect(select!.options!.map((option) => option.label)).toContain('Push, suffer Angry');
    const message = first.messageId!;

    const intruder = await sandbox().one({ user: 'sasha', select: `pool:push:${rollId}`, values: ['Sick'], message });
    expect(intruder).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(intruder.content).toContain(`Only <@${sandbox().fake.user('mike').id}>, who rolled, can push this roll. Nothing was changed.`);
    expect(await storedRolls()).toHaveLength(1);

    // The bot restarts before the push: the choice goes on from the roll log.
    await sandbox().restartBot();
    const pushed = resolvePush({ rollId, attribute: 'STR', dice: roll.dice }, seededRng('pool-2'));
    const update = await sandbox().one({ user: 'mike', select: `pool:push:${rollId}`, values: ['Angry'], message });
    expect(update).toMatchObject({ kind: 'update', allowedMentions: NO_PINGS });
    // The push's select is gone; the roll's Roll again stays.
    expect(componentsOf(update)).toEqual([]);
    expect(JSON.stringify(update.components)).toContain(`roll:again:${rollId}`);
    const pushText = textOf(update);
    expect(pushText).toContain(`${pushed.rerolled} ${pushed.rerolled === 1 ? 'die' : 'dice'} re-rolled; 1s and 6s stay:`);
    const shown = pushed.dice.map((die) => (die.rerolled ? `[${die.before}→${die.face}]` : `[${die.face}]`));
    expect(pushText).toContain(`STR \`${shown.slice(3).join('')}\``);
    expect(pushText).toContain('Kat suffers the condition **Angry** (-1 on later rolls until removed).');
    // The push and its condition are stored together, and the condition is on the sheet at once.
    const [conditionRow, pushRow] = await storedRolls(2);
    expect(pushRow).toMatchObject({ kind: 'pool-push', seed: 'pool-2', dice: pushed.dice.map((die) => die.face), total: pushed.successes });
    expect(conditionRow).toMatchObject({ kind: 'pool-condition', dice: [] });
    const sheet = textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }));
    expect(sheet).toContain('Angry');
    expect(sheet).not.toContain('Sick');

    // The next roll carries the condition (Stamina is unranked, so the −1 takes the gear die), and its Push no
    // longer offers Angry: a condition already suffered is no new cost.
    const next = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Stamina', gear: 1 } });
    expect(textOf(next)).toContain('Stamina 0 + STR 3 + gear 1, Angry (condition) −1 = **3 dice**: 0 skill · 0 gear · 3 STR (modifiers −1: skill dice go first, then gear, then STR)');
    const nextSelect = componentsOf(next).find((component) => component.custom_id.startsWith('pool:push:'));
    if (nextSelect) expect(nextSelect.options!.map((option) => option.value)).toEqual(['Exhausted', 'Frightened', 'Battered', 'Sick', 'Confused']);

    // The push and the condition replay too.
    const pushReplay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: pushRow!.id as string } }));
    expect(pushReplay).toContain(`Roll ${pushRow!.id as string}: the dice match`);
    expect(pushReplay).toContain(`Push of roll ${rollId}`);
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: conditionRow!.id as string } }))).toContain('Kat took **Angry** (-1). No dice.');
  });

  it('two choices at once push once and cost one condition: one updates the message, the other is told privately', async () => {
    await kat(sandbox());
    const first = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', gear: 1 } });
    const choose = (value: string) => ({ user: 'mike', select: componentsOf(first)[0]!.custom_id, values: [value], message: first.messageId! });
    const results = await Promise.all([sandbox().fake.interact(choose('Sick')), sandbox().fake.interact(choose('Exhausted'))]);
    for (const result of results) expect(result.errors).toEqual([]);
    expect(results.map((result) => result.responses.map((response) => response.kind)).sort()).toEqual([['reply'], ['update']]);
    expect((await storedRolls()).map((row) => row.kind).sort()).toEqual(['pool', 'pool-condition', 'pool-push']);
    const refusal = results.flatMap((result) => result.responses).find((response) => response.kind === 'reply')!;
    expect(refusal).toMatchObject({ ephemeral: true });
    expect(refusal.content).toMatch(/This roll was already pushed \(`\w{8}`\): a roll is pushed only once\. Nothing was rolled\./);
    const sheet = textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }));
    expect(Number(sheet.includes('Sick')) + Number(sheet.includes('Exhausted'))).toBe(1);
  });

  it('no way to push without the condition: an old Push button pushes nothing, and a condition that cannot be stored leaves the roll unpushed', async () => {
    await kat(sandbox());
    const first = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', gear: 1 } });
    const rollId = rollIdOf(textOf(first));
    const message = first.messageId!;
    // A message posted before this change carries a Push *button* (it pushed at once and asked for the condition
    // after, so the condition could be skipped). The fake Discord keeps messages privately; the test puts the old
    // button back on this one.
    const messages = (sandbox().fake as unknown as { state: { messages: Map<string, { components: unknown[] }> } }).state.messages;
    messages.get(message)!.components = [{ type: 1, components: [{ type: 2, style: 4, custom_id: `pool:push:${rollId}`, label: 'Push (re-roll 5 dice, take a condition)' }]}];
    const old = await sandbox().one({ user: 'mike', button: `pool:push:${rollId}`, message });
    expect(old).toMatchObject({ kind: 'update' });
    expect(componentsOf(old).map((component) => component.custom_id)).toEqual([`pool:push:${rollId}`]);
    expect(componentsOf(old)[0]).toMatchObject({ type: 3 });
    expect(await storedRolls()).toHaveLength(1); // nothing pushed

    // A sheet full of conditions cannot take the push's: the push is not made either (one transaction).
    const sheet = (await sandbox().bot.store.operators.active({ guildId: sandbox().fake.guildId, ownerId: sandbox().fake.user('mike').id }, 'd6-pool'))!;
    for (let index = 0; index < 25; index++) {
      await sandbox().bot.store.operators.setCondition(sheet, { name: `Bruise ${index}`, modifier: 0, skills: null, expiresAt: null }, new Date());
    }
    const full = await sandbox().one({ user: 'mike', select: `pool:push:${rollId}`, values: ['Angry'], message });
    expect(full).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(full.content).toContain('A sheet holds at most 25 conditions; remove one first.');
    expect(await storedRolls()).toHaveLength(1);
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).not.toContain('Angry');
  });

  it('a condition already suffered is no new cost; with every condition, a push costs Broken; Broken too, no push', async () => {
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Kat', system: 'd6-pool' } });
    await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: 'STR', value: 10 } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Force', level: 5 } });
    for (const name of ['Exhausted', 'Angry', 'Frightened', 'Battered', 'Sick']) {
      await sandbox().one({ user: 'mike', command: 'sheet condition add', options: { name, modifier: -1 } });
    }
    const first = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force' } });
    const rollId = rollIdOf(textOf(first));
    expect(componentsOf(first)[0]!.options!.map((option) => option.value)).toEqual(['Confused']);
    // Confused is taken another way before the choice: it is refused, nothing is rolled.
    await sandbox().one({ user: 'mike', command: 'sheet condition add', options: { name: 'Confused', modifier: -1 } });
    const stale = await sandbox().one({ user: 'mike', select: `pool:push:${rollId}`, values: ['Confused'], message: first.messageId! });
    expect(stale).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(stale.content).toContain('Kat cannot suffer **Confused** for this push (a condition already suffered is no new cost): pick one of Broken. Nothing was rolled.');
    expect(await storedRolls()).toHaveLength(1);

    const second = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force' } });
    const [select] = componentsOf(second);
    expect(select!.options!.map((option) => option.value)).toEqual(['Broken']);
    const broken = await sandbox().one({ user: 'mike', select: select!.custom_id, values: ['Broken'], message: second.messageId! });
    expect(textOf(broken)).toContain('Kat suffers the condition **Broken** (-1 on later rolls until removed).');

    const third = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force' } });
    expect(componentsOf(third)).toEqual([]);
    expect(textOf(third)).toContain('No push: Kat is Broken and suffers every condition a push can cost; remove one first (`/sheet condition remove`).');
    expect(textOf(third)).toContain('Broken (condition) −1');
  });

  it('a push stored before the push took its condition at once still picks it, once, with its record', async () => {
    await kat(sandbox());
    await sandbox().one({ user: 'sasha', command: 'sheet create', options: { name: 'Troy', system: 'd6-pool' } });
    await sandbox().one({ user: 'sasha', command: 'sheet attribute set', options: { name: 'EMP', value: 2 } });
    const first = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha', their_skill: 'Insight' } });
    const rollId = /Roll (\w{8}) ·/.exec(textOf(first))![1]!;
    // What the old Push button stored: the push alone.
    const roll = resolveD6Pool(forceInput({ gear: 0 }), seededRng('pool-1'));
    const pushed = resolvePush({ rollId, attribute: 'STR', dice: roll.dice }, seededRng('old-push'));
    await sandbox().bot.store.rolls.recordOnce(derivedRollId(rollId, 'push'), {
      guildId: sandbox().fake.guildId, channelId: 'c', userId: sandbox().fake.user('mike').id, kind: 'pool-push', system: 'd6-pool',
      inputs: pushed.input, seed: 'old-push', dice: pushed.dice.map((die) => die.face), result: pushed, total: pushed.successes, challengeLevel: null, success: pushed.success,
    });
    const rolled = await sandbox().one({ user: 'sasha', button: `pool:oppose:${rollId}`, message: first.messageId! });
    expect(textOf(rolled)).toContain('Kat must take a condition for pushing: pick it below.');
    const select = componentsOf(rolled).find((component) => component.custom_id === `pool:condition:${rollId}`)!;
    expect(select.options!.map((option) => option.value)).toEqual(['Exhausted', 'Angry', 'Frightened', 'Battered', 'Sick', 'Confused']);
    const picked = await sandbox().one({ user: 'mike', select: `pool:condition:${rollId}`, values: ['Frightened'], message: first.messageId! });
    expect(textOf(picked)).toContain('Kat suffers the condition **Frightened**');
    expect(componentsOf(picked).map((component) => component.custom_id)).not.toContain(`pool:condition:${rollId}`);
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).toContain('Frightened');
    expect((await storedRolls(1))[0]).toMatchObject({ kind: 'pool-condition' });
  });

  it('an empty pool says it cannot succeed and rolls nothing; a missing attribute or sheet is explained', async () => {
    await kat(sandbox());
    const empty = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Melee', difficulty: 'Formidable' } });
    expect(empty.content).toContain('An empty pool has no chance to succeed');
    const noAttribute = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Stealth' } });
    expect(noAttribute).toMatchObject({ ephemeral: true });
    expect(noAttribute.content).toContain('Kat has no AGI');
    const noSheet = await sandbox().one({ user: 'sasha', command: 'pool', options: { skill: 'Force' } });
    expect(noSheet.content).toMatch(/`\/pool` rolls a d6 pools[^;]* sheet; you have none\. Make one with `\/sheet create name:… system:d6 pools[^`]*`\./);
    const unknown = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Piloting' } });
    expect(unknown.content).toContain('is not one of the thirteen skills');
    expect(await storedRolls()).toEqual([]);
  });

  it('autocompletes the thirteen skills with their attributes', async () => {
    const none = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'st' }, focused: 'skill' });
    expect(none.choices).toEqual([{ name: expect.stringMatching(/^No d6 pools.* sheet yet: \/sheet create name:…( system:d6 pools.*)? — then add attributes and skills$/), value: '(no sheet yet)' }]);
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Kat', system: 'd6-pool' } });
    const choices = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'st' }, focused: 'skill' });
    expect(choices.choices).toEqual([
      { name: 'Stamina (STR)', value: 'Stamina' },
      { name: 'Stealth (AGI)', value: 'Stealth' },
    ]);
  });

  describe("the skills' own rules", () => {
    async function agent(box: TestSandbox): Promise<void> {
      await box.one({ user: 'mike', command: 'sheet create', options: { name: 'Kat', system: 'd6-pool' } });
      for (const [name, value] of [['AGI', 3], ['EMP', 3]] as const) await box.one({ user: 'mike', command: 'sheet attribute set', options: { name, value } });
      await box.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Stealth', level: 1 } });
    }

    it('Stealth: each factor named in the sum, +1 or −1; refused for another skill or an unknown factor; autocompleted as a list', async () => {
      await agent(sandbox());
      const reply = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Stealth', factors: 'dark, crowded, no cover' } });
      expect(textOf(reply)).toContain('Stealth 1 + AGI 3, dark +1, crowded +1, no cover −1 = **5 dice**');
      const other = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Insight', factors: 'dark' } });
      expect(other).toMatchObject({ ephemeral: true });
      expect(other.content).toContain("Factors are the Stealth roll's");
      const unknown = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Stealth', factors: 'fog' } });
      expect(unknown.content).toContain('**fog** is not a Stealth factor');
      expect(await storedRolls()).toHaveLength(1);
      const choices = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Stealth', factors: 'dark, d' }, focused: 'factors' });
      expect(choices.choices).toEqual([{ name: 'dark, distracted (+1: Your opponent is distracted by something)', value: 'dark, distracted' }]);
    });

    it('Persuasion must state its stakes before the roll: refused without them, shown as typed (no pings), replayed', async () => {
      await agent(sandbox());
      const none = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Persuasion' } });
      expect(none).toMatchObject({ ephemeral: true });
      expect(none.content).toContain('Persuasion needs its stakes stated before the roll: add `stakes:`');
      expect(await storedRolls()).toEqual([]);
      const stated = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Persuasion', stakes: 'the *guard* lets us pass @everyone' } });
      expect(stated).toMatchObject({ allowedMentions: NO_PINGS });
      expect(textOf(stated)).toContain('Stakes: the \\*guard\\* lets us pass @everyone');
      const replay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollIdOf(textOf(stated)) } }));
      expect(replay).toContain('Stakes: the \\*guard\\* lets us pass');
    });

    it('Insight: a success reveals the strongest emotion, several also whether they lie', async () => {
      await agent(sandbox());
      const expected = resolveD6Pool({ skill: 'Insight', attribute: 'EMP', skillLevel: 0, attributeValue: 3, gear: 0, modifiers: [], sheet: { id: 1, name: 'Kat' } }, seededRng('pool-1'));
      const text = textOf(await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Insight' } }));
      if (expected.successes === 0) expect(text).not.toContain('most powerful emotion');
      else expect(text).toContain("🔎 Insight: the Operator reveals the NPC's current, most powerful emotion");
      expect(text.includes('whether they are lying')).toBe(expected.successes >= 2);
      // Several successes on a bigger pool: found from the seed, not assumed.
      await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Insight', level: 5 } });
      await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name: 'EMP', value: 10 } });
      for (const seed of ['pool-2', 'pool-3', 'pool-4', 'pool-5', 'test-seed-0', 'test-seed-1']) {
        const big = resolveD6Pool({ skill: 'Insight', attribute: 'EMP', skillLevel: 5, attributeValue: 10, gear: 10, modifiers: [], sheet: { id: 1, name: 'Kat' } }, seededRng(seed));
        const bigText = textOf(await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Insight', gear: 10 } }));
        expect(bigText.includes('and whether they are lying (not what about, nor the truth).')).toBe(big.successes >= 2);
        if (big.successes >= 2) return;
      }
      expect.unreachable('none of the seeds gave two successes');
    });
  });

  describe('opposed (against:@user their_skill)', () => {
    async function troy(box: TestSandbox): Promise<void> {
      await box.one({ user: 'sasha', command: 'sheet create', options: { name: 'Troy', system: 'd6-pool' } });
      await box.one({ user: 'sasha', command: 'sheet attribute set', options: { name: 'EMP', value: 3 } });
      await box.one({ user: 'sasha', command: 'sheet skill set', options: { name: 'Insight', level: 2 } });
      await box.one({ user: 'sasha', command: 'sheet condition add', options: { name: 'Angry', modifier: -1 } });
    }
    const troyInput = (rollId: string, modifiers: D6PoolInput['modifiers']): D6PoolInput => ({
      skill: 'Insight',
      attribute: 'EMP',
      skillLevel: 2,
      attributeValue: 3,
      gear: 0,
      modifiers,
      sheet: { id: 2, name: 'Troy' },
      against: rollId,
    });

    it('pings the opponent once; only they roll, once, across a restart, from their sheet; only the roller pushes, after too; only a Dispatcher breaks the tie; replays match', async () => {
      await kat(sandbox());
      await troy(sandbox());
      const sashaId = sandbox().fake.user('sasha').id;
      const mikeId = sandbox().fake.user('mike').id;
      const first = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Melee', against: 'sasha', their_skill: 'insight' } });
      expect(first).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: { parse: [], users: [sashaId] } });
      expect(first.content).toContain(`<@${sashaId}>, you oppose this roll`);
      const text = textOf(first);
      expect(text).toContain('Melee (STR) vs Insight (EMP)');
      const rollId = /Roll (\w{8}) ·/.exec(text)![1]!;
      const active = resolveD6Pool({ ...forceInput({ skill: 'Melee', skillLevel: 0, gear: 0 }), opposed: { userId: sashaId, skill: 'Insight', attribute: 'EMP' } }, seededRng('pool-1'));
      expect(componentsOf(first).map((c) => c.custom_id)).toEqual([`pool:oppose:${rollId}`, `pool:push:${rollId}`]);
      const message = first.messageId!;

      // Nobody but the opponent may roll; the opponent may not push.
      const mikeRolls = await sandbox().one({ user: 'mike', button: `pool:oppose:${rollId}`, message });
      expect(mikeRolls).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
      expect(mikeRolls.content).toContain(`Only <@${sashaId}>, who opposes this roll, can roll against it. Nothing was rolled.`);
      const dee = await sandbox().one({ user: 'dee', button: `pool:oppose:${rollId}`, message });
      expect(dee).toMatchObject({ ephemeral: true });
      const sashaPushes = await sandbox().one({ user: 'sasha', select: `pool:push:${rollId}`, values: ['Angry'], message });
      expect(sashaPushes.content).toContain(`Only <@${mikeId}>, who rolled, can push this roll.`);
      expect(await storedRolls()).toHaveLength(1);

      // A restart between the two rolls: the Roll button goes on from the roll log.
      await sandbox().restartBot();
      const theirs = resolveD6Pool(troyInput(rollId, [{ name: 'Angry (condition)', value: -1 }]), seededRng('pool-2'));
      const rolled = await sandbox().one({ user: 'sasha', button: `pool:oppose:${rollId}`, message });
      expect(rolled).toMatchObject({ kind: 'update', allowedMentions: NO_PINGS });
      const before = opposedResult(active, undefined, theirs);
      const rolledText = textOf(rolled);
      // These seeds: Kat 1 success, Troy none: the active party wins; the push below turns it into a tie.
      expect(before).toMatchObject({ active: 1, opponent: 0, win: true });
      expect(rolledText).toContain('**Kat wins** with 1 success left');
      expect(rolledText).toContain(`${before.active}–${before.opponent}, ${before.win ? 'the active party wins' : before.tie ? 'a tie: the active party fails' : 'the opponent wins'}`);
      expect(rolledText).toContain(`${before.cancelled} cancelled`);
      expect(rolledText).toContain('Insight 2 + EMP 3, Angry (condition) −1 = **4 dice**');
      expect(componentsOf(rolled).map((c) => c.custom_id)).toEqual([`pool:push:${rollId}`]);
      const opposedRow = (await storedRolls(1))[0]!;
      expect(opposedRow).toMatchObject({ kind: 'pool-opposed', system: 'd6-pool', seed: 'pool-2', dice: theirs.dice.map((die) => die.face), total: theirs.successes });
      expect(opposedRow.userId).toBe(sashaId);

      // Once: the Roll button is gone (two presses at once: the next test).
      expect(await storedRolls()).toHaveLength(2);

      // The active party pushes after the opponent rolled: the outcome is re-computed from the pushed dice.
      const pushed = resolvePush({ rollId, attribute: 'STR', dice: active.dice }, seededRng('pool-3'));
      const after = opposedResult(active, pushed, theirs);
      const pushUpdate = await sandbox().one({ user: 'mike', select: `pool:push:${rollId}`, values: ['Exhausted'], message });
      expect(pushUpdate).toMatchObject({ kind: 'update', allowedMentions: NO_PINGS });
      const pushText = textOf(pushUpdate);
      expect(after).toMatchObject({ active: 0, opponent: 0, tie: true, win: false });
      expect(pushText).toContain('❌ Melee (STR) vs Insight (EMP): 0–0, a tie: the active party fails (pushed)');
      expect(pushText).toContain('**a tie: Kat fails** (a tie fails for the active party)');
      expect(pushText).toContain(`${after.active}–${after.opponent}, ${after.win ? 'the active party wins' : after.tie ? 'a tie: the active party fails' : 'the opponent wins'} (pushed)`);
      expect(pushText).toContain(`Kat ${after.active} success${after.active === 1 ? '' : 'es'} (pushed) − Troy`);
      expect(pushText).toContain('Kat suffers the condition **Exhausted**');
      // A tie typically fails for the active party; if it needs breaking, a Dispatcher re-rolls the opposed roll.
      expect(pushText).toContain('If this tie needs to be broken, a Dispatcher re-rolls the opposed roll: *Break the tie*.');
      expect(componentsOf(pushUpdate).map((c) => c.custom_id)).toEqual([`pool:tiebreak:${rollId}:1`]);
      const pushId = (await storedRolls(2))[1]!.id as string;

      // Only a Dispatcher breaks the tie: both pools are rolled again as first rolled, and the re-roll decides.
      const mikeBreaks = await sandbox().one({ user: 'mike', button: `pool:tiebreak:${rollId}:1`, message });
      expect(mikeBreaks).toMatchObject({ kind: 'reply', ephemeral: true });
      expect(mikeBreaks.content).toContain('break the tie of an opposed roll');
      expect(await storedRolls()).toHaveLength(4);
      const tieBreak = resolveTieBreak({ rollId, round: 1, active: active.input, opponent: theirs.input }, seededRng('pool-4'));
      const broken = await sandbox().one({ user: 'dee', roles: ['dispatcher'], button: `pool:tiebreak:${rollId}:1`, message });
      expect(broken).toMatchObject({ kind: 'update', allowedMentions: NO_PINGS });
      const brokenText = textOf(broken);
      const tieRow = (await storedRolls(1))[0]!;
      expect(tieRow).toMatchObject({ kind: 'pool-tiebreak', system: 'd6-pool', seed: 'pool-4', dice: tieBreakFaces(tieBreak), success: tieBreak.outcome.win });
      expect(brokenText).toContain(`Tie broken by re-roll 1 · roll ${tieRow.id as string}`);
      expect(brokenText).toContain(`Kat: 🎲 ${formatD6Dice(tieBreak.active.dice, 'STR')}`);
      expect(brokenText).toContain(`Troy: 🎲 ${formatD6Dice(tieBreak.opponent.dice, 'EMP')}`);
      const { outcome } = tieBreak;
      expect(brokenText).toContain(`${outcome.active}–${outcome.opponent}, ${outcome.win ? 'the active party wins' : outcome.tie ? 'a tie: the active party fails' : 'the opponent wins'} (pushed), tie re-rolled ×1`);
      expect(brokenText).toContain(`${outcome.active}–${outcome.opponent}: ${outcome.win ? '**Kat wins**' : outcome.tie ? 'a tie again: a Dispatcher may re-roll once more' : '**Troy wins**'}`);
      expect(componentsOf(broken).map((c) => c.custom_id)).toEqual(outcome.tie ? [`pool:tiebreak:${rollId}:2`] : []);

      // Replays: the roll, the opponent's roll, the push and the tie-break.
      for (const id of [rollId, opposedRow.id as string, pushId, tieRow.id as string]) {
        expect(textOf(await sandbox().one({ user: 'dee', command: 'roll replay', options: { id } }))).toContain(`Roll ${id}: the dice match`);
      }
      expect(textOf(await sandbox().one({ user: 'dee', command: 'roll replay', options: { id: opposedRow.id as string } }))).toContain(`Opposing roll ${rollId}: Insight (EMP) · Troy`);
    });

    it('two presses of Roll at once roll once; a tie or loss is shown as a failure for the active party', async () => {
      await kat(sandbox());
      await troy(sandbox());
      const first = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha', their_skill: 'Insight' } });
      const press = { user: 'sasha', button: componentsOf(first)[0]!.custom_id, message: first.messageId! };
      expect(press.button).toMatch(/^pool:oppose:/);
      const results = await Promise.all([sandbox().fake.interact(press), sandbox().fake.interact(press)]);
      for (const result of results) expect(result.errors).toEqual([]);
      expect(results.map((result) => result.responses.map((response) => response.kind)).sort()).toEqual([['reply'], ['update']]);
      expect((await storedRolls()).map((row) => row.kind).sort()).toEqual(['pool', 'pool-opposed']);
      const update = results.flatMap((result) => result.responses).find((response) => response.kind === 'update')!;
      const title = textOf(update);
      const match = /: (\d+)–(\d+), (the active party wins|a tie: the active party fails|the opponent wins)/.exec(title)!;
      const [activeN, opponentN] = [Number(match[1]), Number(match[2])];
      expect(match[3]).toBe(activeN > opponentN ? 'the active party wins' : activeN === opponentN ? 'a tie: the active party fails' : 'the opponent wins');
      expect(title).toContain(activeN > opponentN ? '✅' : '❌');
    });

    it('a tie is broken by a Dispatcher re-rolling both pools, once per press (two at once roll once); the re-roll decides and ends the push', async () => {
      // Seeds for a tie, found from the generator: Kat's Force (5 dice) against Troy's Insight (4 dice, Angry −1).
      const activeOf = (seed: string) => resolveD6Pool(forceInput({ gear: 0, sheet: { id: 1, name: 'Kat' } }), seededRng(seed));
      const theirsOf = (seed: string, rollId: string) => resolveD6Pool(troyInput(rollId, [{ name: 'Angry (condition)', value: -1 }]), seededRng(seed));
      let index = 0;
      while (activeOf(`tie-a-${index}`).successes !== theirsOf('tie-b', 'x').successes || !activeOf(`tie-a-${index}`).dice.some((die) => die.face !== 1 && die.face !== 6)) index++;
      const box = await startTestSandbox({ seeds: [`tie-a-${index}`, 'tie-b', 'tie-c', 'tie-d'] });
      try {
        await kat(box);
        await troy(box);
        const first = await box.one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha', their_skill: 'Insight' } });
        const rollId = /Roll (\w{8}) ·/.exec(textOf(first))![1]!;
        const message = first.messageId!;
        const rolled = await box.one({ user: 'sasha', button: `pool:oppose:${rollId}`, message });
        const tied = theirsOf('tie-b', rollId).successes;
        expect(textOf(rolled)).toContain(`${tied}–${tied}, a tie: the active party fails`);
        // Before a Dispatcher breaks it, the active party may still push (the push select stays).
        expect(componentsOf(rolled).map((c) => c.custom_id)).toEqual([`pool:tiebreak:${rollId}:1`, `pool:push:${rollId}`]);

        const press = { user: 'dee', roles: ['dispatcher'], button: `pool:tiebreak:${rollId}:1`, message };
        const results = await Promise.all([box.fake.interact(press), box.fake.interact(press)]);
        for (const result of results) expect(result.errors).toEqual([]);
        expect(results.map((result) => result.responses.map((response) => response.kind)).sort()).toEqual([['reply'], ['update']]);
        const refusal = results.flatMap((result) => result.responses).find((response) => response.kind === 'reply')!;
        expect(refusal).toMatchObject({ ephemeral: true });
        expect(refusal.content).toMatch(/Re-roll 1 of this tie was already made \(`\w{8}`\)\. Nothing was rolled\./);
        const rows = await (await fetch(`${box.url}/api/rolls?limit=10`)).json() as { rolls: Array<Record<string, unknown>> };
        expect(rows.rolls.map((row) => row.kind)).toEqual(['pool-tiebreak', 'pool-opposed', 'pool']);

        const update = results.flatMap((result) => result.responses).find((response) => response.kind === 'update')!;
        const active = activeOf(`tie-a-${index}`);
        const tieBreak = resolveTieBreak({ rollId, round: 1, active: { ...active.input, opposed: { userId: box.fake.user('sasha').id, skill: 'Insight', attribute: 'EMP' } }, opponent: theirsOf('tie-b', rollId).input }, seededRng('tie-c'));
        expect(rows.rolls[0]).toMatchObject({ seed: 'tie-c', dice: tieBreakFaces(tieBreak) });
        const { outcome } = tieBreak;
        expect(textOf(update)).toContain(`${outcome.win ? '✅' : '❌'} Force (STR) vs Insight (EMP): ${outcome.active}–${outcome.opponent}, ${outcome.win ? 'the active party wins' : outcome.tie ? 'a tie: the active party fails' : 'the opponent wins'}, tie re-rolled ×1`);
        // The re-roll decides: no push of the first roll any more.
        expect(componentsOf(update).map((c) => c.custom_id)).toEqual(outcome.tie ? [`pool:tiebreak:${rollId}:2`] : []);
        const replay = textOf(await box.one({ user: 'sasha', command: 'roll replay', options: { id: rows.rolls[0]!.id as string } }));
        expect(replay).toContain(`Roll ${rows.rolls[0]!.id as string}: the dice match`);
        expect(replay).toContain(`Tie-break 1 of roll ${rollId}`);
        expect(box.fake.violations).toEqual([]);
      } finally {
        await box.stop();
      }
    });

    it('Stealth is opposed by Observation and Persuasion by Insight unless their_skill says otherwise', async () => {
      await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Kat', system: 'd6-pool' } });
      for (const [name, value] of [['AGI', 3], ['EMP', 3]] as const) await sandbox().one({ user: 'mike', command: 'sheet attribute set', options: { name, value } });
      await troy(sandbox());
      const sneak = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Stealth', against: 'sasha' } });
      expect(textOf(sneak)).toContain('Stealth (AGI) vs Observation (WIT)');
      const talk = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Persuasion', against: 'sasha', stakes: 'Troy looks away' } });
      expect(textOf(talk)).toContain('Persuasion (EMP) vs Insight (EMP)');
      const other = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Stealth', against: 'sasha', their_skill: 'Insight' } });
      expect(textOf(other)).toContain('Stealth (AGI) vs Insight (EMP)');
      const force = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Persuasion', stakes: 'x' } });
      expect(force.ephemeral).toBeFalsy();
    });

    it('refuses half an opposition, yourself, and an opponent with no sheet; nothing is rolled', async () => {
      await kat(sandbox());
      const half = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha' } });
      expect(half.content).toContain('needs both `against`');
      const self = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'mike', their_skill: 'Insight' } });
      expect(self.content).toContain('You cannot oppose your own roll');
      const noSheet = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha', their_skill: 'Insight' } });
      expect(noSheet).toMatchObject({ ephemeral: true });
      expect(noSheet.content).toMatch(/`\/pool` rolls a d6 pools[^;]* sheet; <@\d+> has none on this server\./);
      const badSkill = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha', their_skill: 'Piloting' } });
      expect(badSkill.content).toContain('is not one of the thirteen skills');
      expect(await storedRolls()).toEqual([]);
      const choices = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', their_skill: 'ins' }, focused: 'their_skill' });
      expect(choices.choices).toEqual([{ name: 'Insight (EMP)', value: 'Insight' }]);
    });
  });
});
