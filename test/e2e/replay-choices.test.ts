// /roll replay's id autocompletes the server's recent rolls the member may replay, as /log shows them to that member.
import { describe, expect, it } from 'vitest';
import { agoText } from '../../src/views/log.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const DISPATCHER = { user: 'dee', roles: ['dispatcher'] };
const TWO_AND_A_HALF_MINUTES = 150_000;
/**
 * The bot's clock, set before each question to a time after a roll's stored timestamp (`choices`' `after`), so how
 * long ago a roll was made never depends on how long the test itself took.
 */
let clock = new Date();
const sandbox = useTestSandbox({ now: () => clock });

interface Choice {
  name: string;
  value: string;
}

/** When the store says the roll was made. */
async function madeAt(rollId: string): Promise<Date> {
  return (await sandbox().bot.store.rolls.find(sandbox().fake.guildId, rollId))!.createdAt;
}

/** The choices offered, the bot's clock two and a half minutes after roll `after` (else left as it is). */
async function choices(who: { user: string; roles?: string[] }, typed: string, after?: string): Promise<Choice[]> {
  if (after) clock = new Date((await madeAt(after)).getTime() + TWO_AND_A_HALF_MINUTES);
  const answer = await sandbox().one({ ...who, command: 'roll replay', options: { id: typed }, focused: 'id' });
  expect(answer.kind).toBe('autocomplete');
  const list = answer.choices as Choice[];
  expect(list.length).toBeLessThanOrEqual(25);
  for (const choice of list) {
    expect(choice.name.length).toBeLessThanOrEqual(100);
    expect(choice.value).toMatch(/^\w{8}$/);
  }
  return list;
}

const rollIdOf = (text: string): string => /Roll (\w{8})/.exec(text)![1]!;

async function climb(user = 'mike', cl = 90): Promise<string> {
  return rollIdOf(textOf(await sandbox().one({ user, command: 'roll challenge', options: { skill: 'Climbing', cl, level: 60 } })));
}

describe('/roll replay id: autocomplete', () => {
  it('offers the recent rolls newest first: id, how long ago, what and the result, each replayable by its value', async () => {
    const climbing = await climb();
    const driving = rollIdOf(textOf(await sandbox().one({ user: 'sasha', command: 'roll challenge', options: { skill: 'Driving', cl: 120, level: 30 } })));

    const offered = await choices({ user: 'mike' }, '', climbing);
    expect(offered.map((choice) => choice.value)).toEqual([driving, climbing]);
    expect(offered[1]!.name).toMatch(new RegExp(`^${climbing} · 2 min ago · Climbing 60 vs CL 90 → \\d+, (success|failure)$`));
    // Made a moment after the climb: as long ago as the store's timestamps say, whatever the test took meanwhile.
    expect(offered[0]!.name).toMatch(new RegExp(`^${driving} · ${agoText(await madeAt(driving), clock)} · Driving 30 vs CL 120 → \\d+, (success|failure)$`));

    // What was typed filters: a word of the roll, or the start of its id.
    expect((await choices({ user: 'mike' }, 'climb')).map((choice) => choice.value)).toEqual([climbing]);
    expect((await choices({ user: 'mike' }, driving.slice(0, 3).toUpperCase())).map((choice) => choice.value)).toContain(driving);
    expect(await choices({ user: 'mike' }, 'nothing like it')).toEqual([]);

    const replayed = await sandbox().one({ user: 'mike', command: 'roll replay', options: { id: offered[1]!.value } });
    expect(textOf(replayed)).toContain('the dice match');
  });

  it('keeps a secret roll to Dispatchers and a hidden CL out of a player’s choices, as /log does', async () => {
    const open = await climb();
    await sandbox().one({ ...DISPATCHER, command: 'npc create', options: { name: 'Mole' } });
    const secret = rollIdOf(textOf(await sandbox().one({ ...DISPATCHER, command: 'roll challenge', options: { npc: 'Mole', skill: 'Lying', level: 40, cl: 120, secret: true } })));
    await sandbox().one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox().one({ user: 'mike', command: 'sheet skill set', options: { name: 'Lock Picking', level: 60 } });
    const asked = await sandbox().act({ ...DISPATCHER, command: 'dispatch challenge', options: { player: 'mike', skill: 'Lock Picking', cl: 173, hidden: true, intent: 'open the door', outcome: 'Troy is in' } });
    const post = asked.responses.find((response) => !response.ephemeral)!;
    const requestId = /#(\d+)/.exec(textOf(post))![1]!;
    const taken = await sandbox().act({ user: 'mike', button: `dispatch:roll:${requestId}`, message: post.messageId! });
    const hidden = rollIdOf(textOf(taken.responses.find((response) => response.kind === 'update')!));

    const forPlayer = await choices({ user: 'mike' }, '', hidden);
    expect(forPlayer.map((choice) => choice.value)).toEqual([hidden, open]);
    expect(forPlayer[0]!.name).toMatch(new RegExp(`^${hidden} · 2 min ago · Lock Picking vs a hidden CL → \\d+, (success|failure)$`));
    // As a number of its own: a roll id may hold the digits.
    expect(JSON.stringify(forPlayer)).not.toMatch(/\b173\b/);
    expect(await choices({ user: 'mike' }, 'lying')).toEqual([]);
    // Typed in full, a secret roll's id is still not offered to a player (replaying it would be refused).
    expect(await choices({ user: 'mike' }, secret)).toEqual([]);

    const forDispatcher = await choices(DISPATCHER, '', secret);
    expect(forDispatcher.map((choice) => choice.value)).toEqual([hidden, secret, open]);
    expect(forDispatcher[1]!.name).toMatch(new RegExp(`^${secret} · 2 min ago · 🤫 Mole: Lying 40 vs CL 120 → \\d+, (success|failure)$`));
    expect(forDispatcher[0]!.name).toContain('Lock Picking 60 vs CL 173');
  });

  it('offers at most 25, the newest, and finds an older roll by its whole id', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 27; index++) ids.push(await climb('mike', 130 + index));
    const offered = await choices({ user: 'sasha' }, '');
    expect(offered.map((choice) => choice.value)).toEqual([...ids].reverse().slice(0, 25));
    expect((await choices({ user: 'sasha' }, ids[0]!)).map((choice) => choice.value)).toEqual([ids[0]]);
    expect((await choices({ user: 'sasha' }, 'CL 131 ')).map((choice) => choice.value)).toEqual([ids[1]]);
  });
});
