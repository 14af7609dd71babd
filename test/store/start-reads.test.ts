// What a start and a roll read first: a server's settings, a member's active sheet, the expiry sweep's overdue
// contests. Each must be what the rows hold, defaults included, on both databases (`npm run test:scale` runs this
// file on PostgreSQL too).
import { describe, expect, it } from 'vitest';
import { postContest, proposeContest } from '../../src/engine/systems/tactalk/contest.js';
import type { Store } from '../../src/store/index.js';
import { freshStoreEachTest } from '../helpers/database.js';

const guildId = 'guild-1';
const mike = { guildId, ownerId: 'mike' };

/** The settings' fields as Prisma reads the row. */
async function settingsByPrisma(store: Store, guild: string) {
  const row = await store.db.server.findUniqueOrThrow({ where: { guildId: guild } });
  const { createdAt: _createdAt, updatedAt: _updatedAt, ...settings } = row;
  return settings;
}

describe('what a start and a roll read', () => {
  let store: Store;
  freshStoreEachTest((opened) => (store = opened));

  it('a server’s settings: the defaults of a server with no row are the schema’s own, and every change reads back as Prisma reads it', async () => {
    const unknown = await store.servers.settings(guildId);
    await store.db.server.create({ data: { guildId } });
    expect(unknown).toEqual(await settingsByPrisma(store, guildId));

    const welcomedAt = new Date('2026-11-24T10:11:12.345Z');
    await store.servers.update(guildId, { contestAddsOwnSkill: true, playerChallengeRolls: false, dispatcherRoleId: 'role-7', contestTimeoutMinutes: 42, playedSystems: '["tactalk"]', welcomedAt });
    const changed = await store.servers.settings(guildId);
    expect(changed).toEqual(await settingsByPrisma(store, guildId));
    expect(changed).toMatchObject({ contestAddsOwnSkill: true, playerChallengeRolls: false, dispatcherRoleId: 'role-7', contestTimeoutMinutes: 42, welcomedAt });

    await store.servers.update(guildId, { dispatcherRoleId: null, commandsDigest: 'abc' });
    expect(await store.servers.settings(guildId)).toMatchObject({ dispatcherRoleId: null, commandsDigest: 'abc', contestAddsOwnSkill: true });
    expect(await store.servers.settings(guildId)).toEqual(await settingsByPrisma(store, guildId));
  });

  it('a server’s first change makes its row, with the rest at their defaults and dates Prisma reads', async () => {
    const before = Date.now();
    const returned = await store.servers.update('guild-2', { commandsDigest: 'digest' });
    const row = await store.db.server.findUniqueOrThrow({ where: { guildId: 'guild-2' } });
    expect(returned).toEqual(await settingsByPrisma(store, 'guild-2'));
    expect(row).toMatchObject({ commandsDigest: 'digest', contestTimeoutMinutes: 15, playerChallengeRolls: true, welcomedAt: null });
    expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
    // The welcome's claim (Prisma) sees the row made directly.
    expect(await store.servers.claimWelcome('guild-2', new Date())).toBe(true);
    expect(await store.servers.claimWelcome('guild-2', new Date())).toBe(false);
  });

  it('a member’s active sheet: every entry, in order, as Prisma’s read of the same sheet', async () => {
    const troy = await store.operators.create(mike, 'Troy', 'd10-pool');
    await store.operators.setSkill(troy, 'Stealth', 3);
    await store.operators.setSkill(troy, 'Climbing', 2);
    await store.operators.setAttribute(troy, 'Strength', 4);
    await store.operators.setAttribute(troy, 'Agility', 1);
    await store.operators.setCondition(troy, { name: 'Wounded', modifier: -1, skills: ['climbing', 'stealth'], expiresAt: new Date('2026-12-01T08:00:00.500Z') }, new Date());
    await store.operators.setCondition(troy, { name: 'Bold', modifier: 1, skills: null, expiresAt: null }, new Date());
    await store.operators.setNotes(troy, 'Owes Kat a favour.');
    const tactalk = await store.operators.create(mike, 'Sasha');
    await store.operators.setArchetype(tactalk, 'Grit', 10);
    await store.operators.setArchetype(tactalk, 'Acuity', 5);

    const active = await store.operators.active(mike, 'd10-pool');
    expect(active).toEqual(await store.operators.get(guildId, troy.id));
    expect(active?.skills.map((skill) => skill.name)).toEqual(['Climbing', 'Stealth']);
    expect(active?.conditions).toEqual([
      { name: 'Bold', modifier: 1, skills: null, expiresAt: null },
      { name: 'Wounded', modifier: -1, skills: ['climbing', 'stealth'], expiresAt: new Date('2026-12-01T08:00:00.500Z') },
    ]);
    expect(await store.operators.active(mike, 'tactalk')).toEqual(await store.operators.get(guildId, tactalk.id));
    expect(await store.operators.active({ guildId, ownerId: 'nobody' }, 'tactalk')).toBeNull();
  });

  it('with no sheet of the system active, the only one stands in; with two, none does; the newest active wins', async () => {
    // A scope each, read once: the raw updates below pass the store's caches by.
    const owner = (ownerId: string) => ({ guildId, ownerId });
    const only = await store.operators.create(owner('a'), 'Only');
    await store.db.operator.updateMany({ where: { id: only.id }, data: { active: false } });
    expect((await store.operators.active(owner('a'), 'tactalk'))?.name).toBe('Only');

    await store.operators.create(owner('b'), 'One');
    await store.operators.create(owner('b'), 'Two');
    await store.db.operator.updateMany({ where: { ownerId: 'b' }, data: { active: false } });
    expect(await store.operators.active(owner('b'), 'tactalk')).toBeNull();

    const older = await store.operators.create(owner('c'), 'Older');
    await store.operators.create(owner('c'), 'Newer');
    await store.db.operator.updateMany({ where: { ownerId: 'c' }, data: { active: true } });
    await store.db.operator.update({ where: { id: older.id }, data: { notes: 'touched last', updatedAt: new Date(Date.now() + 60_000) } });
    expect((await store.operators.active(owner('c'), 'tactalk'))?.name).toBe('Older');
  });

  it('the expiry sweep’s overdue contests: open and draft ones past their time, oldest first, as stored', async () => {
    const at = (minutes: number) => new Date(Date.UTC(2026, 10, 24, 12, minutes));
    const draftState = proposeContest({ challengerId: 'mike', opponentId: 'sasha', challengerOperator: { id: 1, name: 'Troy' }, intent: 'Climb first', stakes: 'The rope', addsOwnSkill: false });
    const states = { draft: draftState, proposed: postContest(draftState), ended: { ...draftState, phase: 'ended' as const } };
    const make = async (phase: keyof typeof states, expiresAt: Date) =>
      (await store.db.contest.create({ data: { guildId, channelId: 'c', challengerId: 'mike', opponentId: 'sasha', phase, state: JSON.stringify(states[phase]), expiresAt } })).id;
    const late = await make('proposed', at(10));
    const draft = await make('draft', at(5));
    await make('proposed', at(50)); // not yet due
    await make('ended', at(1)); // over
    const overdue = await store.contests.overdue(at(30));
    expect(overdue.map((contest) => contest.id)).toEqual([draft, late]);
    expect(overdue.map((contest) => contest.expiresAt)).toEqual([at(5), at(10)]);
    const byPrisma = await store.db.contest.findUniqueOrThrow({ where: { id: late } });
    expect(overdue[1]).toMatchObject({ guildId, channelId: 'c', messageId: null, version: byPrisma.version, expiresAt: byPrisma.expiresAt });
  });
});
