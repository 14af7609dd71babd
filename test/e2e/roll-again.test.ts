// Roll again (issue 25 §1): every roll a member typed carries Roll again and Save…; a press runs the same subcommand
// anew with the same options and a new seed, through its handler, once per press, and only for the roller.
import { describe, expect, it } from 'vitest';
import type { SandboxResponse } from '../../src/sandbox/types.js';
import { derivedRollId } from '../../src/store/rolls.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox({ seeds: ['seed-a', 'seed-b', 'seed-c', 'seed-d', 'seed-e'] });
const DISPATCHER = { user: 'dora', roles: ['dispatcher'] };

type Button = { custom_id: string; label: string; disabled?: boolean };

function buttonsOf(response: Pick<SandboxResponse, 'components'>): Button[] {
  return ((response.components ?? []) as Array<{ components: Button[] }>).flatMap((row) => row.components);
}

function button(response: Pick<SandboxResponse, 'components'>, label: string): Button {
  const found = buttonsOf(response).find((candidate) => candidate.label === label);
  if (!found) throw new Error(`no "${label}" button among ${buttonsOf(response).map((b) => b.label).join(', ')}`);
  return found;
}

const rollIdOf = (response: SandboxResponse) => /Roll (\w{8})/.exec(textOf(response))![1]!;

async function troy(level = 50): Promise<void> {
  await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level } });
  await sandbox().one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } });
}

const FALL = { name: 'Fall', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 300, text: 'You fall.', next: null, reveals: null }] };

const stored = (id: string) => sandbox().bot.store.rolls.find(sandbox().fake.guildId, id);

