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
});
