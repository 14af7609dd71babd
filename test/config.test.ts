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
    [{ DISCORD_GUILD_ID: '12' }, /DISCORD_GUILD_ID must be a Discord id/],
    [{ DATABASE_URL: 'postgres://x' }, /DATABASE_URL must be a SQLite file URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ SANDBOX_PORT: '80000' }, /SANDBOX_PORT must be a port number/],
    [{ SANDBOX_PORT: 'eighty' }, /SANDBOX_PORT must be a port number/],
    [{ DISCORD_API: '127.0.0.1:8787/api' }, /DISCORD_API must be an http\(s\) URL/],
    [{ DISCORD_API: 'ws://127.0.0.1:8787/gateway' }, /DISCORD_API must be an http\(s\) URL/],
  ])('refuses %o with a clear message', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('points the bot at another Discord API (a fake Discord, a proxy) with DISCORD_API', () => {
    const config = loadConfig({ DISCORD_TOKEN: 'fake-token', DISCORD_APPLICATION_ID: '1180000000000000001', DISCORD_API: 'http://127.0.0.1:8787/api' });
    expect(config).toMatchObject({ discordToken: 'fake-token', applicationId: '1180000000000000001', discordApi: 'http://127.0.0.1:8787/api' });
  });
});
