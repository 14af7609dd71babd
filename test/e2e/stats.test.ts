// /stats (issue 25 §5): every roll keeps the exact odds it showed, and /stats sets the successes they expect against
// those got, with the D100 faces and a chart, through the real bot and the fake Discord.
import { describe, expect, it } from 'vitest';
import { calibrate, chanceWords } from '../../src/engine/calibration.js';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { resolveCheck } from '../../src/engine/systems/d100-tactics/tactics.js';
import { resolveChallenge, type ChallengeInput } from '../../src/engine/systems/tactalk/challenge.js';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/fake-discord.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const SEEDS = Array.from({ length: 20 }, (_, index) => `stats-${index}`);
const sandbox = useTestSandbox({ seeds: SEEDS });

async function storedRolls(limit = 20): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${sandbox().url}/api/rolls?limit=${limit}`);
  return ((await response.json()) as { rolls: Array<Record<string, unknown>> }).rolls;
}

/** Seed 000's Operators: Mike's Troy (Shotgun Handling 35) and Sasha's Kat (CQC 37). */
async function troyAndKat(): Promise<void> {
  await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
  await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Shotgun Handling', level: 35 } });
  await sandbox().one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat' } });
  await sandbox().one({ user: 'sasha', command: 'sheet skill set', options: { name: 'CQC', level: 37 } });
}

const challengeInput = (skill: string, level: number, challengeLevel: number): ChallengeInput => ({
  skill: { name: skill, level },
  archetypeModifiers: [],
  conditionModifiers: [],
  situationalModifier: 0,
  challengeLevel,
  force: false,
  hidden: false,
});

/** The PNG's signature, and its width and height from the IHDR chunk. */
function pngFacts(base64: string): { signature: string; width: number; height: number; bytes: number } {
  const data = Buffer.from(base64, 'base64');
  return { signature: data.subarray(0, 8).toString('hex'), width: data.readUInt32BE(16), height: data.readUInt32BE(20), bytes: data.length };
}

const PNG_SIGNATURE = '89504e470d0a1a0a';

/**
 * /stats' one answer: a chart is acknowledged first (deferred, privately unless shared) and answered by editing it;
 * a refusal or an empty scope is answered at once.
 */
async function stats(request: SandboxInteractionRequest): Promise<SandboxResponse> {
  const { responses } = await sandbox().act(request);
  const kinds = responses.map((response) => response.kind);
  expect([['reply'], ['deferred', 'edit']]).toContainEqual(kinds);
  if (kinds[0] === 'deferred') expect(responses[0]!.ephemeral, 'deferred as its answer shows').toBe(responses[1]!.ephemeral);
  return responses.at(-1)!;
}

function chartOf(response: SandboxResponse) {
  expect(response.attachments).toHaveLength(1);
  const [file] = response.attachments!;
  expect(file!.filename).toBe('stats.png');
  expect((response.embeds[0] as { image?: { url: string } }).image?.url).toBe('attachment://stats.png');
  return pngFacts(file!.base64!);
}

describe('the odds each roll keeps', () => {
  it('are the odds the roll showed: Kat and Troy of seed 000 (challenges), a d100 tactics check and a d6 pool', async () => {
    await troyAndKat();
    const kat = await sandbox().one({ user: 'sasha', command: 'roll challenge', options: { skill: 'CQC', cl: 80 } });
    expect(textOf(kat)).toContain('Chance of success: 58%'); // CQC 37 against 80: faces 43–100
    const troy = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Shotgun Handling', cl: 80 } });
    expect(textOf(troy)).toContain('Chance of success: 56%'); // Shotgun Handling 35 against 80: faces 45–100

    await sandbox().one({ user: 'ana', command: 'sheet create', options: { name: 'Ana', system: 'd100-tactics' } });
    await sandbox().one({ user: 'ana', command: 'sheet attribute set', options: { name: 'Aim', value: 65 } });
    const check = await sandbox().one({ user: 'ana', command: 'tactics check', options: { attribute: 'aim', modifier: -10 } });
    expect(textOf(check)).toContain('(chance 55%)');

    await sandbox().one({ user: 'ben', command: 'sheet create', options: { name: 'Rook', system: 'd6-pool' } });
    await sandbox().one({ user: 'ben', command: 'sheet attribute set', options: { name: 'STR', value: 3 } });
    await sandbox().one({ user: 'ben', command: 'sheet skill set', options: { name: 'Force', level: 2 } });
    const pool = await sandbox().one({ user: 'ben', command: 'pool', options: { skill: 'Force', gear: 1 } });
    const shownPool = /Odds of at least one success with 6 dice: ([\d.]+)%/.exec(textOf(pool));
    expect(shownPool).not.toBeNull();

    const [poolRow, checkRow, troyRow, katRow] = await storedRolls(4);
    expect(katRow).toMatchObject({ kind: 'challenge', odds: 0.58, d100: resolveChallenge(challengeInput('CQC', 37, 80), seededRng(SEEDS[0]!)).outcome === 'rolled' ? rollD100(seededRng(SEEDS[0]!)).value : null });
    expect(troyRow).toMatchObject({ kind: 'challenge', odds: 0.56, d100: rollD100(seededRng(SEEDS[1]!)).value });
    const expectedCheck = resolveCheck({ attribute: { name: 'Aim', value: 65 }, modifiers: [{ name: 'modifier', value: -10 }] }, seededRng(SEEDS[2]!));
    expect(checkRow).toMatchObject({ kind: 'check', odds: 0.55, d100: expectedCheck.d100.value, success: expectedCheck.success });
    // The pool's odds are exact, shown to one decimal: six dice with more sixes than ones, counted face by face.
    expect(poolRow).toMatchObject({ kind: 'pool', d100: null });
    expect(Math.round((poolRow!.odds as number) * 1000) / 10).toBe(Number(shownPool![1]));
    let favourable = 0;
    for (let outcome = 0; outcome < 6 ** 6; outcome++) {
      const faces = Array.from({ length: 6 }, (_, die) => (Math.floor(outcome / 6 ** die) % 6) + 1);
      if (faces.filter((face) => face === 6).length > faces.filter((face) => face === 1).length) favourable++;
    }
    expect(poolRow!.odds).toBeCloseTo(favourable / 6 ** 6, 12);
  });

  it('a roll with no single verdict keeps none: dice notation, a linked roll', async () => {
    await troyAndKat();
    // Notation may first wait for its thread to load (a deferral, then the result): every answer is taken.
    await sandbox().act({ user: 'mike', command: 'roll dice', options: { expression: '2d6' } });
    await sandbox().one({ user: 'sasha', command: 'sheet skill set', options: { name: 'Driving', level: 30 } });
    await sandbox().one({ user: 'sasha', command: 'roll linked', options: { rolls: 'CQC 80; Driving 70' } });
    for (const row of await storedRolls(2)) expect(row).toMatchObject({ odds: null, d100: null });
  });
});

describe('/stats', () => {
  /** Troy's three Shotgun Handling rolls on the first three seeds (CLs 60, 80, 100), as the engine rolls them. */
  async function troysRolls() {
    await troyAndKat();
    const cls = [60, 80, 100];
    for (const cl of cls) await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Shotgun Handling', cl } });
    const results = cls.map((cl, index) => resolveChallenge(challengeInput('Shotgun Handling', 35, cl), seededRng(SEEDS[index]!)));
    return results.map((result) => ({ odds: result.successFaces / 100, success: result.success }));
  }

  it("a player's rolls: the counts, the expected successes, how unusual, the faces, and a PNG chart", async () => {
    const weighed = await troysRolls();
    const expected = calibrate(weighed);
    const reply = await stats({ user: 'sasha', command: 'stats', options: { player: 'mike' } });
    expect(reply).toMatchObject({ kind: 'edit', ephemeral: true, allowedMentions: { parse: [] } });
    const text = textOf(reply);
    expect(text).toContain(`Rolls of <@${sandbox().fake.user('mike').id}>.`);
    expect(text).toContain(`**3** rolls with a success or failure: **${expected.got}** succeeded; their odds expected **${expected.expected.toFixed(1)}**`);
    expect(expected.expected).toBeCloseTo(0.76 + 0.56 + 0.36, 12);
    expect(text).toContain(`**${chanceWords(expected.pValue)}**`);
    expect(text).toContain('**3** D100 faces in tens');
    expect(text).toContain('Too few to judge their spread: a fair test needs 50 faces.');
    const png = chartOf(reply);
    expect(png).toMatchObject({ signature: PNG_SIGNATURE, width: 800, height: 1000 });
    expect(png.bytes).toBeGreaterThan(10_000);
    expect(png.bytes).toBeLessThan(8 * 1024 * 1024);
  });

  it('a blind roll not yet revealed is left out for a player and counted for a Dispatcher; a shared answer leaves it out for anyone', async () => {
    await troysRolls();
    const blind = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'Shotgun Handling', cl: 80, blind: true } });
    expect(blind.content).toContain('blind');

    const player = textOf(await stats({ user: 'mike', command: 'stats', options: { player: 'mike' } }));
    expect(player).toContain('**3** rolls with a success or failure');
    expect(player).toContain('Rolls only Dispatchers may see (blind, secret, hidden CL) are left out.');

    const dispatcher = textOf(await stats({ ...DISPATCHER, command: 'stats', options: { player: 'mike' } }));
    expect(dispatcher).toContain('**4** rolls with a success or failure');
    expect(dispatcher).not.toContain('are left out');

    const shared = await stats({ ...DISPATCHER, command: 'stats', options: { player: 'mike', share: true } });
    expect(shared.ephemeral).toBe(false);
    expect(textOf(shared)).toContain('**3** rolls with a success or failure');
    expect(chartOf(shared).signature).toBe(PNG_SIGNATURE);
  });

  it('a sheet: offered by autocomplete (the asker’s own first), its rolls only', async () => {
    await troysRolls();
    await sandbox().one({ user: 'sasha', command: 'roll challenge', options: { skill: 'CQC', cl: 80 } });
    const choices = await sandbox().one({ user: 'sasha', command: 'stats', options: { sheet: '' }, focused: 'sheet' });
    const names = (choices.choices as Array<{ name: string; value: string }>).map((choice) => choice.name);
    expect(names).toEqual(['Kat · yours · Tac Talk (Decision Engine)', 'Troy · a player’s · Tac Talk (Decision Engine)']);
    const kat = (choices.choices as Array<{ name: string; value: string }>)[0]!.value;
    const text = textOf(await stats({ user: 'mike', command: 'stats', options: { sheet: kat } }));
    expect(text).toContain(`Rolls of **Kat** (<@${sandbox().fake.user('sasha').id}>'s sheet).`);
    expect(text).toContain('**1** roll with a success or failure');
    // By name too, as typed without the list.
    expect(textOf(await stats({ user: 'sasha', command: 'stats', options: { sheet: 'troy' } }))).toContain('**3** rolls with a success or failure');
  });

  it('session:True: the rolls of the play session open now, not those before it', async () => {
    await troysRolls();
    const opened = await sandbox().act({ ...DISPATCHER, command: 'session open', options: { title: 'The docks heist' } });
    expect(opened.responses.at(-1)!.ephemeral).toBe(false);
    await sandbox().one({ user: 'sasha', command: 'roll challenge', options: { skill: 'CQC', cl: 80 } });
    const text = textOf(await stats({ user: 'mike', command: 'stats', options: { session: true } }));
    expect(text).toContain('Rolls of everyone on this server in the play session “The docks heist” (open now).');
    expect(text).toContain('**1** roll with a success or failure');
  });

  it('an empty scope, an unknown sheet, two scopes at once and a session before any: each a clear private answer', async () => {
    const empty = await stats({ user: 'mike', command: 'stats' });
    expect(empty).toMatchObject({ ephemeral: true, attachments: [] });
    expect(empty.content).toContain('No rolls to weigh for everyone on this server: /stats counts rolls with a chance of success');

    const unknown = await stats({ user: 'mike', command: 'stats', options: { sheet: 'Nobody' } });
    expect(unknown).toMatchObject({ ephemeral: true });
    expect(unknown.content).toContain('No sheet named “Nobody” on this server');

    const both = await stats({ user: 'mike', command: 'stats', options: { sheet: 'Troy', player: 'sasha' } });
    expect(both.content).toContain('Pick `player:` or `sheet:`, not both');

    const session = await stats({ user: 'mike', command: 'stats', options: { session: true } });
    expect(session.content).toContain('No play session yet on this server: a Dispatcher opens one with `/session open`.');
  });
});
