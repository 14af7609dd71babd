import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';

describe('the configuration', () => {
  it('has defaults for everything: no token means the sandbox on port 8787 with data/bot.db', () => {
    expect(loadConfig({})).toEqual({
      discordToken: null,
      applicationId: null,
      discordApi: null,
      deployGuildId: null,
      databaseUrl: 'file:./data/bot.db',
      logLevel: 'info',
      sandboxPort: 8787,
      shardCount: null,
      shardIds: null,
      managedShards: null,
      shardsPerProcess: 'auto',
    });
  });

  it.each([
    [{ DISCORD_TOKEN: 'abc' }, /DISCORD_APPLICATION_ID is missing/],
    [{ DISCORD_TOKEN: 'abc', DISCORD_APPLICATION_ID: 'my-bot' }, /DISCORD_APPLICATION_ID must be a Discord id/],
    [{ DISCORD_TOKEN: 'abc', DISCORD_APPLICATION_ID: '1180000000000000001', DISCORD_GUILD_ID: '12' }, /DISCORD_GUILD_ID must be a Discord id/],
    [{ DATABASE_URL: 'postgres://x' }, /DATABASE_URL names no PostgreSQL database: add it after the host/],
    [{ DATABASE_URL: 'mysql://x/db' }, /DATABASE_URL must be a SQLite file URL such as file:\.\/data\/bot\.db or a PostgreSQL one/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ SANDBOX_PORT: '80000' }, /SANDBOX_PORT must be a port number/],
    [{ SANDBOX_PORT: 'eighty' }, /SANDBOX_PORT must be a port number/],
    [{ DISCORD_TOKEN: 'abc', DISCORD_APPLICATION_ID: '1180000000000000001', DISCORD_API: '127.0.0.1:8787/api' }, /DISCORD_API must be an http\(s\) URL/],
    [{ DISCORD_TOKEN: 'abc', DISCORD_APPLICATION_ID: '1180000000000000001', DISCORD_API: 'ws://127.0.0.1:8787/gateway' }, /DISCORD_API must be an http\(s\) URL/],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    [{ DISCORD_APPLICATION_ID: '1180000000000000001' }, /^DISCORD_TOKEN is missing, but DISCORD_APPLICATION_ID is set/],
    [{ DISCORD_TOKEN: '  ', DISCORD_GUILD_ID: '1180000000000000002' }, /^DISCORD_TOKEN is empty, but DISCORD_GUILD_ID is set/],
    [{ DISCORD_API: 'http://127.0.0.1:8787/api' }, /^DISCORD_TOKEN is missing, but DISCORD_API is set/],
  ])('will not run the sandbox when %o says the bot is meant for Discord', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it.each([
    ['DISCORD_TOKNE', 'DISCORD_TOKEN'],
    ['discord_token', 'DISCORD_TOKEN'],
    ['DISCORD_BOT_TOKEN', 'DISCORD_TOKEN'],
    ['DISCORD_APPLICATIONID', 'DISCORD_APPLICATION_ID'],
    ['DISCORD_GUILDID', 'DISCORD_GUILD_ID'],
    ['DATABSE_URL', 'DATABASE_URL'],
  ])('names the variable %s was meant to be (%s) instead of ignoring it', (name, meant) => {
    const env = { [name]: name.includes('URL') ? 'file:/srv/bot.db' : 'value' };
    expect(() => loadConfig(env)).toThrow(`${name} is set, but the bot reads ${meant}: rename it to ${meant}`);
  });

  it('leaves other variables alone, even empty misspellings and near names beside the right one', () => {
    expect(loadConfig({ DISCORD_TOKNE: '', PATH: '/usr/bin', DISCORD_WEBHOOK_URL: 'https://example.com', LOGLEVEL: 'debug' }).discordToken).toBeNull();
    const both = { DISCORD_TOKEN: 'right', DISCORD_BOT_TOKEN: 'also set by the host', DISCORD_APPLICATION_ID: '1180000000000000001' };
    expect(loadConfig(both).discordToken).toBe('right');
  });

  it.each([
    ['file:/x/bot.db?mode=ro', /DATABASE_URL asks for a read-only database \("\?mode=ro"\).*Use file:\/x\/bot\.db on a file the bot may write/],
    ['file:./bot.db?immutable=1', /read-only database/],
    ['file:./bot.db?connection_limit=1', /DATABASE_URL takes the file only, without options after "\?" \("\?connection_limit=1" is not supported\)\. Use file:\.\/bot\.db\./],
    ['file:', /DATABASE_URL names no file/],
  ])('refuses DATABASE_URL=%s rather than opening a file of another name', (url, message) => {
    expect(() => loadConfig({ DATABASE_URL: url })).toThrow(message);
  });

  it('points the bot at another Discord API (a fake Discord, a proxy) with DISCORD_API', () => {
    const config = loadConfig({ DISCORD_TOKEN: 'fake-token', DISCORD_APPLICATION_ID: '1180000000000000001', DISCORD_API: 'http://127.0.0.1:8787/api' });
    expect(config).toMatchObject({ discordToken: 'fake-token', applicationId: '1180000000000000001', discordApi: 'http://127.0.0.1:8787/api' });
  });

  describe('shards', () => {
    const DISCORD = { DISCORD_TOKEN: 'abc', DISCORD_APPLICATION_ID: '1180000000000000001' };
    const POSTGRES = { DATABASE_URL: 'postgresql://tactalk@db.internal:5432/tactalk' };

    it('runs one process with no sharding unless SHARD_COUNT is set', () => {
      expect(loadConfig({ ...DISCORD, ...POSTGRES })).toMatchObject({ shardCount: null, shardIds: null, managedShards: null });
    });

    it.each([
      [{ SHARD_COUNT: '4' }, 4, null],
      [{ SHARD_COUNT: 'auto' }, 'auto', null],
      [{ SHARD_COUNT: 'AUTO', SHARD_IDS: '0-3' }, 'auto', [0, 1, 2, 3]],
      [{ SHARD_COUNT: '8', SHARD_IDS: '5, 0-2' }, 8, [0, 1, 2, 5]],
      [{ SHARD_COUNT: '6', SHARD_IDS: '0,2,5' }, 6, [0, 2, 5]],
    ])('reads %o as this machine running its shards', (env, count, ids) => {
      expect(loadConfig({ ...DISCORD, ...POSTGRES, ...env })).toMatchObject({ shardCount: count, shardIds: ids });
    });

    it.each([
      [{ SHARD_COUNT: '0' }, /SHARD_COUNT must be a whole number of shards from 1 to 10000, or auto .*not "0"/],
      [{ SHARD_COUNT: 'two' }, /SHARD_COUNT must be a whole number .*not "two"/],
      [{ SHARD_COUNT: '2.5' }, /SHARD_COUNT must be a whole number/],
      [{ SHARD_IDS: '0-1' }, /SHARD_IDS is set \("0-1"\) but SHARD_COUNT is not: set SHARD_COUNT to the number of shards on all machines together/],
      [{ SHARD_COUNT: '4', SHARD_IDS: '0,4,6' }, /SHARD_IDS names shards 4, 6, but with SHARD_COUNT=4 the shards are 0 to 3/],
      [{ SHARD_COUNT: '4', SHARD_IDS: '0-2,1' }, /SHARD_IDS names shard 1 twice \("0-2,1"\): list each shard once/],
      [{ SHARD_COUNT: '4', SHARD_IDS: '3-1' }, /SHARD_IDS has the range "3-1" backwards: write it as 1-3/],
      [{ SHARD_COUNT: '4', SHARD_IDS: 'first' }, /SHARD_IDS must list shard ids and ranges such as 0,2,5 or 0-3/],
    ])('refuses %o with a clear message', (env, message) => {
      expect(() => loadConfig({ ...DISCORD, ...POSTGRES, ...env })).toThrow(message);
    });

    it('refuses to shard over SQLite, which several processes cannot share, and names PostgreSQL', () => {
      for (const count of ['2', 'auto']) {
        expect(() => loadConfig({ ...DISCORD, SHARD_COUNT: count })).toThrow(
          new RegExp(`^SHARD_COUNT=${count} runs the shards in several processes \\(SHARDS_PER_PROCESS shards each\\), and several processes cannot share one SQLite file \\(file:\\./data/bot\\.db\\)\\. Use PostgreSQL .*docs/scaling\\.md`),
        );
      }
      // One shard is one process: SQLite serves it.
      expect(loadConfig({ ...DISCORD, SHARD_COUNT: '1' }).shardCount).toBe(1);
    });

    it('runs the sandbox sharded with a number, not with auto or SHARD_IDS (it runs every shard)', () => {
      expect(loadConfig({ ...POSTGRES, SHARD_COUNT: '2' })).toMatchObject({ discordToken: null, shardCount: 2 });
      expect(() => loadConfig({ ...POSTGRES, SHARD_COUNT: 'auto' })).toThrow(/SHARD_COUNT=auto asks Discord .* set SHARD_COUNT to a number \(e\.g\. 2\) to run the sandbox sharded/);
      expect(() => loadConfig({ ...POSTGRES, SHARD_COUNT: '2', SHARD_IDS: '0' })).toThrow(/without DISCORD_TOKEN the bot runs the sandbox, which runs every shard: unset SHARD_IDS/);
    });

    it('reads the shards the shard manager gives a cluster process it spawns (SHARD_LIST, TOTAL_SHARDS, CLUSTER)', () => {
      const spawned = { ...DISCORD, ...POSTGRES, SHARD_COUNT: '3', CLUSTER_MANAGER: 'true', SHARD_LIST: '2', TOTAL_SHARDS: '3', CLUSTER: '1' };
      expect(loadConfig(spawned).managedShards).toEqual({ ids: [2], count: 3, cluster: 1 });
      expect(loadConfig({ ...spawned, SHARD_LIST: '0,1', CLUSTER: '0' }).managedShards).toEqual({ ids: [0, 1], count: 3, cluster: 0 });
      // The manager itself, and any process it did not spawn, runs no shards of its own.
      expect(loadConfig({ ...DISCORD, ...POSTGRES, SHARD_COUNT: '3' }).managedShards).toBeNull();
      for (const wrong of [{ SHARD_LIST: '3' }, { SHARD_LIST: '' }, { SHARD_LIST: '0,x' }, { SHARD_LIST: '1,1' }, { TOTAL_SHARDS: 'three' }, { CLUSTER: undefined }]) {
        expect(() => loadConfig({ ...spawned, ...wrong })).toThrow(/SHARD_LIST=".*", TOTAL_SHARDS=".*" and CLUSTER=".*" from the shard manager do not name shards of that count/);
      }
    });

    it.each([
      [{ SHARD_COUNT: '16' }, 'auto'],
      [{ SHARD_COUNT: '16', SHARDS_PER_PROCESS: 'auto' }, 'auto'],
      [{ SHARD_COUNT: '16', SHARDS_PER_PROCESS: '4' }, 4],
      [{ SHARD_COUNT: 'auto', SHARDS_PER_PROCESS: ' 1 ' }, 1],
    ])('reads %o as that many shards in each process', (env, perProcess) => {
      expect(loadConfig({ ...DISCORD, ...POSTGRES, ...env }).shardsPerProcess).toBe(perProcess);
    });

    it.each([
      [{ SHARD_COUNT: '4', SHARDS_PER_PROCESS: '0' }, /SHARDS_PER_PROCESS must be a whole number of shards from 1 to 10000, or auto .*not "0"/],
      [{ SHARD_COUNT: '4', SHARDS_PER_PROCESS: 'two' }, /SHARDS_PER_PROCESS must be a whole number .*not "two"/],
      [{ SHARDS_PER_PROCESS: '4' }, /SHARDS_PER_PROCESS is set \("4"\) but SHARD_COUNT is not: .*set SHARD_COUNT too/],
    ])('refuses %o with a clear message', (env, message) => {
      expect(() => loadConfig({ ...DISCORD, ...POSTGRES, ...env })).toThrow(message);
    });
  });
});
