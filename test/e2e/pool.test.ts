// /pool (d6 pools, RULES 4) through the real bot and the fake Discord: the roll from the sheet, Push (roller only,
// once, across a restart), the condition it costs stored on the sheet and applied on the next roll, replays.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/engine/rng.js';
import { opposedResult, resolveD6Pool, resolvePush, type D6PoolInput } from '../../src/engine/systems/d6-pool/pool.js';
import type { SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const NO_PINGS = { parse: [] };
const sandbox = useTestSandbox({ seeds: ['pool-1', 'pool-2', 'pool-3', 'pool-4'] });

async function storedRolls(limit = 10): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox().url}/api/rolls?limit=${limit}`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}

const group = (faces: number[]) => `\`${faces.map((face) => `[${face}]`).join('')}\``;
const rollIdOf = (text: string) => /Roll (\w{8})/.exec(text)![1]!;

function componentsOf(response: SandboxResponse): Array<{ custom_id: string; label?: string; options?: Array<{ value: string }> }> {
  return (response.components as Array<{ components: Array<{ custom_id: string; label?: string }> }>).flatMap((row) => row.components);
}

async function kat(box: TestSandbox): Promise<void> {
  await box.one({ user: 'mike', command: 'sheet create', options: { name: 'Kat' } });
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

  it('Push: refused to anyone else, rolled once (also after a restart), then the condition is picked once, stored and applied next roll', async () => {
    await kat(sandbox());
    const roll = resolveD6Pool(forceInput(), seededRng('pool-1'));
    expect(roll.dice.some((die) => die.face !== 1 && die.face !== 6)).toBe(true); // the seed leaves dice to push
    const first = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', gear: 1 } });
    const rollId = rollIdOf(textOf(first));
    const [button] = componentsOf(first);
    expect(button).toMatchObject({ custom_id: `pool:push:${rollId}` });
    const message = first.messageId!;

    const intruder = await sandbox().one({ user: 'sasha', button: `pool:push:${rollId}`, message });
    expect(intruder).toMatchObject({ kind: 'reply', ephemeral: true, allowedMentions: NO_PINGS });
    expect(intruder.content).toContain(`Only <@${sandbox().fake.user('mike').id}>, who rolled, can push this roll. Nothing was changed.`);
    expect(await storedRolls()).toHaveLength(1);

    // The bot restarts before the push: the press goes on from the roll log.
    await sandbox().restartBot();
    const pushed = resolvePush({ rollId, attribute: 'STR', dice: roll.dice }, seededRng('pool-2'));
    const update = await sandbox().one({ user: 'mike', button: `pool:push:${rollId}`, message });
    expect(update).toMatchObject({ kind: 'update', allowedMentions: NO_PINGS });
    const pushText = textOf(update);
    expect(pushText).toContain(`${pushed.rerolled} dice re-rolled; 1s and 6s stay:`);
    const shown = pushed.dice.map((die) => (die.rerolled ? `[${die.before}→${die.face}]` : `[${die.face}]`));
    expect(pushText).toContain(`STR \`${shown.slice(3).join('')}\``);
    expect(pushText).toContain('Kat must take a condition for pushing: pick it below.');
    const [select] = componentsOf(update);
    expect(select!.custom_id).toBe(`pool:condition:${rollId}`);
    expect(select!.options!.map((option) => option.value)).toEqual(['Exhausted', 'Angry', 'Frightened', 'Battered', 'Sick', 'Confused']);
    const pushRow = (await storedRolls(1))[0]!;
    expect(pushRow).toMatchObject({ kind: 'pool-push', seed: 'pool-2', dice: pushed.dice.map((die) => die.face), total: pushed.successes });

    // The Push button is gone (a second push is refused: see the next test, two presses at once).
    expect(componentsOf(update).map((component) => component.custom_id)).not.toContain(`pool:push:${rollId}`);

    const stranger = await sandbox().one({ user: 'sasha', select: `pool:condition:${rollId}`, values: ['Sick'], message });
    expect(stranger).toMatchObject({ ephemeral: true });
    const picked = await sandbox().one({ user: 'mike', select: `pool:condition:${rollId}`, values: ['Angry'], message });
    expect(picked).toMatchObject({ kind: 'update', components: [] });
    expect(textOf(picked)).toContain('Kat takes the condition **Angry** (-1 on later rolls until removed).');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).toContain('Angry');
    expect(textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }))).not.toContain('Sick');

    // The next roll carries the condition: Stamina is unranked, so the −1 takes the gear die.
    const next = textOf(await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Stamina', gear: 1 } }));
    expect(next).toContain('Stamina 0 + STR 3 + gear 1, Angry (condition) −1 = **3 dice**: 0 skill · 0 gear · 3 STR (modifiers −1: skill dice go first, then gear, then STR)');

    // The push and the condition replay too.
    const pushReplay = textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: pushRow.id as string } }));
    expect(pushReplay).toContain(`Roll ${pushRow.id as string}: the dice match`);
    expect(pushReplay).toContain(`Push of roll ${rollId}`);
    const conditionRow = (await storedRolls(2))[1]!;
    expect(conditionRow).toMatchObject({ kind: 'pool-condition', dice: [] });
    expect(textOf(await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: conditionRow.id as string } }))).toContain('Kat took **Angry** (-1). No dice.');
  });

  it('two presses of Push at once push once: one updates the message, the other is told privately', async () => {
    await kat(sandbox());
    const first = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', gear: 1 } });
    const press = { user: 'mike', button: componentsOf(first)[0]!.custom_id, message: first.messageId! };
    const results = await Promise.all([sandbox().fake.interact(press), sandbox().fake.interact(press)]);
    for (const result of results) expect(result.errors).toEqual([]);
    expect(results.map((result) => result.responses.map((response) => response.kind)).sort()).toEqual([['reply'], ['update']]);
    expect(await storedRolls()).toHaveLength(2);
    const refusal = results.flatMap((result) => result.responses).find((response) => response.kind === 'reply')!;
    expect(refusal).toMatchObject({ ephemeral: true });
    expect(refusal.content).toMatch(/This roll was already pushed \(`\w{8}`\): a roll is pushed only once\. Nothing was rolled\./);

    // Two picks at once: one condition is stored, the other pick is refused.
    const pick = (value: string) => ({ user: 'mike', select: `pool:condition:${rollIdOf(textOf(first))}`, values: [value], message: first.messageId! });
    const picks = await Promise.all([sandbox().fake.interact(pick('Sick')), sandbox().fake.interact(pick('Exhausted'))]);
    expect(picks.map((result) => result.responses.map((response) => response.kind)).sort()).toEqual([['reply'], ['update']]);
    const refused = picks.flatMap((result) => result.responses).find((response) => response.kind === 'reply')!;
    expect(refused.content).toContain('The condition for this push was already picked');
    const sheet = textOf(await sandbox().one({ user: 'mike', command: 'sheet show' }));
    expect(Number(sheet.includes('Sick')) + Number(sheet.includes('Exhausted'))).toBe(1);
  });

  it('an empty pool says it cannot succeed and rolls nothing; a missing attribute or sheet is explained', async () => {
    await kat(sandbox());
    const empty = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Melee', difficulty: 'Formidable' } });
    expect(empty.content).toContain('An empty pool has no chance to succeed');
    const noAttribute = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Stealth' } });
    expect(noAttribute).toMatchObject({ ephemeral: true });
    expect(noAttribute.content).toContain('Kat has no AGI');
    const noSheet = await sandbox().one({ user: 'sasha', command: 'pool', options: { skill: 'Force' } });
    expect(noSheet.content).toContain('no Operator sheet');
    const unknown = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Piloting' } });
    expect(unknown.content).toContain('is not one of the thirteen skills');
    expect(await storedRolls()).toEqual([]);
  });

  it('autocompletes the thirteen skills with their attributes', async () => {
    const choices = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'st' }, focused: 'skill' });
    expect(choices.choices).toEqual([
      { name: 'Stamina (STR)', value: 'Stamina' },
      { name: 'Stealth (AGI)', value: 'Stealth' },
    ]);
  });

  describe('opposed (against:@user their_skill)', () => {
    async function troy(box: TestSandbox): Promise<void> {
      await box.one({ user: 'sasha', command: 'sheet create', options: { name: 'Troy' } });
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

    it('pings the opponent once; only they roll, once, across a restart, from their sheet; only the roller pushes, after too; replays match', async () => {
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
      const sashaPushes = await sandbox().one({ user: 'sasha', button: `pool:push:${rollId}`, message });
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
      const pushUpdate = await sandbox().one({ user: 'mike', button: `pool:push:${rollId}`, message });
      expect(pushUpdate).toMatchObject({ kind: 'update', allowedMentions: NO_PINGS });
      const pushText = textOf(pushUpdate);
      expect(after).toMatchObject({ active: 0, opponent: 0, tie: true, win: false });
      expect(pushText).toContain('❌ Melee (STR) vs Insight (EMP): 0–0, a tie: the active party fails (pushed)');
      expect(pushText).toContain('**a tie: Kat fails** (a tie fails for the active party)');
      expect(pushText).toContain(`${after.active}–${after.opponent}, ${after.win ? 'the active party wins' : after.tie ? 'a tie: the active party fails' : 'the opponent wins'} (pushed)`);
      expect(pushText).toContain(`Kat ${after.active} success${after.active === 1 ? '' : 'es'} (pushed) − Troy`);
      expect(componentsOf(pushUpdate).map((c) => c.custom_id)).toEqual([`pool:condition:${rollId}`]);

      // Replays: the roll, the opponent's roll and the push.
      for (const id of [rollId, opposedRow.id as string, (await storedRolls(1))[0]!.id as string]) {
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

    it('refuses half an opposition, yourself, and an opponent with no sheet; nothing is rolled', async () => {
      await kat(sandbox());
      const half = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha' } });
      expect(half.content).toContain('needs both `against`');
      const self = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'mike', their_skill: 'Insight' } });
      expect(self.content).toContain('You cannot oppose your own roll');
      const noSheet = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha', their_skill: 'Insight' } });
      expect(noSheet).toMatchObject({ ephemeral: true });
      expect(noSheet.content).toContain('has no Operator sheet');
      const badSkill = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha', their_skill: 'Piloting' } });
      expect(badSkill.content).toContain('is not one of the thirteen skills');
      expect(await storedRolls()).toEqual([]);
      const choices = await sandbox().one({ user: 'mike', command: 'pool', options: { skill: 'Force', their_skill: 'ins' }, focused: 'their_skill' });
      expect(choices.choices).toEqual([{ name: 'Insight (EMP)', value: 'Insight' }]);
    });
  });
});
