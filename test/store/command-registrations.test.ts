// The global command list's registration as the store keeps it: one digest per Discord and application, written only
// once Discord took the list; and the servers an older version gave a list of their own, found in one query, each
// process finding those of its own shards. On SQLite, and on PostgreSQL in the scale suite.
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { freshStoreEachTest } from '../helpers/database.js';

let store: Store;
freshStoreEachTest((opened) => (store = opened));

/** A snowflake whose shard of 3 is `shard`: `(id >> 22) % 3`. */
const onShard = (shard: number, n: number) => String(((BigInt(999 + n * 3 + shard) << 22n) | 5n));

describe('the command registrations', () => {
  it('keeps one digest per scope, replaced by the next registration', async () => {
    expect(await store.commandRegistrations.digest('discord.com 42')).toBeNull();
    await store.commandRegistrations.recordRegistered('discord.com 42', 'a', new Date('2026-11-27T08:00:00Z'));
    await store.commandRegistrations.recordRegistered('sandbox 42', 'b', new Date('2026-11-27T08:00:00Z'));
    await store.commandRegistrations.recordRegistered('discord.com 42', 'c', new Date('2026-11-27T09:00:00Z'));
    expect(await store.commandRegistrations.digest('discord.com 42')).toBe('c');
    expect(await store.commandRegistrations.digest('sandbox 42')).toBe('b');
    expect(await store.db.commandRegistration.findUnique({ where: { scope: 'discord.com 42' } })).toMatchObject({ registeredAt: new Date('2026-11-27T09:00:00Z') });
  });

  it('finds the servers with a list of their own, of every shard or of some', async () => {
    const servers = [onShard(0, 1), onShard(1, 2), onShard(2, 3), onShard(0, 4)];
    for (const guildId of servers) await store.servers.update(guildId, { commandsDigest: 'old' });
    await store.servers.update(onShard(1, 5), { dispatcherRoleId: null });
    await store.servers.update('not-a-snowflake', { commandsDigest: 'old' });
    expect(await store.commandRegistrations.serversWithOwnLists(null)).toEqual([...servers, 'not-a-snowflake'].sort());
    expect(await store.commandRegistrations.serversWithOwnLists({ ids: [0], count: 3 })).toEqual([servers[0], servers[3]].sort());
    expect(await store.commandRegistrations.serversWithOwnLists({ ids: [1, 2], count: 3 })).toEqual([servers[1], servers[2]].sort());
    await store.servers.update(servers[1]!, { commandsDigest: null });
    expect(await store.commandRegistrations.serversWithOwnLists({ ids: [1, 2], count: 3 })).toEqual([servers[2]]);
  });
});
