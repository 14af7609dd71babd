// Challenge rolls, linked rolls and replays through the real bot and the fake Discord.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

/** The D100 values a seed gives, as the bot will roll them. */
function d100s(seed: string, count: number) {
  const rng = seededRng(seed);
  return Array.from({ length: count }, () => rollD100(rng));
}

let sandbox: TestSandbox;
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

async function troy(): Promise<void> {
  await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Handgun Handling', level: 50 } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Driving', level: 30 } });
  await sandbox.one({ user: 'mike', command: 'sheet archetype set', options: { name: 'Acuity', modifier: 10 } });
  await sandbox.one({ user: 'mike', command: 'sheet condition add', options: { name: 'Wounded', modifier: -5 } });
}

async function storedRolls(limit = 10): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox.url}/api/rolls?limit=${limit}`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}

describe('/roll challenge', () => {
  beforeEach(async () => {
    sandbox = await startTestSandbox({ seeds: ['seed-a', 'seed-b', 'seed-c'] });
    await troy();
  });

  it('shows both dice, every term, the CL, the verdict, the margin and the odds, and stores the roll', async () => {
    const [die] = d100s('seed-a', 1);
    const reply = await sandbox.one({ user: 'mike', command: 'roll challenge', options: { skill: 'handgun handling', cl: 90, archetypes: 'acuity', modifier: 3 } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: { parse: [] } });
    const total = die!.value + 50 + 10 - 5 + 3;
    const text = textOf(reply);
    expect(text).toContain(`[${die!.tens}][${die!.ones}] → ${die!.value}`);
    expect(text).toContain(`${die!.value} (D100) + 50 Handgun Handling + 10 Acuity − 5 Wounded (condition) + 3 situational = **${total}**`);
    expect(text).toContain(total >= 90 ? `${total} ≥ 90: success` : `${total} < 90: failure`);
    expect(text).toContain(`margin ${total - 90 >= 0 ? '+' : '−'}${Math.abs(total - 90)}`);
    expect(text).toContain('Chance of success: 69%'); // base 58: faces 32..100
    const footer = (reply.embeds[0] as { footer: { text: string } }).footer.text;
    const rollId = /Roll (\w{8})/.exec(footer)![1]!;

    const [stored] = await storedRolls(1);
    expect(stored).toMatchObject({
      id: rollId,
      userId: sandbox.fake.user('mike').id,
      kind: 'challenge',
      seed: 'seed-a',
      dice: { tens: die!.tens, ones: die!.ones },
      total,
      challengeLevel: 90,
      success: total >= 90,
    });

    const replay = await sandbox.one({ user: 'sasha', command: 'roll replay', options: { id: rollId } });
    expect(textOf(replay)).toContain(`Roll ${rollId}: the dice match`);
    expect(textOf(replay)).toContain(`[${die!.tens}][${die!.ones}] → ${die!.value}`);
  });

  it('does not roll a certain outcome, and only a Dispatcher may force it', async () => {
    const certain = await sandbox.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Driving', cl: 26 } });
    expect(textOf(certain)).toContain('No roll needed: lowest possible result 26 ≥ CL 26');
    const impossible = await sandbox.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Driving', cl: 126 } });
    expect(textOf(impossible)).toContain('highest possible result 125 < CL 126');
    expect(await storedRolls()).toEqual([]);

    const refused = await sandbox.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Driving', cl: 26, force: true } });
    expect(refused).toMatchObject({ ephemeral: true });
    expect(refused.content).toContain('Only a Dispatcher can force');
    expect(await storedRolls()).toEqual([]);

    const forced = await sandbox.one({ user: 'mike', roles: ['dispatcher'], command: 'roll challenge', options: { skill: 'Driving', cl: 26, force: true } });
    expect(textOf(forced)).toMatch(/\[\d\]\[\d\] → \d+/);
    expect(await storedRolls()).toHaveLength(1);
  });

  it('rolls with a level given outright, without a sheet', async () => {
    const [die] = d100s('seed-a', 1);
    const reply = await sandbox.one({ user: 'sasha', command: 'roll challenge', options: { skill: 'Lock Picking', cl: 100, level: 60 } });
    expect(textOf(reply)).toContain(`${die!.value} (D100) + 60 Lock Picking = **${die!.value + 60}**`);
  });

  it('refuses bad input privately and rolls nothing', async () => {
    const cases: Array<[Record<string, unknown>, string, string?]> = [
      [{ skill: 'Driving', cl: 250 }, 'Challenge Level must be a whole number from 0 to 200; 250 is not'],
      [{ skill: 'Driving', cl: -1 }, 'from 0 to 200; -1 is not'],
      [{ skill: 'Driving', cl: 90, level: 101 }, 'skill level must be a whole number from 0 to 100; 101 is not'],
      [{ skill: 'Handgun', cl: 90 }, 'Troy has no skill named **Handgun**. Nearest: **Handgun Handling** 50. You can roll one of those, add it with `/sheet skill set name:Handgun level:…` or give `level:`'],
      [{ skill: 'Driving', cl: 90, archetypes: 'Acuity, Dexterty' }, 'no archetype named **Dexterty**'],
      [{ skill: 'Driving', cl: 90 }, '`/roll challenge` rolls a Tac Talk', 'kat'],
    ];
    for (const [options, message, user = 'mike'] of cases) {
      const reply = await sandbox.one({ user, command: 'roll challenge', options });
      expect(reply, JSON.stringify(options)).toMatchObject({ kind: 'reply', ephemeral: true });
      expect(reply.content).toContain(message);
    }
    expect(await storedRolls()).toEqual([]);
  });
});

describe('/roll linked', () => {
  beforeEach(async () => {
    sandbox = await startTestSandbox({ seeds: ['seed-linked'] });
    await troy();
  });

  it('reports each part and the summary, under one replayable roll', async () => {
    const [first, second] = d100s('seed-linked', 2);
    const reply = await sandbox.one({ user: 'mike', command: 'roll linked', options: { rolls: 'Handgun Handling +Acuity vs 90; Driving -10 vs 110' } });
    const text = textOf(reply);
    const firstTotal = first!.value + 50 + 10 - 5;
    const secondTotal = second!.value + 30 - 5 - 10;
    const succeeded = Number(firstTotal >= 90) + Number(secondTotal >= 110);
    expect(text).toContain(`Linked roll: ${succeeded} of 2 succeeded`);
    expect(text).toContain(`${first!.value} (D100) + 50 Handgun Handling + 10 Acuity − 5 Wounded (condition) = **${firstTotal}**`);
    expect(text).toContain(`${second!.value} (D100) + 30 Driving − 5 Wounded (condition) − 10 situational = **${secondTotal}**`);
    const rollId = /Roll (\w{8})/.exec(text)![1]!;
    expect(textOf(await sandbox.one({ user: 'mike', command: 'roll replay', options: { id: rollId } }))).toContain('the dice match');
  });

  it('points at the bad part of a malformed list', async () => {
    const reply = await sandbox.one({ user: 'mike', command: 'roll linked', options: { rolls: 'Handgun Handling vs 90; Driving vs fast' } });
    expect(reply).toMatchObject({ ephemeral: true });
    expect(reply.content).toContain('part 2 (`Driving vs fast`)');
    const unknown = await sandbox.one({ user: 'mike', command: 'roll linked', options: { rolls: 'Handgun Handling vs 90; Flying vs 50' } });
    expect(unknown.content).toContain('part 2 (Flying)');
    expect(await storedRolls()).toEqual([]);
  });
});

describe('/roll dice in a fresh process', () => {
  beforeEach(async () => {
    sandbox = await startTestSandbox({ seeds: ['seed-dice'] });
  });

  // The notation library is loaded on first use, on a thread of its own, not at start (it weighs ~100 MB); nothing in
  // this file started that thread.
  it('acknowledges at once on first use (the notation thread is still loading), then rolls and replays', async () => {
    const first = await sandbox.act({ user: 'mike', command: 'roll dice', options: { expression: '4d6kh3+2' } });
    expect(first.responses.map((response) => response.kind)).toEqual(['deferred', 'edit']);
    const reply = first.responses[1]!;
    expect(reply.ephemeral).toBeFalsy();
    const rollId = /Roll (\w{8})/.exec(textOf(reply))![1]!;
    // Loaded now: the next one is an ordinary reply.
    expect((await sandbox.one({ user: 'mike', command: 'roll dice', options: { expression: '1d20' } })).kind).toBe('reply');
    expect(textOf(await sandbox.one({ user: 'mike', command: 'roll replay', options: { id: rollId } }))).toContain('the dice match');
  });
});

describe('when something breaks on our side', () => {
  beforeEach(async () => {
    sandbox = await startTestSandbox();
    await troy();
  });

  it('apologises privately with the interaction id, and the bot keeps answering', async () => {
    await sandbox.bot.store.db.$executeRawUnsafe('DROP TABLE "Roll"');
    const result = await sandbox.act({ user: 'mike', command: 'roll challenge', options: { skill: 'Driving', cl: 90 } });
    expect(result.responses).toHaveLength(1);
    expect(result.responses[0]).toMatchObject({ kind: 'reply', ephemeral: true });
    expect(result.responses[0]!.content).toContain(`\`${result.id}\``);
    expect(result.responses[0]!.content).toContain('Sorry, something went wrong');
    expect(textOf(await sandbox.one({ user: 'mike', command: 'sheet show' }))).toContain('Troy');
  });
});
