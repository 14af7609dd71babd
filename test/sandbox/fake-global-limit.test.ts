// The fake Discord's global rate limit (FakeDiscordOptions.enforceGlobalLimit): the 51st request within a second is
// answered with Discord's global 429, as is every request while a global 429 runs; one sent after the bot was given a
// global 429, while it ran, is a violation. Off by default: every request is carried out, as before.
import { afterEach, describe, expect, it } from 'vitest';
import { FakeDiscord } from '../../src/sandbox/fake-discord.js';
import { GLOBAL_429_IN_FLIGHT_MS, GLOBAL_REQUESTS_PER_SECOND } from '../../src/sandbox/fake-traffic.js';
import { until } from '../helpers/until.js';

let fake: FakeDiscord | undefined;

afterEach(async () => {
  await fake?.stop();
  fake = undefined;
});

async function started(options: { enforceGlobalLimit?: boolean } = {}): Promise<FakeDiscord> {
  fake = new FakeDiscord(options);
  await fake.start();
  return fake;
}

function me(discord: FakeDiscord): Promise<Response> {
  return fetch(`${discord.restApi}/v10/users/@me`, { headers: { authorization: `Bot ${discord.token}` } });
}

describe("the fake Discord's global limit", () => {
  it('answers the 51st request within a second with a global 429, as Discord does, and lists it', async () => {
    const discord = await started({ enforceGlobalLimit: true });
    const first = await Promise.all(Array.from({ length: GLOBAL_REQUESTS_PER_SECOND }, () => me(discord)));
    expect(first.map((response) => response.status)).toEqual(Array(GLOBAL_REQUESTS_PER_SECOND).fill(200));

    const over = await me(discord);
    expect(over.status).toBe(429);
    expect(over.headers.get('x-ratelimit-global')).toBe('true');
    expect(over.headers.get('x-ratelimit-scope')).toBe('global');
    const body = (await over.json()) as { message: string; retry_after: number; global: boolean };
    expect(body).toMatchObject({ message: 'You are being rate limited.', global: true });
    expect(body.retry_after).toBeGreaterThan(0);
    expect(Number(over.headers.get('retry-after'))).toBe(body.retry_after);
    expect(discord.globalLimitHits).toEqual([expect.objectContaining({ method: 'GET', cause: 'over-limit', ignoredA429: false })]);
    // Not the bot's fault by itself: a process cannot know what the others sent.
    expect(discord.violations).toEqual([]);
  });

  it('refuses requests while a global 429 runs, and one sent after it was given is a violation', async () => {
    const discord = await started({ enforceGlobalLimit: true });
    discord.faults.add({ method: 'GET', status: 429, global: true, retryAfterMs: 60_000, times: 1 });
    expect((await me(discord)).status).toBe(429);
    const given = discord.faults.injected[0]!;
    // Past the time a request sent before the 429 was read could still be on its way.
    await until(() => Date.now() > given.at + GLOBAL_429_IN_FLIGHT_MS, 'the 429 read by its caller');

    const ignored = await me(discord);
    expect(ignored.status).toBe(429);
    expect(((await ignored.json()) as { global: boolean }).global).toBe(true);
    expect(discord.globalLimitHits).toEqual([expect.objectContaining({ cause: 'during-429', ignoredA429: true })]);
    expect(discord.violations).toEqual([expect.stringMatching(/GET \/api\/v10\/users\/@me: sent while a global 429 was running/)]);
  });

  it('carries out every request when the limit is not enforced (the default)', async () => {
    const discord = await started();
    const responses = await Promise.all(Array.from({ length: GLOBAL_REQUESTS_PER_SECOND + 10 }, () => me(discord)));
    expect(responses.every((response) => response.status === 200)).toBe(true);
    expect(discord.traffic.summary().peakPerSecond).toBe(GLOBAL_REQUESTS_PER_SECOND + 10);
    expect(discord.globalLimitHits).toEqual([]);
  });
});
