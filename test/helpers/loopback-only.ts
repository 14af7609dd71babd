// Tests must never reach the real Discord: a forgotten `rest.api` should fail in milliseconds, not hang.
import net from 'node:net';

const LOOPBACK = /^(127\.|::1$|localhost$|::ffff:127\.)/;
const originalConnect = net.Socket.prototype.connect;

net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
  const first = args[0] as { host?: string; path?: string } | number | string | undefined;
  let host: string | undefined;
  if (typeof first === 'object' && first !== null) {
    if (first.path) return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
    host = first.host ?? 'localhost';
  } else if (typeof first === 'number') {
    host = typeof args[1] === 'string' ? args[1] : 'localhost';
  } else if (typeof first === 'string') {
    return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args); // a unix socket path
  }
  if (host !== undefined && !LOOPBACK.test(host)) {
    throw new Error(`Test tried to connect to ${host}: only loopback is allowed in tests`);
  }
  return (originalConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;
