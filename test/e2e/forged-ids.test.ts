// Custom ids the bot never issued, with ids that are no row id (NaN, fractional, beyond a 32-bit Int): the bot
// refuses them politely instead of failing in the database (found by the reliability fuzz, issue 7). An id that is
// not a whole number is not one the command reads (src/views/component-id.ts): the router asks for the command
// again; a whole number that names no row is the store's "no longer exists".
//
// A control is honoured only from its own message (issue 22, src/discord/control-origin.ts): a form's submit naming
// `sheet:keep:1` or `table:keep` and the id of any bot message (a roll, a contest, a roll request) once turned that
// message into "Kept. Nothing was deleted." and stripped its buttons. A press counts only when its message carries
// exactly that component, a form only when its message carries the control that opens it; anything else changes
// nothing and is answered privately.
import { describe, expect, it } from 'vitest';
import type { SandboxInteractionRequest } from '../../src/sandbox/types.js';
import { freshStore } from '../helpers/database.js';
import { textOf, useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

/** The router's refusal of a form or a press its message does not carry (src/views/component-id.ts). */
const NOT_ON_MESSAGE = /does not belong to the message it was sent from|is not on the message it was sent from/;

it.each([
  ['%00', 'older version of the bot'],
  ['abc', 'older version of the bot'],
  ['1.5', 'older version of the bot'],
  ['-1', 'older version of the bot'],
  ['9007199254740993', 'older version of the bot'],
  ['', 'older version of the bot'],
  // A whole number reads, but no message of the bot ever offered this form.
  ['4294967296', NOT_ON_MESSAGE],
])('a forged contest form with the id "%s" is refused politely', async (id, refusal) => {
  const response = await sandbox().one({ user: 'eve', modal: `contest:acceptform:${id}`, fields: { stakes: 'x', operator: 'y' } });
  expect(response).toMatchObject({ kind: 'reply', ephemeral: true });
  expect(response.content).toMatch(refusal);
});

it.each([
  ['%00', 'older version of the bot'],
  // `roll` is a button of the request's, never a form.
  ['2147483648', NOT_ON_MESSAGE],
])('a forged roll request form with the id "%s" is refused politely', async (id, refusal) => {
  const response = await sandbox().one({ user: 'eve', modal: `dispatch:roll:${id}`, fields: {} });
  expect(response).toMatchObject({ kind: 'reply', ephemeral: true });
  expect(response.content).toMatch(refusal);
});

describe('a control is honoured only from its own message', () => {
  /** Every row of every table, as text: "changes nothing" means this is the same before and after. */
  async function everything(): Promise<string> {
    const tables = await sandbox().bot.store.db.$queryRawUnsafe<Array<{ name: string }>>(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_prisma%' ORDER BY name`,
    );
    const dump: Record<string, unknown> = {};
    for (const { name } of tables) dump[name] = await sandbox().bot.store.db.$queryRawUnsafe(`SELECT * FROM "${name}" ORDER BY 1`);
    return JSON.stringify(dump, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
  }

  /** The bot's three kinds of public message: a roll, a contest and a roll request, each with its id. */
  async function botMessages(): Promise<{ roll: string; contest: string; contestId: string; request: string; requestId: string }> {
    for (const [user, name, skills] of [
      ['mike', 'Troy', { CQC: 40, Driving: 30 }],
      ['kat', 'Kat', { CQC: 37 }],
    ] as const) {
      await sandbox().one({ user, command: 'sheet create', options: { name } });
      for (const [skill, level] of Object.entries(skills)) await sandbox().one({ user, command: 'sheet skill set', options: { name: skill, level } });
    }
    const roll = await sandbox().one({ user: 'mike', command: 'roll challenge', options: { skill: 'CQC', cl: 90 } });
    const contest = await sandbox().one({
      user: 'mike',
      command: 'contest start',
      options: { opponent: 'kat', intent: 'Troy disarms Kat', stakes: 'Kat is disarmed', skill: 'CQC', role: 'attacker' },
    });
    const posted = await sandbox().act({ user: 'dora', roles: ['dispatcher'], command: 'dispatch challenge', options: { player: 'mike', intent: 'get through the door', outcome: 'Troy is inside', skill: 'Driving', cl: 50 } });
    const request = posted.responses.find((response) => !response.ephemeral)!;
    return {
      roll: roll.messageId!,
      contest: contest.messageId!,
      contestId: /Contest #(\d+)/.exec(textOf(contest))![1]!,
      request: request.messageId!,
      requestId: /Request #(\d+)/.exec(textOf(request))?.[1] ?? '',
    };
  }

  /** Each forged interaction is refused privately, once, and leaves every message and the database as they were. */
  async function expectNothingChanges(forgeries: SandboxInteractionRequest[], messageIds: string[]): Promise<void> {
    const shown = () => JSON.stringify(messageIds.map((id) => sandbox().fake.message(id)));
    const [messagesBefore, databaseBefore] = [shown(), await everything()];
    for (const forged of forgeries) {
      const response = await sandbox().one(forged);
      expect(response, JSON.stringify(forged)).toMatchObject({ kind: 'reply', ephemeral: true });
      expect(response.content, JSON.stringify(forged)).toMatch(NOT_ON_MESSAGE);
    }
    expect(shown()).toBe(messagesBefore);
    expect(await everything()).toBe(databaseBefore);
  }

  it('a delete prompt\'s "Keep it" submitted as a form against a roll, a contest or a roll request changes none of them', async () => {
    const messages = await botMessages();
    const targets = [messages.roll, messages.contest, messages.request];
    const forgeries = targets.flatMap((message): SandboxInteractionRequest[] => [
      { user: 'eve', modal: 'sheet:keep:1', fields: {}, message },
      { user: 'eve', modal: 'npc:keep:1', fields: {}, message },
      { user: 'eve', modal: 'table:keep', fields: {}, message },
      // The message's own owner gains nothing either.
      { user: 'mike', modal: 'sheet:keep:1', fields: {}, message },
    ]);
    await expectNothingChanges(forgeries, targets);
  });

  it('a form whose opening button is on another message, or a button id sent as a form, changes nothing', async () => {
    const { roll, contest, contestId, request, requestId } = await botMessages();
    await expectNothingChanges(
      [
        // The Accept form of a contest, sent from a roll, and the Dispatcher's call form from the contest.
        { user: 'kat', modal: `contest:acceptform:${contestId}`, fields: { stakes: 'x' }, message: roll },
        { user: 'dora', roles: ['dispatcher'], modal: `dispatch:callform:${requestId}`, fields: { skill: 'Driving', cl: '10' }, message: contest },
        // Buttons the message does carry, sent as forms.
        { user: 'kat', modal: `contest:decline:${contestId}`, fields: {}, message: contest },
        { user: 'mike', modal: `dispatch:decline:${requestId}`, fields: {}, message: request },
      ],
      [roll, contest, request],
    );
  });

  it('a press of a button its message does not carry, or a form\'s id pressed as a button, changes nothing', async () => {
    const { roll, contest, contestId, request, requestId } = await botMessages();
    await expectNothingChanges(
      [
        { user: 'eve', button: 'sheet:keep:1', message: roll, forged: true },
        { user: 'eve', button: 'table:keep', message: contest, forged: true },
        // The request's own buttons, pressed on another message.
        { user: 'mike', button: `dispatch:decline:${requestId}`, message: contest, forged: true },
        { user: 'kat', button: `contest:decline:${contestId}`, message: request, forged: true },
        // A form's id as a button, and a select's id as a button, on the message they belong to.
        { user: 'kat', button: `contest:acceptform:${contestId}`, message: contest, forged: true },
        { user: 'kat', button: `contest:skill:${contestId}:opponent`, message: contest, forged: true },
        // A button's id sent as a select.
        { user: 'kat', select: `contest:decline:${contestId}`, values: ['x'], message: contest, forged: true },
      ],
      [roll, contest, request],
    );
  });

  it('the controls the bot put on its messages still work: Decline on the contest and on the request', async () => {
    const { contest, contestId, request, requestId } = await botMessages();
    const declined = await sandbox().act({ user: 'kat', button: `contest:decline:${contestId}`, message: contest });
    expect(declined.responses.map((response) => response.kind)).toContain('update');
    expect(textOf(sandbox().fake.message(contest)!)).toMatch(/declined/i);
    const refused = await sandbox().act({ user: 'mike', button: `dispatch:decline:${requestId}`, message: request });
    expect(refused.responses.map((response) => response.kind)).toContain('update');
    expect(textOf(sandbox().fake.message(request)!)).toContain('does not attempt it');
  });
});

it('the stores find nothing, rather than throw, for ids that cannot be a row id', async () => {
  const store = await freshStore();
  try {
    for (const id of [Number.NaN, 1.5, -1, 0, 2 ** 31, 2 ** 53]) {
      expect(await store.contests.find('1', id)).toBeNull();
      expect(await store.rollRequests.find('1', id)).toBeNull();
      expect(await store.operators.get('1', id)).toBeNull();
      expect(await store.operators.delete({ guildId: '1', ownerId: '2' }, id)).toBeNull();
    }
  } finally {
    await store.close();
  }
});
