/**
 * One pino logger: pretty on a terminal, JSON lines otherwise. Children carry guild, user and interaction id.
 * Every line passes through `redactSecrets` on its way out, whoever logged it and in whatever field: no token, and no
 * password of a database URL (`redactPasswords`, also used wherever such a URL is shown).
 */
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** The logger's levels (pino's, and `silent`), the values LOG_LEVEL may take. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const REDACTED = '[REDACTED]';

// An interaction token is a password for 15 minutes: whoever has it can answer, edit and delete in the bot's name.
// discord.js puts it in the URLs of its errors (`DiscordAPIError.url`, `HTTPError.url`), which end up in messages,
// stacks and nested fields alike, so the finished line is scrubbed rather than each field that might carry one.
const SECRETS: Array<[RegExp, string]> = [
  // /interactions/<id>/<token>/callback and /webhooks/<application id>/<token>[/messages/…]
  [/(\/(?:interactions|webhooks)\/\d+\/)[^/?#\s"'\\]+/g, `$1${REDACTED}`],
  // Discord's interaction tokens, wherever else one is written: base64 of "interaction:" and more.
  [/aW50ZXJhY3Rpb246[\w-]+/g, REDACTED],
  // A bot token's shape (base64 user id . timestamp . signature), e.g. in a string that echoes a header.
  [/[\w-]{23,}\.[\w-]{6}\.[\w-]{27,}/g, REDACTED],
  // Any field named …token, authorization or …password, at any depth (the line is JSON: "key":"value").
  [/("(?:[A-Za-z_]*[Tt]oken|[Aa]uthorization|[A-Za-z_]*[Pp]ass(?:word|wd))":)"(?:[^"\\]|\\.)*"/g, `$1"${REDACTED}"`],
];

// A database URL's password, wherever it sits: in the userinfo (`postgresql://user:secret@host`), as a query or
// keyword parameter (`?password=secret`, `sslpassword=…`, `PGPASSWORD=…`), under any scheme, misspelt ones too, and
// in text no URL parser would take (an unencoded @ or / in the password). A password may hold @ (the last one before
// the host ends it); in the URLs of the web a path may hold `/@me`, so there a password stops at the first /.
const PASSWORDS: Array<[RegExp, string]> = [
  [/((?:\b[a-z][a-z0-9+.-]*:?)?\/\/[^\s/?#@:"'\\]*:)[^\s/"'\\]*@/gi, `$1${REDACTED}@`],
  [/(\b(?!(?:https?|wss?):)[a-z][a-z0-9+.-]*:?\/\/[^\s/?#@:"'\\]*:)[^\s"'\\]*@/gi, `$1${REDACTED}@`],
  [/((?<![a-z0-9_])(?:ssl|pg)?pass(?:word|wd)?=)[^&\s"'#\\]*/gi, `$1${REDACTED}`],
];

/**
 * `text` with every password of a database URL in it replaced by [REDACTED]: the one redaction for wherever a
 * DATABASE_URL (or a URL given to `npm run db:copy`) is shown or logged. Takes any text, a URL that does not parse
 * included, and leaves the rest of it as it was (the user, the host, the database name).
 */
export function redactPasswords(text: string): string {
  let out = text;
  for (const [pattern, replacement] of PASSWORDS) out = out.replace(pattern, replacement);
  return out;
}

/** A log line with every token and password it carries replaced by [REDACTED]. */
export function redactSecrets(line: string): string {
  let out = redactPasswords(line);
  for (const [pattern, replacement] of SECRETS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * pino's error serializer, minus the files a failed Discord request carried: their bytes would be logged as arrays
 * of numbers, thousands per attachment. Their names and sizes say which request it was.
 */
function serializeError(value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  const serialized = stdSerializers.err(value) as ReturnType<typeof stdSerializers.err> & { requestBody?: { files?: unknown; json?: unknown } };
  const files = serialized.requestBody?.files;
  if (Array.isArray(files)) {
    serialized.requestBody = {
      ...serialized.requestBody,
      files: files.map((file: { name?: unknown; data?: unknown }) => ({ name: file.name, bytes: byteLength(file.data) })),
    };
  }
  return serialized;
}

function byteLength(data: unknown): number | undefined {
  if (typeof data === 'string') return Buffer.byteLength(data);
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return data.byteLength;
  return undefined;
}

export interface LoggerOptions {
  /** Human-readable lines (default: when stdout is a terminal). */
  pretty?: boolean;
  /** Where JSON lines go instead of stdout (tests read them); ignored when pretty. */
  destination?: DestinationStream;
}

export function createLogger(level: LogLevel, options: LoggerOptions = {}): Logger {
  const pretty = options.pretty ?? Boolean(process.stdout.isTTY);
  const settings = {
    level,
    base: undefined,
    serializers: { err: serializeError, error: serializeError, reason: serializeError },
    hooks: { streamWrite: redactSecrets },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } } : {}),
  };
  return !pretty && options.destination ? pino(settings, options.destination) : pino(settings);
}
