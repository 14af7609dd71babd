// `SHARD_COUNT=2 DATABASE_URL=postgresql://… npm start` with no token: the sandbox's fake Discord with 2 shards in one
// process and the bot's 2 shards under the shard manager (one cluster process per core, so 1 or 2 processes). Its JSON API (docs/sandbox.md) works as the
// unsharded sandbox's does, with its servers spread over the shards; SIGTERM stops every process cleanly.
import { afterEach, describe, expect, it } from 'vitest';
import { ChildBot, isAlive, type LogLine } from '../helpers/child-bot.js';
import { freshPostgresUrl } from '../helpers/database.js';
import { until } from '../helpers/until.js';

let sandbox: ChildBot | undefined;

afterEach(async () => {
  await sandbox?.kill('SIGKILL');
  sandbox = undefined;
});

async function startShardedSandbox(): Promise<{ url: string; bot: ChildBot }> {
  const bot = await ChildBot.spawn({
    env: { SHARD_COUNT: '2', DATABASE_URL: await freshPostgresUrl(), SANDBOX_PORT: '0', LOG_LEVEL: 'info' },
    readyWhen: (line) => /^no DISCORD_TOKEN: running the sandbox against a fake Discord with 2 shards/.test(line.msg ?? ''),
    readyTimeoutMs: 120_000,
  });
  sandbox = bot;
  const url = () => bot.text.map((line) => /^Sandbox ready: (http:\/\/\S+)/.exec(line)?.[1]).find(Boolean);
  await until(() => url() !== undefined, () => `the sandbox's URL:\n${bot.tail()}`);
  return { url: url()!, bot };
}

async function call(url: string, path: string, body?: object): Promise<Record<string, unknown>> {
  const response = await fetch(`${url}${path}`, body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {});
  const json = (await response.json()) as Record<string, unknown>;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

function running(bot: ChildBot): LogLine[] {
  return bot.logs.filter((line) => /^bot running as shard/.test(line.msg ?? ''));
}

function shardPids(bot: ChildBot): number[] {
  return running(bot).map((line) => line.pid as number);
}


describe('the sandbox with SHARD_COUNT=2', () => {
  it('plays in servers on both shards through the JSON API, lists their rolls, and stops every process on SIGTERM', async () => {
    const { url, bot } = await startShardedSandbox();
    await bot.waitForLog(() => running(bot).flatMap((line) => line.shards as number[]).length === 2, 30_000, 'both shards running');
    expect(running(bot).flatMap((line) => line.shards as number[]).sort()).toEqual([0, 1]);
    const pids = shardPids(bot);

    // The default server and new ones (the API's `guild`) until both shards have answered a roll.
    const answeredBy = new Set<number>();
    const guilds: (string | undefined)[] = [undefined, 'Second Table', 'Third Table', 'Fourth Table', 'Fifth Table', 'Sixth Table'];
    for (const guild of guilds) {
      // The commands are there once shard 0's process has registered the global list: retried until they are.
      let result: Record<string, unknown> | undefined;
      await until(async () => {
        const response = await fetch(`${url}/api/interactions`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ user: 'mike', ...(guild ? { guild } : {}), command: 'roll dice', options: { expression: '2d6' } }),
        });
        if (response.status === 200) result = (await response.json()) as Record<string, unknown>;
        return result !== undefined;
      }, `a roll answered in ${guild ?? 'the default server'}`);
      expect(result, `a roll in ${guild ?? 'the default server'}`).toBeDefined();
      expect(result!.errors).toEqual([]);
      expect(JSON.stringify(result!.responses)).toContain('🎲 2d6');
      const state = await call(url, `/api/server${guild ? `?guild=${encodeURIComponent(guild)}` : ''}`);
      answeredBy.add(shardOfId((state.guild as { id: string }).id));
      if (answeredBy.size === 2 && guild !== undefined && guilds.indexOf(guild) >= 2) break;
    }
    expect([...answeredBy].sort()).toEqual([0, 1]);

    // GET /api/rolls reads the database the shard processes write.
    const { rolls } = (await call(url, '/api/rolls?limit=100')) as { rolls: { kind: string; guildId: string }[] };
    expect(new Set(rolls.map((roll) => shardOfId(roll.guildId)))).toEqual(new Set([0, 1]));
    expect((await call(url, '/api/violations')).violations).toEqual([]);

    const exit = await bot.kill('SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    const stopped = bot.logs.filter((line) => /^cluster \d \(shards? [\d, ]+ of 2\): process \d+ stopped/.test(line.msg ?? ''));
    expect(stopped.map((line) => line.pid).sort()).toEqual([...pids].sort());
    expect(stopped.map((line) => line.exitCode)).toEqual(pids.map(() => 0));
    expect(bot.logs.some((line) => /did not stop within/.test(line.msg ?? ''))).toBe(false);
    expect(bot.logs.some((line) => /died/.test(line.msg ?? ''))).toBe(false);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});

/** `(guild_id >> 22) % 2`, the shard Discord sends a server's events to. */
function shardOfId(guildId: string): number {
  return Number((BigInt(guildId) >> 22n) % 2n);
}
