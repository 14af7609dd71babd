// /roll dice (generic notation, RULES 6.2) through the real bot and the fake Discord, and its replay (RULES 6.3).
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDiceNotation, notationEngine, rollDiceNotation, type RollPart, type RolledDie } from '../../src/engine/dice-notation.js';
import { startDiceNotationThread } from '../../src/engine/dice-notation-thread.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

// The expectations are rolled here with the pure function. The bot rolls on its notation thread, started first so
// that its first roll here is answered like any other (the first use is tested in dice-load.test.ts).
beforeAll(() => Promise.all([loadDiceNotation(), startDiceNotationThread()]));

const NO_PINGS = { parse: [] };

/** What the bot will roll for `expression` on `seed`. */
function expected(expression: string, seed: string) {
  return rollDiceNotation({ expression, label: null }, notationEngine(seed));
}

function diceOf(parts: RollPart[]): RolledDie[] {
  return parts.flatMap((part) => (part.type === 'dice' ? part.dice : part.type === 'group' ? diceOf(part.parts) : []));
}

/** A plain list of dice as players see it: a die that does not count is struck through. */
function shown(dice: RolledDie[]): string {
  return `[${dice.map((die) => (die.counted ? `${die.value}` : `~~${die.value}~~`)).join(', ')}]`;
}

describe('/roll dice', () => {
  const sandbox = useTestSandbox({ seeds: ['dice-e2e-1', 'dice-e2e-2', 'dice-e2e-3'] });

  async function storedRolls(): Promise<Array<Record<string, unknown>>> {
    const response = await fetch(`${sandbox().url}/api/rolls?limit=10`);
    return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
  }

  it('shows every die, the dropped one struck, and the total; stores the roll; replay gives the same dice', async () => {
    const roll = expected('4d6kh3+2', 'dice-e2e-1');
    const dice = diceOf(roll.rolls[0]!.parts);
    const total = roll.rolls[0]!.total;
    expect(dice.filter((die) => !die.counted)).toHaveLength(1);

    const reply = await sandbox().one({ user: 'mike', command: 'roll dice', options: { expression: '4d6kh3+2', label: 'Strength' } });
    expect(reply).toMatchObject({ kind: 'reply', ephemeral: false, allowedMentions: NO_PINGS });
    const text = textOf(reply);
    expect(text).toContain('🎲 Strength');
    expect(text).toContain('`4d6kh3+2`');
    expect(text).toContain(`${shown(dice)} + 2 = **${total}**`);
    expect(text).toContain('~~struck~~ not counted');
    const rollId = /Roll (\w{8})/.exec(text)![1]!;

    const [stored] = await storedRolls();
    expect(stored).toMatchObject({
      id: rollId,
      kind: 'dice',
      system: 'generic',
      seed: 'dice-e2e-1',
      inputs: { expression: '4d6kh3+2', label: 'Strength' },
      dice: [dice.map((die) => die.value)],
      total,
    });

    const replay = await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } });
    expect(textOf(replay)).toContain(`Roll ${rollId}: the dice match`);
    expect(textOf(replay)).toContain(`Strength · 4d6kh3+2`);
    expect(textOf(replay)).toContain(`${shown(dice)} + 2 = **${total}**`);
  });

  it('rolls 3#1d20+5 as three rolls with their own totals, and counts successes', async () => {
    const three = expected('3#1d20+5', 'dice-e2e-1');
    const text = textOf(await sandbox().one({ user: 'mike', command: 'roll dice', options: { expression: '3#1d20+5' } }));
    expect(text).toContain('🎲 3#1d20+5');
    three.rolls.forEach((roll, index) => {
      expect(text).toContain(`\`${index + 1}\` [${diceOf(roll.parts)[0]!.value}] + 5 = **${roll.total}**`);
    });

    const pool = expected('6d6>=6f=1', 'dice-e2e-2');
    const poolText = textOf(await sandbox().one({ user: 'mike', command: 'roll dice', options: { expression: '6d6>=6f=1' } }));
    const count = pool.rolls[0]!.total;
    expect(poolText).toContain(`= **${count}** ${Math.abs(count) === 1 ? 'success' : 'successes'}`);
    expect(await storedRolls()).toHaveLength(2);

    const log = textOf(await sandbox().one({ user: 'sasha', command: 'log' }));
    expect(log).toContain(`dice 3#1d20+5 → ${three.rolls.map((roll) => `**${roll.total}**`).join(', ')}`);
    expect(log).toContain(`dice 6d6>=6f=1 → **${count}**`);
  });

  it('refuses a bad expression privately with what is wrong and an example, and stores nothing', async () => {
    const cases: Array<[string, string]> = [
      ['4d6x', "I can't read `4d6x`: `x` at character 4 does not fit there."],
      ['101d6', 'At most 100 dice per roll'],
      ['1d6!>0', 'would roll more than 1000 dice'],
      ['x'.repeat(150), 'An expression has at most 100 characters; this one has 150.'],
    ];
    for (const [expression, message] of cases) {
      const reply = await sandbox().one({ user: 'mike', command: 'roll dice', options: { expression } });
      expect(reply, expression).toMatchObject({ kind: 'reply', ephemeral: true });
      expect(reply.content, expression).toContain(message);
      expect(reply.content, expression).toContain('For example: `');
    }
    expect(await storedRolls()).toEqual([]);
  });

  it('never pings, whatever the label says', async () => {
    const reply = await sandbox().one({ user: 'mike', command: 'roll dice', options: { expression: '1d20', label: '@everyone <@&123> look' } });
    expect(reply.allowedMentions).toEqual(NO_PINGS);
    expect(reply.content ?? '').toBe('');
    expect(textOf(reply)).toContain('@everyone <@&123> look');
  });
});
