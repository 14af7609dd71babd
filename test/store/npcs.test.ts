import { describe, expect, it } from 'vitest';
import { NPC_OWNER_ID, SHEET_LIMITS, isNpc } from '../../src/engine/sheet.js';
import type { Store } from '../../src/store/index.js';
import { npcOwner } from '../../src/store/operators.js';
import { freshStoreEachTest } from '../helpers/database.js';
import { told } from '../helpers/told.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

const mike = { guildId: 'g', ownerId: '111' };

describe('NPC sheets in the store', () => {
  it('live in the server’s NPC scope: apart from players’ sheets, with unique names of their own', async () => {
    const npcs = npcOwner('g');
    const thug = await store.operators.create(npcs, 'Thug');
    expect(thug).toMatchObject({ ownerId: NPC_OWNER_ID, active: false });
    expect(isNpc(thug)).toBe(true);
    const players = await store.operators.create(mike, 'Thug');
    expect(isNpc(players)).toBe(false);
    expect((await store.operators.list(mike)).map((sheet) => sheet.id)).toEqual([players.id]);
    expect((await store.operators.list(npcs)).map((sheet) => sheet.id)).toEqual([thug.id]);
    expect(await store.operators.list(npcOwner('another server'))).toEqual([]);
    expect(await told(store.operators.create(npcs, ' THUG '))).toMatch('This server already has an NPC named **Thug**.');
    expect(await told(store.operators.byNameOrActive(npcs, 'Thugg', null))).toMatch('There is no NPC named **Thugg**. Did you mean **Thug**?');
    expect(await told(store.operators.byNameOrActive(npcs, ' ', null))).toMatch('Name the NPC');
    // Creating an NPC never changes which sheet is a player's active one.
    expect((await store.operators.active(mike, 'tactalk'))?.id).toBe(players.id);
    expect(await store.operators.delete(mike, thug.id)).toBeNull();
    expect(await store.operators.delete(npcs, thug.id)).toMatchObject({ name: 'Thug' });
  });

  it('allow a server more NPCs than a player has sheets, up to their own limit', async () => {
    const npcs = npcOwner('g');
    for (let index = 0; index < SHEET_LIMITS.npcsPerServer; index++) await store.operators.create(npcs, `NPC ${index}`);
    expect(await told(store.operators.create(npcs, 'One too many'))).toMatch(`This server already has ${SHEET_LIMITS.npcsPerServer} NPCs, the most allowed.`);
  });
});