describe('Roll again', () => {
  it('by the roller makes a new stored roll with new dice and the same inputs, posted with its own Roll again, the pressed one greyed', async () => {
    await troy();
    const first = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90, archetypes: 'Acuity', modifier: -5 } });
    const firstId = rollIdOf(first);
    expect(button(first, 'Roll again').custom_id).toBe(`roll:again:${firstId}`);
    expect(button(first, 'Save…').custom_id).toBe(`roll:save:${firstId}`);
    const original = (await stored(firstId))!;
    expect(original.invocation).toEqual({
      command: 'roll',
      path: 'challenge',
      options: [
        { name: 'skill', type: 3, value: 'Climbing' },
        { name: 'cl', type: 4, value: 90 },
        { name: 'archetypes', type: 3, value: 'Acuity' },
        { name: 'modifier', type: 4, value: -5 },
      ],
    });

    const pressed = await sandbox().act({ user: 'mike', button: button(first, 'Roll again').custom_id, message: first.messageId! });
    expect(pressed.responses.map((response) => response.kind)).toEqual(['deferred', 'followup', 'edit']);
    const again = pressed.responses[1]!;
    expect(again).toMatchObject({ ephemeral: false, allowedMentions: { parse: [] } });
    const againId = rollIdOf(again);
    expect(againId).toBe(derivedRollId(firstId, 'again'));
    const repeated = (await stored(againId))!;
    expect(repeated).toMatchObject({ userId: original.userId, kind: 'challenge', seed: 'seed-b', inputs: original.inputs, invocation: original.invocation });
    expect(original.seed).toBe('seed-a');
    expect(button(again, 'Roll again').custom_id).toBe(`roll:again:${againId}`);
    // The message pressed now says it was rolled again, and its button no longer works.
    const edited = pressed.responses[2]!;
    expect(button(edited, 'Rolled again')).toMatchObject({ disabled: true });
    expect(textOf(edited)).toContain(firstId);

    // The new roll's own button rolls once more.
    const third = await sandbox().act({ user: 'mike', button: button(again, 'Roll again').custom_id, message: again.messageId! });
    expect((await stored(derivedRollId(againId, 'again')))!.seed).toBe('seed-c');
    expect(third.responses.map((response) => response.kind)).toEqual(['deferred', 'followup', 'edit']);
  });

  it('pressed by someone else is refused privately and rolls nothing', async () => {
    await troy();
    const first = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    const before = await sandbox().bot.store.db.roll.count();
    for (const press of [button(first, 'Roll again'), button(first, 'Save…')]) {
      const refusal = await sandbox().one({ user: 'kat', button: press.custom_id, message: first.messageId! });
      expect(refusal).toMatchObject({ kind: 'reply', ephemeral: true });
      expect(refusal.content).toContain(`Only <@${sandbox().fake.user('mike').id}>, who made this roll, can`);
      expect(refusal.allowedMentions).toEqual({ parse: [] });
    }
    expect(await sandbox().bot.store.db.roll.count()).toBe(before);
  });

  it('pressed twice at once, or the same press delivered again, makes one roll', async () => {
    await troy();
    for (let trial = 0; trial < 5; trial++) {
      const first = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
      const press = { user: 'mike', button: button(first, 'Roll again').custom_id, message: first.messageId! };
      const before = await sandbox().bot.store.db.roll.count();
      const results = await Promise.all([sandbox().fake.interact(press), sandbox().fake.interact(press)]);
      for (const result of results) expect(result.errors).toEqual([]);
      expect(await sandbox().bot.store.db.roll.count(), `trial ${trial}`).toBe(before + 1);
      const kinds = results.map((result) => result.responses.map((response) => response.kind).join(',')).sort();
      expect(kinds).toEqual(['deferred,followup,edit', 'reply']);
      const refusal = results.flatMap((result) => result.responses).find((response) => response.kind === 'reply')!;
      expect(refusal).toMatchObject({ ephemeral: true });
      expect(refusal.content).toContain('already rolled again');
    }
    // The same press coming again later (delivered twice, or from a client still showing the message as it was before
    // it greyed): the message is put back as it was, and the press is refused, rolling nothing.
    const first = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    const press = { user: 'mike', button: button(first, 'Roll again').custom_id, message: first.messageId! };
    const message = (sandbox().fake as unknown as { state: { messages: Map<string, { components: unknown[] }> } }).state.messages.get(first.messageId!)!;
    const live = message.components;
    await sandbox().act(press);
    message.components = live;
    const before = await sandbox().bot.store.db.roll.count();
    const again = await sandbox().one(press);
    expect(again).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(again.content).toContain('already rolled again');
    expect(await sandbox().bot.store.db.roll.count()).toBe(before);
  });

  it('reads the sheet as it is now: a skill raised between the rolls shows in the second', async () => {
    await troy(40);
    const first = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    expect(textOf(first)).toContain('+ 40 Climbing');
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 65 } });
    const pressed = await sandbox().act({ user: 'mike', button: button(first, 'Roll again').custom_id, message: first.messageId! });
    const again = pressed.responses[1]!;
    expect(textOf(again)).toContain('+ 65 Climbing');
    expect(((await stored(rollIdOf(again)))!.inputs as { skill: { level: number } }).skill.level).toBe(65);
  });

  it('applies every check again: a sheet deleted since is refused privately, and nothing is rolled', async () => {
    await troy();
    const first = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    // /sheet delete asks first, privately: confirm it.
    const ask = await sandbox().one({ user: 'mike', command: 'sheet delete', options: { name: 'Troy' } });
    const confirm = buttonsOf(ask).find((candidate) => candidate.label.startsWith('Delete'))!;
    expect((await sandbox().one({ user: 'mike', button: confirm.custom_id, message: ask.messageId! })).content).toContain('Deleted **Troy**.');
    const before = await sandbox().bot.store.db.roll.count();
    const pressed = await sandbox().act({ user: 'mike', button: button(first, 'Roll again').custom_id, message: first.messageId! });
    const answer = pressed.responses.find((response) => response.kind !== 'deferred')!;
    expect(answer).toMatchObject({ ephemeral: true });
    expect(answer.content).toMatch(/sheet/i);
    expect(await sandbox().bot.store.db.roll.count()).toBe(before);
  });

  it('repeats /roll dice, /roll linked and /roll outcome with what was typed', async () => {
    await troy();
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Driving', level: 30 } });
    // The notation library loads on first use: the answer fills an acknowledgement.
    const dice = (await sandbox().act({ user: 'mike', command: 'roll dice', options: { expression: '3d6+2', label: 'Damage' } })).responses.at(-1)!;
    const diceAgain = (await sandbox().act({ user: 'mike', button: button(dice, 'Roll again').custom_id, message: dice.messageId! })).responses[1]!;
    expect(textOf(diceAgain)).toContain('Damage');
    expect((await stored(rollIdOf(diceAgain)))!.inputs).toEqual((await stored(rollIdOf(dice)))!.inputs);

    const linked = await sandbox().one({ user: 'mike', command: 'roll linked', options: { rolls: 'Climbing +Acuity vs 90; Driving -10 vs 110' } });
    const linkedAgain = (await sandbox().act({ user: 'mike', button: button(linked, 'Roll again').custom_id, message: linked.messageId! })).responses[1]!;
    expect((await stored(rollIdOf(linkedAgain)))!.inputs).toEqual((await stored(rollIdOf(linked)))!.inputs);

    await sandbox().one({ ...DISPATCHER, command: 'table import', options: { file: { filename: 'Fall.json', content: JSON.stringify(FALL) } } });
    const outcome = await sandbox().one({ user: 'mike', command: 'roll outcome', options: { table: 'Fall', skill: 'Climbing', modifier: 5 } });
    const outcomeAgain = (await sandbox().act({ user: 'mike', button: button(outcome, 'Roll again').custom_id, message: outcome.messageId! })).responses[1]!;
    expect(textOf(outcomeAgain)).toContain('You fall.');
    expect((await stored(rollIdOf(outcomeAgain)))!.inputs).toEqual((await stored(rollIdOf(outcome)))!.inputs);
  });

  it("repeats another system's roll that names a member: /tactics attack against the same target, and /pool", async () => {
    for (const [user, name, attributes] of [
      ['mike', 'Mike', { Aim: 200 }],
      ['sasha', 'Sasha', { Health: 1000 }],
    ] as const) {
      await sandbox().one({ user, command: 'sheet create', options: { name, system: 'd100-tactics' } });
      for (const [attribute, value] of Object.entries(attributes)) await sandbox().one({ user, command: 'sheet attribute set', options: { name: attribute, value } });
    }
    const attack = await sandbox().one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 6, weapon_range: 3, cover: 'none' } });
    const again = (await sandbox().act({ user: 'mike', button: button(attack, 'Roll again').custom_id, message: attack.messageId! })).responses[1]!;
    const [first, second] = [await stored(rollIdOf(attack)), await stored(rollIdOf(again))];
    expect(second!.kind).toBe(first!.kind);
    expect(second!.invocation).toEqual(first!.invocation);
    expect(first!.invocation!.options).toContainEqual({ name: 'target', type: 6, value: sandbox().fake.user('sasha').id });
    expect(textOf(again)).toContain('Sasha');

    await sandbox().one({ user: 'kat', command: 'sheet create', options: { name: 'Kat', system: 'd6-pool' } });
    await sandbox().one({ user: 'kat', command: 'sheet set', options: { attributes: 'STR 4, AGI 3, WIT 2, EMP 2', skills: 'Force 2' } });
    const pool = await sandbox().one({ user: 'kat', command: 'pool', options: { skill: 'Force', gear: 1 } });
    const poolAgain = (await sandbox().act({ user: 'kat', button: button(pool, 'Roll again').custom_id, message: pool.messageId! })).responses[1]!;
    expect((await stored(rollIdOf(poolAgain)))!.inputs).toEqual((await stored(rollIdOf(pool)))!.inputs);
  });

  it('is not on a roll made by a press: a Dispatcher’s call answered carries none', async () => {
    await troy();
    const call = await sandbox().act({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', intent: 'Climb the wall', outcome: 'Over it', skill: 'Climbing', cl: 90 } });
    const post = call.responses.find((response) => !response.ephemeral)!;
    const id = /#(\d+)/.exec(textOf(post))![1];
    const answered = await sandbox().act({ user: 'mike', button: `dispatch:roll:${id}`, message: post.messageId! });
    const rolls = await sandbox().bot.store.db.roll.findMany({ where: { kind: 'challenge' } });
    expect(rolls).toHaveLength(1);
    expect(rolls[0]!.invocation).toBeNull();
    for (const response of answered.responses) expect(buttonsOf(response).some((b) => b.custom_id.startsWith('roll:again:'))).toBe(false);
    for (const message of sandbox().fake.messages()) expect(buttonsOf(message as never).some((b) => b.custom_id.startsWith('roll:again:'))).toBe(false);
  });
});
