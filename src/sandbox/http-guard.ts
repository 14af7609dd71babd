// Who may talk to the sandbox's server. It listens on 127.0.0.1 only, but any web page the user opens can still
// make the browser send requests there: a cross-site form or `fetch` with a "simple" content type (text/plain,
// form data) needs no CORS preflight, and a page on an attacker's domain that re-resolves to 127.0.0.1 (DNS
// rebinding) is same-origin with itself and may read the answers. So, before anything else:
// - the Host must be the sandbox's own address and port (127.0.0.1:<port>, or localhost:<port>, which a rebinding
//   attacker cannot use: browsers never ask DNS for it). There is no [::1]: the server does not listen there;
// - an Origin, if the request has one (browsers send it on every cross-origin request and every non-GET one), must
//   be the sandbox's own;
// - a request that may change something in the sandbox's own API (any method but GET, HEAD and OPTIONS outside
//   /api/v<n>) must be application/json, a type no page can send cross-site without a preflight we never approve.
//   Discord's REST under /api/v<n> is exempt: discord.js sends multipart bodies there for attachments, and those
//   routes want the bot's token besides.
// The gateway's WebSocket handshake is held to the same Host and Origin (browsers do not apply CORS to WebSockets).
import type http from 'node:http';
import type { Duplex } from 'node:stream';

export interface Refusal {
  status: 403 | 415;
  message: string;
}

const DISCORD_REST = /^\/api\/v\d+(\/|$)/;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

function ownHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** Why the sandbox at `port` refuses this request (Host and Origin only when `checkBody` is false); null if it does not. */
export function sandboxRequestRefusal(req: http.IncomingMessage, port: number, checkBody = true): Refusal | null {
  const hosts = ownHosts(port);
  const host = req.headers.host?.toLowerCase();
  if (!host || !hosts.includes(host)) {
    return { status: 403, message: `the sandbox answers requests to http://${hosts[0]} only, not to ${host ? `"${host}"` : 'a request without Host'}` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !hosts.some((own) => origin.toLowerCase() === `http://${own}`)) {
    return { status: 403, message: `the sandbox answers its own page only, not one from the origin "${origin}"` };
  }
  const method = req.method ?? 'GET';
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  if (checkBody && !READS.has(method) && !DISCORD_REST.test(path)) {
    const type = req.headers['content-type'];
    const mediaType = type?.split(';')[0]!.trim().toLowerCase();
    if (mediaType !== 'application/json') {
      return { status: 415, message: `${method} ${path} takes a JSON body: send it with "content-type: application/json"${type ? ` (not "${type}")` : ''}` };
    }
  }
  return null;
}

/** Answers a refused request (Discord's error shape under /api/v<n>, the sandbox's elsewhere); true if it was refused. */
export function refuseForeignRequest(req: http.IncomingMessage, res: http.ServerResponse, port: number): boolean {
  const refusal = sandboxRequestRefusal(req, port);
  if (!refusal) return false;
  const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
  const text = JSON.stringify(DISCORD_REST.test(path) ? { message: refusal.message, code: 0 } : { error: refusal.message });
  // The body is not read: closing the connection spares reading what may be megabytes for nothing.
  res.writeHead(refusal.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), connection: 'close' });
  res.end(text);
  return true;
}

/** The same for a WebSocket handshake: answers 403 on the raw socket and closes it; true if it was refused. */
export function refuseForeignUpgrade(req: http.IncomingMessage, socket: Duplex, port: number): boolean {
  const refusal = sandboxRequestRefusal(req, port, false);
  if (!refusal) return false;
  socket.end(`HTTP/1.1 ${refusal.status} Forbidden\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(refusal.message)}\r\nconnection: close\r\n\r\n${refusal.message}`);
  return true;
}
