// The seed's worked example as a whole contest: Kat (Sasha) tries to disarm Troy (Mike); the Dispatcher makes
// Troy use Shotgun Handling; both succeed, so the defender Troy wins and Kat suffers Troy's stated outcome.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { startTestSandbox, textOf, type TestSandbox } from '../helpers/sandbox.js';

/** A seed whose two D100s (Kat's, then Troy's) both clear the other's aptitude. */
function seedWhereBothSucceed(): string {
  for (let index = 0; ; index++) {
    const seed = `both-succeed-${index}`;
    const rng = seededRng(seed);
    const [kat, troy] = [rollD100(rng), rollD100(rng)];
    if (kat.value >= 35 && troy.value >= 37) return seed;
  }
}

let sandbox: TestSandbox;
const seed = seedWhereBothSucceed();
beforeEach(async () => {
  sandbox = await startTestSandbox({ seeds: Array.from({ length: 40 }, () => seed) });
  await sandbox.one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat' } });
  await sandbox.one({ user: 'sasha', command: 'sheet skill set', options: { name: 'CQC', level: 37 } });
  await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'CQC', level: 40 } });
  await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Shotgun Handling', level: 35 } });
});
afterEach(async () => {
  expect(sandbox.fake.violations).toEqual([]);
  await sandbox.stop();
});

it('Kat against Troy: the Dispatcher disputes Troy’s CQC to Shotgun Handling 35, both succeed, Troy wins', async () => {
  const mikeId = sandbox.fake.user('mike').id;
  const opening = await sandbox.one({
    user: 'sasha',
    command: 'contest start',
    options: { opponent: 'mike', intent: 'Kat disarms Troy as he enters', stakes: 'Troy is disarmed' },
  });
  expect(opening).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: { parse: [], users: [mikeId] } });
  expect(opening.content).toContain(`<@${mikeId}>`);
  const message = opening.messageId!;
  const id = /Contest #(\d+)/.exec(textOf(opening))![1];

  const form = await sandbox.one({ user: 'mike', button: `contest:accept:${id}`, message });
  expect(form.kind).toBe('modal');
  const countered = await sandbox.one({
    user: 'mike',
    modal: `contest:acceptform:${id}`,
    fields: { stakes: 'Troy kicks Kat: she rolls on the Blunt Damage Outcome Table', operator: 'Troy' },
    message,
  });
  expect(countered.kind).toBe('update');
  expect(textOf(countered)).toContain('Troy kicks Kat');

  await sandbox.one({ user: 'sasha', button: `contest:agree:${id}`, message });
  await sandbox.one({ user: 'sasha', button: `contest:role:${id}:attacker`, message });
  const roles = await sandbox.one({ user: 'mike', button: `contest:role:${id}:defender`, message });
  expect(textOf(roles)).toMatch(/Kat: Attacker\nTroy: Defender/);

  await sandbox.one({ user: 'sasha', select: `contest:skill:${id}:challenger`, values: ['CQC'], message });
  const picked = await sandbox.one({ user: 'mike', select: `contest:skill:${id}:opponent`, values: ['CQC'], message });
  expect(textOf(picked)).toContain('Odds for these choices');

  const adjustForm = await sandbox.one({ user: 'dee', roles: ['dispatcher'], button: `contest:adjust:${id}`, message });
  expect(adjustForm.kind).toBe('modal');
  const disputed = await sandbox.one({
    user: 'dee',
    roles: ['dispatcher'],
    modal: `contest:adjustform:${id}`,
    fields: { challenger_skill: 'CQC', opponent_skill: 'Shotgun Handling', challenger_archetypes: '', opponent_archetypes: '', modifiers: '0, 0' },
    message,
  });
  expect(textOf(disputed)).toContain('disputed Troy’s skill'.replace('’', "'"));
  expect(textOf(disputed)).toContain('**Shotgun Handling 35** (set by the Dispatcher)');

  await sandbox.one({ user: 'sasha', button: `contest:ready:${id}`, message });
  const result = await sandbox.one({ user: 'mike', button: `contest:ready:${id}`, message });
  const text = textOf(result);
  expect(text).toContain('Troy wins');
  expect(text).toContain('Troy kicks Kat: she rolls on the Blunt Damage Outcome Table');
  expect(text).toMatch(/vs CL 35 → ✅ success/);
  expect(text).toMatch(/vs CL 37 → ✅ success/);
  expect(result.components).toEqual([]);
  const rollId = /rolls (\w{8})/.exec(text)![1]!;
  const replay = await sandbox.one({ user: 'eve', command: 'roll replay', options: { id: rollId } });
  expect(textOf(replay)).toContain('the dice match');
  expect(textOf(replay)).toContain('Winner\nThe opponent');
});
