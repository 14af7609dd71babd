// Dice notation rolled on its own thread (src/engine/dice-notation-thread.ts), as the bot rolls it: the same dice as
// the pure function for the same seed (RULES 6.3), the same refusals, and each of many rolls at once gets its own.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadDiceNotation, notationEngine, rollDiceNotation, type DiceNotationInput } from '../../src/engine/dice-notation.js';
import { diceNotationThreadReady, rollDiceNotationOffThread, startDiceNotationThread } from '../../src/engine/dice-notation-thread.js';
import { replayRoll, rederive } from '../../src/engine/replay.js';
import { UserError } from '../../src/errors.js';

// The expectations are rolled here, on this thread, with the pure function.
beforeAll(loadDiceNotation);

const input = (expression: string, label: string | null = null): DiceNotationInput => ({ expression, label });

describe('dice notation on its own thread', () => {
  it('starts on the first roll and rolls the same dice as the pure function for the same seed', async () => {
    expect(diceNotationThreadReady()).toBe(false);
    const expressions = ['4d6kh3+2', '3#1d20+5', '6d6>=6f=1', '{2d6,1d8}kh1', '4dF+2', '5d10!>=9', 'floor(3d6/2)', '2d6ro=1'];
    for (const [index, expression] of expressions.entries()) {
      const seed = `thread-${index}`;
      expect(await rollDiceNotationOffThread(input(expression, 'Label'), seed), expression).toEqual(rollDiceNotation(input(expression, 'Label'), notationEngine(seed)));
    }
    expect(diceNotationThreadReady()).toBe(true);
  });

  it('refuses a bad expression with the UserError the pure function throws', async () => {
    for (const expression of ['4d6x', '101d6', '1d6!>0', '1d6/0']) {
      const expected = (() => {
        try {
          rollDiceNotation(input(expression), notationEngine('refused'));
        } catch (error) {
          return error;
        }
        throw new Error(`${expression} was not refused`);
      })();
      expect(expected).toBeInstanceOf(UserError);
      const refusal = rollDiceNotationOffThread(input(expression), 'refused');
      await expect(refusal, expression).rejects.toBeInstanceOf(UserError);
      await expect(refusal, expression).rejects.toThrow((expected as UserError).message);
    }
  });

  it('answers each of many rolls sent at once with its own dice', async () => {
    await startDiceNotationThread();
    const seeds = Array.from({ length: 50 }, (_, index) => `many-${index}`);
    const rolled = await Promise.all(seeds.map((seed) => rollDiceNotationOffThread(input('10d100'), seed)));
    expect(rolled).toEqual(seeds.map((seed) => rollDiceNotation(input('10d100'), notationEngine(seed))));
  });

  it('replays a stored notation roll on the thread to the dice the pure replay gives', async () => {
    const stored = JSON.parse(JSON.stringify(input('4d6kh3+2', 'Strength'))) as unknown;
    expect(await replayRoll('dice', stored, 'replay-seed')).toEqual(rederive('dice', stored, 'replay-seed'));
  });
});
