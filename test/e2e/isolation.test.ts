// Server isolation (issue 11): every command option and button that takes an id, given an id from another server,
// answers exactly as for an id never used, and changes nothing in the database.
import { beforeEach, describe, expect, it } from 'vitest';
import { tableToJson, type OutcomeTable } from '../../src/engine/tables.js';
import type { SandboxInteractionRequest, SandboxResponse } from '../../src/sandbox/types.js';
import { textOf, useTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ELSEWHERE = 'Elsewhere';
const DISPATCHER = { user: 'dora', roles: ['dispatcher'] };
const sandbox = useTestSandbox();

function componentsOf(response: SandboxResponse): Array<{ custom_id: string; label?: string }> {
  return (response.components as Array<{ components: Array<{ custom_id: string; label?: string }> }>).flatMap((row) => row.components);
}

/** Every row of every table, as text: "changes nothing" means this is the same before and after. */
async function everything(box: TestSandbox): Promise<string> {
  const tables = await box.bot.store.db.$queryRawUnsafe<Array<{ name: string }>>(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_prisma%' ORDER BY name`,
  );
  const dump: Record<string, unknown> = {};
  for (const { name } of tables) dump[name] = await box.bot.store.db.$queryRawUnsafe(`SELECT * FROM "${name}" ORDER BY 1`);
  return JSON.stringify(dump, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
}

/**
 * A press of a component the bot never put in this server: pushed onto one of the bot's messages in the other
 * server for one press (as a forged client would send it), then taken off again. Returns the bot's answers.
 */
async function forgedPress(box: TestSandbox, request: Omit<SandboxInteractionRequest, 'message'>, kind: 'button' | 'select' | 'modal', customId: string): Promise<SandboxResponse[]> {
  if (kind === 'modal') return (await box.act({ ...request, modal: customId, fields: { stakes: 'x', operator: 'y' } })).responses;
  const messages = box.fake.messages(box.fake.guild(ELSEWHERE).channelId);
  const target = messages.at(-1);
  if (!target) throw new Error('the other server has no bot message to press on');
  const record = (box.fake as unknown as { state: { messages: Map<string, { components: unknown[] }> } }).state.messages.get(target.id)!;
  const original = record.components;
  const forged = kind === 'select' ? { type: 3, custom_id: customId, options: [{ label: 'Stressed', value: 'Stressed' }] } : { type: 2, style: 2, custom_id: customId, label: 'forged' };
  record.components = [...original, { type: 1, components: [forged] }];
  try {
    const press = kind === 'select' ? { ...request, select: customId, values: ['Stressed'], message: target.id } : { ...request, button: customId, message: target.id };
    return (await box.act(press)).responses;
  } finally {
    record.components = original;
  }
}

/** What a user reads of the answers, with the id they named replaced, so that two ids can be compared. */
const readAs = (responses: SandboxResponse[], id: string) => responses.map((response) => ({ kind: response.kind, ephemeral: response.ephemeral, text: textOf(response).replaceAll(id, '<id>') }));

interface Target {
  what: string;
  kind: 'button' | 'select' | 'modal';
  /** The custom_id for an id; `home` is the id made on the home server, `missing` one never used. */
  customId: (id: string) => string;
  home: string;
  missing: string;
  as?: Partial<SandboxInteractionRequest>;
}

describe('an id from another server', () => {
  let box: TestSandbox;
  const targets: Target[] = [];
  let homePress: SandboxInteractionRequest | undefined;

  beforeEach(async () => {
    box = sandbox();
    targets.length = 0;
    // On the home server (the sandbox's own): a sheet, an NPC, tables, and one of every roll a button continues.
    // A sheet of each system the rolls below read (a player has an active sheet per system); Troy, the Tac Talk one, last.
    await box.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy d100', system: 'd100-tactics' } });
    for (const [name, value] of [['Aim', 200], ['Health', 20]] as const) await box.one({ user: 'mike', command: 'sheet attribute set', options: { name, value } });
    await box.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy d6', system: 'd6-pool' } });
    await box.one({ user: 'mike', command: 'sheet attribute set', options: { name: 'STR', value: 3 } });
    await box.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Force', level: 2 } });
    await box.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy', system: 'tactalk' } });
    await box.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    await box.one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat d100', system: 'd100-tactics' } });
    await box.one({ user: 'sasha', command: 'sheet attribute set', options: { name: 'Health', value: 12 } });
    await box.one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat d6', system: 'd6-pool' } });
    await box.one({ user: 'sasha', command: 'sheet attribute set', options: { name: 'EMP', value: 2 } });
    await box.one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat' } });
    const troy = (await box.bot.store.operators.active({ guildId: box.fake.guildId, ownerId: box.fake.user('mike').id }, 'tactalk'))!;
    await box.one({ ...DISPATCHER, command: 'npc create', options: { name: 'Thug' } });
    const fall: OutcomeTable = { name: 'Fall', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 200, text: 'You fall.', next: 'Landing', reveals: null }] };
    const landing: OutcomeTable = { name: 'Landing', die: 'd100', asks: '', skill: null, rows: [{ min: 1, max: 200, text: 'You land.', next: null, reveals: null }] };
    for (const table of [fall, landing]) await box.one({ ...DISPATCHER, command: 'table import', options: { file: { filename: `${table.name}.json`, content: tableToJson(table) } } });

    const outcome = await box.one({ user: 'mike', command: 'roll outcome', options: { table: 'Fall' } });
    const attack = await box.one({ user: 'mike', command: 'tactics attack', options: { target: 'sasha', weapon_base: 6, weapon_range: 3, cover: 'none' } });
    const pool = await box.one({ user: 'mike', command: 'pool', options: { skill: 'Force', against: 'sasha', their_skill: 'Insight' } });
    const cumulative = await box.one({ user: 'mike', command: 'd10 extended', options: { dice: 2, tn: 8, target: 1000, rolls: 4, calm: true } });
    const contest = await box.one({ user: 'mike', command: 'contest start', options: { opponent: 'sasha', intent: 'Troy outclimbs Kat', stakes: 'Kat falls behind', skill: 'Climbing', role: 'attacker' } });
    await box.act({ ...DISPATCHER, command: 'dispatch challenge', options: { intent: 'climb the wall', outcome: 'on the roof', player: 'mike', skill: 'Climbing', cl: 90, hidden: true } });
    const request = (await box.bot.store.db.rollRequest.findFirst({ orderBy: { id: 'desc' } }))!;
    const deletePrompt = await box.one({ user: 'mike', command: 'sheet delete', options: { name: 'Troy' } });
    const npcDeletePrompt = await box.one({ ...DISPATCHER, command: 'npc delete', options: { name: 'Thug' } });

    const customIdOf = (response: SandboxResponse, prefix: string) => {
      const found = componentsOf(response).find((component) => component.custom_id.startsWith(prefix));
      expect(found, `${prefix} on ${textOf(response)}`).toBeDefined();
      return found!.custom_id;
    };
    const idIn = (customId: string, index = 2) => customId.split(':')[index]!;
    const contestId = /Contest #(\d+)/.exec(textOf(contest))![1]!;
    const nextId = customIdOf(outcome, 'table:next:');
    homePress = { user: 'mike', button: nextId, message: outcome.messageId! };
    targets.push(
      { what: 'the next table of an outcome roll', kind: 'button', customId: (id) => `table:next:${id}:${troy.id}`, home: idIn(nextId), missing: 'zzzzzzzz', as: { user: 'mike' } },
      { what: 'Apply damage', kind: 'button', customId: (id) => `tactics:apply:${id}`, home: idIn(customIdOf(attack, 'tactics:apply:')), missing: 'zzzzzzzz', as: { user: 'mike' } },
      { what: 'the opposed pool roll', kind: 'button', customId: (id) => `pool:oppose:${id}`, home: idIn(customIdOf(pool, 'pool:oppose:')), missing: 'zzzzzzzz', as: { user: 'sasha' } },
      { what: 'a push', kind: 'button', customId: (id) => `pool:push:${id}`, home: idIn(customIdOf(pool, 'pool:oppose:')), missing: 'zzzzzzzz', as: { user: 'mike' } },
      { what: "a push's condition", kind: 'select', customId: (id) => `pool:condition:${id}`, home: idIn(customIdOf(pool, 'pool:oppose:')), missing: 'zzzzzzzz', as: { user: 'mike' } },
      { what: 'Roll again of a cumulative roll', kind: 'button', customId: (id) => `d10:again:${id}:2`, home: idIn(customIdOf(cumulative, 'd10:again:')), missing: 'zzzzzzzz', as: { user: 'mike' } },
      { what: 'accepting a contest', kind: 'button', customId: (id) => `contest:accept:${id}`, home: contestId, missing: '999999', as: { user: 'sasha' } },
      { what: 'cancelling a contest', kind: 'button', customId: (id) => `contest:cancel:${id}`, home: contestId, missing: '999999', as: DISPATCHER },
      { what: "a contest's accept form", kind: 'modal', customId: (id) => `contest:acceptform:${id}`, home: contestId, missing: '999999', as: { user: 'sasha' } },
      { what: 'rolling a roll request', kind: 'button', customId: (id) => `dispatch:roll:${id}`, home: String(request.id), missing: '999999', as: { user: 'mike' } },
      { what: "a hidden roll request's numbers", kind: 'button', customId: (id) => `dispatch:details:${id}`, home: String(request.id), missing: '999999', as: DISPATCHER },
      { what: 'deleting a sheet', kind: 'button', customId: (id) => `sheet:delete:${id}`, home: idIn(customIdOf(deletePrompt, 'sheet:delete:')), missing: '999999', as: { user: 'mike' } },
      { what: 'deleting an NPC', kind: 'button', customId: (id) => `npc:delete:${id}`, home: idIn(customIdOf(npcDeletePrompt, 'npc:delete:')), missing: '999999', as: DISPATCHER },
    );
    // The other server: the same people, with every right there, and one message of the bot's to press on.
    await box.one({ user: 'mike', guild: ELSEWHERE, command: 'tactics damage', options: { base: 5, range: 4 } });
  });

  it('is not found by /roll replay, which answers as for an id never used (even with Manage Server there)', async () => {
    const rollId = /Roll (\w{8})/.exec(textOf(await box.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } })))![1]!;
    const before = await everything(box);
    const asked = { user: 'eve', guild: ELSEWHERE, permissions: ['ManageGuild'], roles: ['dispatcher'], command: 'roll replay' };
    const foreign = await box.act({ ...asked, options: { id: rollId } });
    const missing = await box.act({ ...asked, options: { id: 'zzzzzzzz' } });
    expect(readAs(foreign.responses, rollId)).toEqual(readAs(missing.responses, 'zzzzzzzz'));
    expect(foreign.responses[0]).toMatchObject({ ephemeral: true });
    expect(await everything(box)).toBe(before);
    // At home the same id replays: it is a real roll.
    expect(textOf(await box.one({ user: 'eve', command: 'roll replay', options: { id: rollId } }))).toContain(`Roll ${rollId}: the dice match`);
  });

  it('is not found by any button, select or form that names it, and changes nothing', async () => {
    for (const target of targets) {
      const request = { user: 'mike', ...target.as, guild: ELSEWHERE, permissions: ['ManageGuild'] };
      const before = await everything(box);
      const foreign = await forgedPress(box, request, target.kind, target.customId(target.home));
      expect(await everything(box), `${target.what}: changed something`).toBe(before);
      const missing = await forgedPress(box, request, target.kind, target.customId(target.missing));
      expect(readAs(foreign, target.home), target.what).toEqual(readAs(missing, target.missing));
      expect(foreign.every((response) => response.ephemeral), `${target.what}: answered in public`).toBe(true);
    }
    // The ids are real: at home, the same next-table button rolls.
    const home = await box.act(homePress!);
    expect(home.responses.map((response) => response.kind)).toEqual(['deferred', 'followup', 'edit']);
  });
});
