/**
 * The REST proxy (`npm run proxy`, src/rest-proxy.ts): one REST queue for every process of the bot, on every machine. Each shard process has its own
 * discord.js REST queue, and each keeps Discord's global limit (50 requests a second per bot token) on its own, so
 * together they send several times that, and a global 429 one of them is given stops only that one. Bot processes
 * started with `DISCORD_API=http://<proxy>:8790/api` send every REST call here instead; @discordjs/proxy's
 * proxyRequests queues them through one @discordjs/rest REST, whose buckets, global limit and 429 handling then hold
 * back every caller at once. The proxy holds no token: each caller's Authorization header is sent on as it came.
 *
 * What this file adds around proxyRequests, each for a fault found in it (docs/scaling.md, "One REST queue"):
 * - the body is read whole before it is queued: proxyRequests hands on the caller's stream, which a retry after a
 *   429 or a 5xx would send again already consumed, i.e. empty;
 * - the caller's User-Agent is sent on (proxyRequests sends the proxy's own): Discord, and the fake, see which bot
 *   and which shards called;
 * - interaction endpoints (a reply, its follow-ups and edits; a webhook's token routes) go through a second REST
 *   without a global limit: Discord leaves them out of it, and a reply queued behind a burst of channel messages
 *   would miss its 3 s;
 * - the global limit is kept over a sliding second, at the moment each request is sent: @discordjs/rest counts fixed
 *   windows from the first request of each, which lets up to twice the limit through within one second (the end of
 *   one window and the start of the next), and its global pause does not stop requests already past its check;
 * - an upstream that cannot be reached answers 502 (proxyRequests would end the response as an empty 200).
 */
import http from 'node:http';
import { proxyRequests } from '@discordjs/proxy';
import { DefaultRestOptions, DiscordAPIError, HTTPError, RateLimitError, REST, type InternalRequest, type RESTOptions, type ResponseLike } from '@discordjs/rest';
import type { ProxyConfig } from '../config.js';
import { redactPasswords, type Logger } from '../log.js';

/** Discord's global limit: requests a second per bot token, over every process and machine. */
export const GLOBAL_REQUESTS_PER_SECOND = 50;
/**
 * Added to the second of the sliding window, as @discordjs/rest adds its `offset` to every rate limit's reset: the
 * first request of a second and the one that would be the 51st do not take equally long to reach Discord.
 */
const WINDOW_MARGIN_MS = 50;
const DISCORD_API = 'https://discord.com/api';
/** Carries the caller's User-Agent from the queue to the network request, where @discordjs/rest has set its own. */
const CALLER_AGENT = 'x-tactalk-caller-agent';
/** How long a stop waits for requests under way (a queued one may wait out a global 429) before closing them. */
const STOP_GRACE_MS = 15_000;

export interface RestProxyStats {
  /** Requests received from bot processes. */
  requests: number;
  /** Of the requests sent to Discord, those that waited first for the global limit (a full second, or a global 429). */
  heldForGlobalLimit: number;
  /** Global 429s Discord answered, each of which held every caller. */
  global429s: number;
}

export interface RunningRestProxy {
  /** What bot processes set as DISCORD_API: `http://host:port/api`. */
  url: string;
  port: number;
  /** Where it sends. */
  upstream: string;
  readonly stats: RestProxyStats;
  /** Stops taking requests, lets those under way finish (at most 15 s), then closes. */
  stop(): Promise<void>;
}

/**
 * At most `limit` requests within any second, counted as they are sent, and none while a global 429 runs. A request
 * waits here after @discordjs/rest's queues let it go, so it counts retries too, and a 429 that comes back while
 * others wait here holds them as well.
 */
class GlobalGate {
  private readonly sent: number[] = [];
  private pausedUntil = 0;
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly stats: RestProxyStats,
  ) {}

  /** Resolves when this request may be sent; requests go in the order they came. */
  pass(): Promise<void> {
    const turn = this.chain.then(() => this.wait());
    this.chain = turn;
    return turn;
  }

  /** Discord's global 429: nothing more is sent until it ends. */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + ms);
  }

  private async wait(): Promise<void> {
    let held = false;
    for (;;) {
      const now = Date.now();
      while (this.sent.length > 0 && this.sent[0]! <= now - this.windowMs) this.sent.shift();
      const until = Math.max(this.pausedUntil, this.sent.length >= this.limit ? this.sent[0]! + this.windowMs : 0);
      if (until <= now) break;
      held = true;
      await new Promise((resolve) => setTimeout(resolve, until - now));
    }
    if (held) this.stats.heldForGlobalLimit++;
    this.sent.push(Date.now());
  }
}

