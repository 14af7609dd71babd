// Once, and atomically (issue 11): presses that arrive together, counted over many trials. A button that makes a
// roll makes it once however many presses arrive; a button that changes a number on a sheet loses no change.
import { describe, expect, it } from 'vitest';
import { tableToJson, type OutcomeTable } from '../../src/engine/tables.js';
import type { SandboxResponse } from '../../src/sandbox/types.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const TRIALS = 20;
const DISPATCHER = { user: 'dora', roles: ['dispatcher'] };
const sandbox = useTestSandbox();

function buttonsOf(response: SandboxResponse): Array<{ custom_id: string; label: string }> {
  // The Roll again row every typed roll carries is test/e2e/roll-again.test.ts's; these tests press the command's own.
  return (response.components as Array<{ components: Array<{ custom_id: string; label: string }> }>).flatMap((row) => row.components).filter((button) => !button.custom_id.startsWith('roll:'));
}

const kinds = (responses: SandboxResponse[]) => responses.map((response) => response.kind).join(',');

describe('two presses at the same instant', () => {
  it(`of an outcome roll's next-table button roll the next table once (${TRIALS} trials)`, async () => {
    const always: OutcomeTable = { name: 'Fall', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 200, text: 'You fall.', next: 'Landing', reveals: null }] };
    const landing: OutcomeTable = { name: 'Landing', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 200, text: 'You land.', next: null, reveals: null }] };
    for (const table of [always, landing]) {
      await sandbox().one({ ...DISPATCHER, command: 'table import', options: { file: { filename: `${table.name}.json`, content: tableToJson(table) } } });
    }
    const outcomes = () => sandbox().bot.store.db.roll.count({ where: { kind: 'outcome' } });
    let refused = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const first = await sandbox().one({ user: 'mike', command: 'roll outcome', options: { table: 'Fall' } });
      const press = { user: 'mike', button: buttonsOf(first)[0]!.custom_id, message: first.messageId! };
      const before = await outcomes();
      const results = await Promise.all([sandbox().fake.interact(press), sandbox().fake.interact(press)]);
      for (const result of results) expect(result.errors).toEqual([]);
      expect(await outcomes(), `trial ${trial}`).toBe(before + 1);
      // The next roll is posted before the button greys; the second press, after it, is told privately.
      expect(results.map((result) => kinds(result.responses)).sort(), `trial ${trial}`).toEqual(['deferred,followup,edit', 'reply']);
      const refusal = results.flatMap((result) => result.responses).find((response) => response.kind === 'reply')!;
      expect(refusal).toMatchObject({ ephemeral: true });
      expect(refusal.content).toContain('The next table was already rolled from this roll');
      refused++;
    }
    expect(refused).toBe(TRIALS);
    expect(await outcomes()).toBe(2 * TRIALS);
  });

  it(`of two attackers' "Apply damage" both lower the target's Health (${TRIALS} trials)`, async () => {
    const sheet = async (user: string, name: string, attributes: Record<string, number>) => {
      await sandbox().one({ user, command: 'sheet create', options: { name, system: 'd100-tactics' } });
      for (const [attribute, value] of Object.entries(attributes)) await sandbox().one({ user, command: 'sheet attribute set', options: { name: attribute, value } });
    };
    await sheet('mike', 'Mike', { Aim: 200 });
    await sheet('kat', 'Kat', { Aim: 200 });
    await sheet('sasha', 'Sasha', { Health: 1000 });
    const health = async () => Number(/Health \*\*(\d+)\*\*/.exec(textOf(await sandbox().one({ user: 'sasha', command: 'sheet show' })))![1]);
    let expected = 1000;
    let bothHit = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const attack = { command: 'tactics attack', options: { target: 'sasha', weapon_base: 6, weapon_range: 3, cover: 'none' } };
      const [mike, kat] = [await sandbox().one({ user: 'mike', ...attack }), await sandbox().one({ user: 'kat', ...attack })];
      const presses = [
        { user: 'mike', reply: mike },
        { user: 'kat', reply: kat },
      ].filter(({ reply }) => buttonsOf(reply).length > 0);
      if (presses.length === 2) bothHit++;
      for (const { reply } of presses) expected -= Number(/Apply (\d+) damage/.exec(buttonsOf(reply)[0]!.label)![1]);
      const results = await Promise.all(presses.map(({ user, reply }) => sandbox().fake.interact({ user, button: buttonsOf(reply)[0]!.custom_id, message: reply.messageId! })));
      for (const result of results) {
        expect(result.errors).toEqual([]);
        expect(kinds(result.responses), JSON.stringify(result.responses.map((r) => r.content))).toBe("update");
      }
      expect(await health(), `trial ${trial}`).toBe(expected);
    }
    // Aim 200 against no defense hits almost always: the trials really pressed two buttons at once.
    expect(bothHit).toBeGreaterThanOrEqual(TRIALS / 2);
  });
});
