// /code roll (die codes and result points, RULES 3) through the real bot and the fake Discord.
import { describe, expect, it } from 'vitest';
import { seededRng } from '../../src/engine/rng.js';
import { resolveCodeCheck, type CodeCheckInput } from '../../src/engine/systems/result-points/check.js';
import { codeCheckFromOptions } from '../../commands/code.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const NO_PINGS = { parse: [] };
const sandbox = useTestSandbox({ seeds: ['code-1', 'code-2', 'code-3', 'code-4'] });

async function storedRolls(limit = 10): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox().url}/api/rolls?limit=${limit}`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}

/** What the bot will roll for these options and seed. */
function expected(options: Parameters<typeof codeCheckFromOptions>[0], seed: string) {
  const input: CodeCheckInput = codeCheckFromOptions(options);
  return resolveCodeCheck(input, seededRng(seed));
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
    expect(text).toContain('Difficulty **Moderate**: the top of its range, **15**');
    expect(text).toContain(`Result points ${result.total} − 15 = **${result.total - 15}**`);
    expect(text).toContain(result.success ? `success, **${result.effectiveness!.name}**` : '0 or less, **failure**');
    expect(text).toMatch(/Chance of success: \d+(\.\d)?%/);
    const rollId = rollIdOf(text);
    const [stored] = await storedRolls(1);
    expect(stored).toMatchObject({ id: rollId, kind: 'code', system: 'result-points', seed: 'code-1', dice: { roll: result.roll.dice, boosts: [], penalties: [], opponent: null }, total: result.total, challengeLevel: 15, success: result.success });

    const replay = await sandbox().one({ user: 'sasha', command: 'roll replay', options: { id: rollId } });
    expect(textOf(replay)).toContain(`Roll ${rollId}: the dice match`);
    expect(textOf(replay)).toContain(`${dice(result.roll.dice)} + 2 = ${result.roll.total}`);
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
      { name: 'Difficult (20; 16–20)', value: 'difficult' },
      { name: 'Very Difficult (25; 21–25)', value: 'very difficult' },
    ]);
    const number = await sandbox().one({ user: 'mike', command: 'code roll', options: { code: '3D', difficulty: '12' }, focused: 'difficulty' });
    expect(number.choices).toEqual([{ name: '12', value: '12' }]);
  });
});