/** Interaction endpoints and a webhook's token routes: Discord counts none of them in the global limit. */
export function outsideGlobalLimit(fullRoute: string): boolean {
  return fullRoute.startsWith('/interactions/') || /^\/webhooks\/[^/]+\/[^/]+/.test(fullRoute);
}

function readWhole(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

export async function startRestProxy(config: ProxyConfig, log: Logger): Promise<RunningRestProxy> {
  const upstream = config.discordApi ?? DISCORD_API;
  const stats: RestProxyStats = { requests: 0, heldForGlobalLimit: 0, global429s: 0 };
  const gate = new GlobalGate(GLOBAL_REQUESTS_PER_SECOND, 1000 + WINDOW_MARGIN_MS, stats);

  const sendAs = (counted: boolean): RESTOptions['makeRequest'] => async (url, init) => {
    const { [CALLER_AGENT]: callerAgent, ...headers } = (init.headers ?? {}) as Record<string, string>;
    if (callerAgent) headers['User-Agent'] = callerAgent;
    if (counted) await gate.pass();
    const response: ResponseLike = await DefaultRestOptions.makeRequest(url, { ...init, headers });
    if (counted && response.status === 429 && response.headers.get('x-ratelimit-global')) {
      const retryAfterMs = Number(response.headers.get('retry-after') ?? 1) * 1000;
      gate.pause(retryAfterMs + DefaultRestOptions.offset);
      stats.global429s++;
      log.warn({ retryAfterMs, method: init.method, route: new URL(url).pathname }, `global rate limit from Discord: every bot process waits ${retryAfterMs} ms`);
    }
    return response;
  };
  const shared = new REST({ api: upstream, globalRequestsPerSecond: GLOBAL_REQUESTS_PER_SECOND, makeRequest: sendAs(true) });
  const interactions = new REST({ api: upstream, globalRequestsPerSecond: Number.POSITIVE_INFINITY, makeRequest: sendAs(false) });

  // One queue per incoming request, over the two shared RESTs: proxyRequests asks only for queueRequest.
  const queueFor = (req: http.IncomingMessage, res: http.ServerResponse): REST =>
    ({
      async queueRequest(request: InternalRequest) {
        stats.requests++;
        const body = request.body === req ? await readWhole(req) : undefined;
        const rest = outsideGlobalLimit(request.fullRoute) ? interactions : shared;
        const callerAgent = req.headers['user-agent'];
        // A caller that gave up (its own timeout, 15 s in discord.js, sends the request again) takes its request out of
        // the queue: sent late, it would be done twice.
        const callerGone = new AbortController();
        res.once('close', () => {
          if (!res.writableFinished) callerGone.abort();
        });
        try {
          return await rest.queueRequest({
            ...request,
            signal: callerGone.signal,
            body: body && body.length > 0 ? body : undefined,
            headers: { ...request.headers, ...(callerAgent ? { [CALLER_AGENT]: callerAgent } : {}) },
          });
        } catch (error) {
          // Discord's own answers (and a timeout, 504) are passed on by proxyRequests; anything else means no answer.
          const answered = error instanceof DiscordAPIError || error instanceof HTTPError || error instanceof RateLimitError || (error instanceof Error && error.name === 'AbortError');
          if (!answered) {
            log.error({ err: error, method: request.method, route: request.fullRoute }, 'REST proxy: Discord could not be reached');
            throw new HTTPError(502, 'Bad Gateway', request.method, `${upstream}${request.fullRoute}`, { body: undefined, files: undefined });
          }
          throw error;
        }
      },
    }) as unknown as REST;

  const server = http.createServer((req, res) => {
    Promise.resolve(proxyRequests(queueFor(req, res))(req, res)).catch((error: unknown) => {
      log.error({ err: error, method: req.method, url: req.url }, 'REST proxy: a request failed');
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as { port: number };
  const shownHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${shownHost}:${port}/api`;
  log.info({ upstream: redactPasswords(upstream) }, `REST proxy listening on ${url}, sending to ${redactPasswords(upstream)}`);

  return {
    url,
    port,
    upstream,
    stats,
    async stop() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const grace = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
      await closed;
      clearTimeout(grace);
      for (const rest of [shared, interactions]) {
        rest.clearHashSweeper();
        rest.clearHandlerSweeper();
      }
      log.info('REST proxy stopped');
    },
  };
}
