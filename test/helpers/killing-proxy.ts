// Between a bot process and the fake Discord's REST API: passes every request on, and once armed kills the bot when
// the n-th request that answers an interaction or writes to the channel arrives (callbacks, follow-ups, webhook edits,
// channel messages), at one of two moments:
//   before  the request is dropped: Discord never gets it (the bot did all the work before it, the user sees nothing);
//   after   the request is carried out by the fake, and the bot is killed before it reads the answer (the user sees
//           it, and whatever the bot meant to do next never happens).
// The kill is synchronous (`kill` must send SIGKILL at once), so the bot cannot retry the request or run anything else.
// An arming may count interaction callbacks only (`'callback'`): the kill lands on the answer itself, whatever the bot
// posted before it (test/reliability/restart-kill.reliability.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type KillMoment = 'before' | 'after';
/** What an arming counts: every request of WRITES, or interaction callbacks only. */
export type KillOn = 'write' | 'callback';

const CALLBACK = /^\/api\/v\d+\/interactions\/\d+\/[^/]+\/callback/;
/** A request that answers an interaction or writes to the channel: what a kill there leaves half done. */
const WRITES = [
  CALLBACK,
  /^\/api\/v\d+\/webhooks\/\d+\/[^/]+(\/messages\/[^/?]+)?(\?|$)/,
  /^\/api\/v\d+\/channels\/\d+\/messages/,
];

export interface KillRecord {
  method: string;
  /** The path, interaction tokens left out. */
  path: string;
  moment: KillMoment;
}

export class KillingProxy {
  private readonly server = http.createServer((req, res) => this.onRequest(req, res));
  private armed?: { left: number; moment: KillMoment; on: KillOn; kill: () => void; resolve: (record: KillRecord) => void };
  /** Requests of the kinds counted, since the start. */
  counted = 0;

  constructor(private readonly target: () => string) {}

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  get restApi(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api`;
  }

  /**
   * Kills on the `nth` request from now (1: the next) of those `on` counts (default every write), at `moment`;
   * resolves once `kill` was called.
   */
  arm(nth: number, moment: KillMoment, kill: () => void, on: KillOn = 'write'): Promise<KillRecord> {
    return new Promise((resolve) => {
      this.armed = { left: nth, moment, on, kill, resolve };
    });
  }

  get isArmed(): boolean {
    return this.armed !== undefined;
  }

  disarm(): void {
    this.armed = undefined;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private onRequest(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = req.url ?? '';
    const counted = req.method !== 'GET' && WRITES.some((pattern) => pattern.test(url));
    let fire: (() => void) | undefined;
    if (counted) {
      this.counted++;
      const armed = this.armed;
      if (armed && (armed.on === 'write' || CALLBACK.test(url)) && --armed.left <= 0) {
        this.armed = undefined;
        const record: KillRecord = { method: req.method ?? '', path: url.replace(/\/[A-Za-z0-9_.-]{60,}/g, '/<token>'), moment: armed.moment };
        fire = () => {
          armed.kill();
          armed.resolve(record);
        };
        if (armed.moment === 'before') {
          fire();
          req.resume();
          res.destroy();
          return;
        }
      }
    }
    // A proxy in front of the fake names the fake as the host, as a real one would (the sandbox refuses other hosts).
    const upstream = http.request(`${this.target()}${url}`, { method: req.method, headers: { ...req.headers, host: new URL(this.target()).host } }, (answer) => {
      if (fire) {
        // Carried out; the bot dies before it reads the answer.
        fire();
        answer.resume();
        res.destroy();
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }
}
