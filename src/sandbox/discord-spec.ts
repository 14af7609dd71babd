// Discord's own contract for what a bot sends: every REST request body the fake Discord receives is checked against
// Discord's OpenAPI spec (github.com/discord/discord-api-spec), as the npm package `discord-api-spec` ships it: zod
// schemas generated from the spec's openapi.json, pinned to one exact version in package.json (`npm run spec:update`
// moves it to the newest). A body the spec rejects is a violation (fake-rest.ts): the fake answers 400 Invalid Form
// Body, as Discord would, and the test fails naming the path and what is wrong there. discord-limits.ts keeps the
// rules the spec does not state (an embed's 6000 characters in all, a select's min_values ≤ max_values, …).
//
// Which schema checks which route is written here once, per spec operation; tsc proves each is the request body the
// spec's `Paths` type gives that operation (`body()` below), and the fake refuses to start with a route the spec
// does not have or one that takes a body without an entry here (FakeRest's constructor, `specOperationOf`).
import { readFileSync } from 'node:fs';
import type { Paths } from 'discord-api-spec';
import { pathsList } from 'discord-api-spec';
import * as z from 'zod/mini';
import type { ZodMiniType } from 'zod/mini';
import type { $ZodIssue as ZodIssue } from 'zod/v4/core';
import * as spec from 'discord-api-spec/zod';
import type { LimitIssue } from './discord-limits.js';

type Method = keyof typeof pathsList;
type SpecPath = keyof Paths;
type RequestBody<P extends SpecPath, M extends keyof Paths[P]> = Paths[P][M] extends { requestBody?: infer B } ? NonNullable<B> : never;
/** Whether two types are the same type (not merely assignable both ways, as two all-optional objects are). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type OutputOf<S> = S extends ZodMiniType<infer O> ? O : never;

/** How a route's body is checked: one of `shapes` (the spec's union) must fit, or each item of an array must. */
interface BodyRule {
  /** The spec's names of the shapes, for messages: `MessageCreateRequest`. */
  names: string[];
  shapes: ZodMiniType[];
  /** The body is a JSON array of these shapes (a bulk overwrite of commands). */
  array?: boolean;
}

/**
 * A route's body rule, with its schemas' output checked against the spec's request body for the operation: a schema
 * of another shape, or a union with a shape missing or extra, fails the type check. `omitted` names shapes of the
 * spec's union that `discord-api-spec/zod` has no schema for (see the one use).
 */
function body<P extends SpecPath, M extends keyof Paths[P] & Method, S extends Record<string, ZodMiniType>, Omitted = never>(
  _path: P,
  _method: M,
  shapes: S & (Same<OutputOf<S[keyof S]>, Exclude<RequestBody<P, M>, Omitted>> extends true ? unknown : { error: 'not the request body the spec gives this route' }),
  options: { omitted?: Omitted[] } = {},
): BodyRule {
  void options;
  return { names: Object.keys(shapes).map((name) => name.replace(/Schema$/, '')), shapes: Object.values(shapes) };
}

/** An operation whose body is an array of `shape` (the spec: `type: [array, null], items: …`). */
function arrayBody<P extends SpecPath, M extends keyof Paths[P] & Method, S extends Record<string, ZodMiniType>>(
  _path: P,
  _method: M,
  shapes: S & (Same<OutputOf<S[keyof S]>[], RequestBody<P, M>> extends true ? unknown : { error: 'not the request body the spec gives this route' }),
): BodyRule {
  return { names: Object.keys(shapes).map((name) => `${name.replace(/Schema$/, '')}[]`), shapes: Object.values(shapes), array: true };
}

/** An operation the spec gives no body: anything sent is a violation. */
function noBody<P extends SpecPath, M extends keyof Paths[P] & Method>(_path: P, _method: M & (RequestBody<P, M> extends never ? unknown : { error: 'the spec gives this route a body' })): null {
  return null;
}

const CALLBACK = '/interactions/{interaction_id}/{interaction_token}/callback';
const WEBHOOK = '/webhooks/{webhook_id}/{webhook_token}';
const WEBHOOK_MESSAGE = '/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}';
const WEBHOOK_ORIGINAL = '/webhooks/{webhook_id}/{webhook_token}/messages/@original';
const COMMANDS = '/applications/{application_id}/commands';
const COMMAND = '/applications/{application_id}/commands/{command_id}';
const GUILD_COMMANDS = '/applications/{application_id}/guilds/{guild_id}/commands';
const GUILD_COMMAND = '/applications/{application_id}/guilds/{guild_id}/commands/{command_id}';

/**
 * The body of every operation the fake serves that takes one, by `METHOD /spec/path`. `null`: the spec gives the
 * operation no body.
 */
/**
 * create_webhook's body is written inline in the spec, so discord-api-spec/zod has no schema for it: this one is the
 * spec's `{ name: string; avatar?: string | null }` (the type check below holds it to that), strict like the package's,
 * with the 1 to 80 characters Discord documents for a webhook's name.
 */
const CreateWebhookRequestSchema = z.strictObject({ name: z.string().check(z.minLength(1), z.maxLength(80)), avatar: z.optional(z.nullable(z.string())) });

const BODIES: Record<string, BodyRule | null> = {
  [`post ${CALLBACK}`]: body(CALLBACK, 'post', {
    ApplicationCommandAutocompleteCallbackRequestSchema: spec.ApplicationCommandAutocompleteCallbackRequestSchema,
    CreateMessageInteractionCallbackRequestSchema: spec.CreateMessageInteractionCallbackRequestSchema,
    LaunchActivityInteractionCallbackRequestSchema: spec.LaunchActivityInteractionCallbackRequestSchema,
    ModalInteractionCallbackRequestSchema: spec.ModalInteractionCallbackRequestSchema,
    PongInteractionCallbackRequestSchema: spec.PongInteractionCallbackRequestSchema,
    UpdateMessageInteractionCallbackRequestSchema: spec.UpdateMessageInteractionCallbackRequestSchema,
    // The spec's seventh shape, SocialLayerSKUPurchaseEligibilityInteractionCallbackRequest (a callback of Discord's
    // social SDK), has no schema in the package; a bot never sends it, and a body of that type fits none of these.
  }, { omitted: [] as import('discord-api-spec').SocialLayerSKUPurchaseEligibilityInteractionCallbackRequest[] }),
  [`post ${WEBHOOK}`]: body(WEBHOOK, 'post', {
    IncomingWebhookRequestPartialSchema: spec.IncomingWebhookRequestPartialSchema,
    IncomingWebhookUpdateRequestPartialSchema: spec.IncomingWebhookUpdateRequestPartialSchema,
  }),
  [`patch ${WEBHOOK_MESSAGE}`]: body(WEBHOOK_MESSAGE, 'patch', { IncomingWebhookUpdateRequestPartialSchema: spec.IncomingWebhookUpdateRequestPartialSchema }),
  [`patch ${WEBHOOK_ORIGINAL}`]: body(WEBHOOK_ORIGINAL, 'patch', { IncomingWebhookUpdateRequestPartialSchema: spec.IncomingWebhookUpdateRequestPartialSchema }),
  ['post /channels/{channel_id}/messages']: body('/channels/{channel_id}/messages', 'post', { MessageCreateRequestSchema: spec.MessageCreateRequestSchema }),
  ['patch /channels/{channel_id}/messages/{message_id}']: body('/channels/{channel_id}/messages/{message_id}', 'patch', {
    MessageEditRequestPartialSchema: spec.MessageEditRequestPartialSchema,
  }),
  ['post /channels/{channel_id}/webhooks']: body('/channels/{channel_id}/webhooks', 'post', { CreateWebhookRequestSchema }),
  ['post /channels/{channel_id}/typing']: noBody('/channels/{channel_id}/typing', 'post'),
  [`put ${COMMANDS}`]: arrayBody(COMMANDS, 'put', { ApplicationCommandUpdateRequestSchema: spec.ApplicationCommandUpdateRequestSchema }),
  [`post ${COMMANDS}`]: body(COMMANDS, 'post', { ApplicationCommandCreateRequestSchema: spec.ApplicationCommandCreateRequestSchema }),
  [`patch ${COMMAND}`]: body(COMMAND, 'patch', { ApplicationCommandPatchRequestPartialSchema: spec.ApplicationCommandPatchRequestPartialSchema }),
  [`put ${GUILD_COMMANDS}`]: arrayBody(GUILD_COMMANDS, 'put', { ApplicationCommandUpdateRequestSchema: spec.ApplicationCommandUpdateRequestSchema }),
  [`post ${GUILD_COMMANDS}`]: body(GUILD_COMMANDS, 'post', { ApplicationCommandCreateRequestSchema: spec.ApplicationCommandCreateRequestSchema }),
  [`patch ${GUILD_COMMAND}`]: body(GUILD_COMMAND, 'patch', { ApplicationCommandPatchRequestPartialSchema: spec.ApplicationCommandPatchRequestPartialSchema }),
};

const BODY_METHODS = new Set(['post', 'put', 'patch']);
const specPaths = new Map<string, string[][]>(
  Object.entries(pathsList).map(([method, paths]) => [method, paths.map((path) => path.split('/').filter(Boolean))]),
);

/** The version of discord-api-spec in use (its package.json), for messages: `discord-api-spec 10.0.266135`. */
export const SPEC_VERSION: string = (() => {
  try {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.resolve('discord-api-spec')), 'utf8')) as { version?: string };
    return `discord-api-spec ${manifest.version ?? '(unknown version)'}`;
  } catch {
    return 'discord-api-spec';
  }
})();

/**
 * The spec's operation for a request: `post /channels/{channel_id}/messages` for `POST /channels/123/messages`.
 * Path segments match the spec's literally or fill one of its `{parameters}`; of several matches the one with more
 * literal segments wins (`…/messages/@original` over `…/messages/{message_id}`). Undefined when the spec has no such
 * operation. The fake's route patterns (`/channels/:channel/messages`) match the same way.
 */
export function specOperationOf(method: string, path: string): string | undefined {
  const lower = method.toLowerCase();
  const parts = path.split('/').filter(Boolean);
  let best: { path: string[]; literals: number } | undefined;
  for (const candidate of specPaths.get(lower) ?? []) {
    if (candidate.length !== parts.length) continue;
    let literals = 0;
    const fits = candidate.every((segment, i) => {
      const part = parts[i]!;
      if (segment.startsWith('{') && segment.endsWith('}')) return true;
      if (segment === part) {
        literals++;
        return true;
      }
      return false;
    });
    if (fits && (!best || literals > best.literals)) best = { path: candidate, literals };
  }
  return best ? `${lower} /${best.path.join('/')}` : undefined;
}

/**
 * Why the fake cannot serve a route pattern as the spec has it, or undefined when it can: the operation must be one
 * of the spec's, and one that takes a body must have its rule in BODIES. FakeRest throws on construction with it.
 */
export function routeProblem(method: string, pattern: string): string | undefined {
  const operation = specOperationOf(method, pattern.replace(/:[^/]+/g, (name) => `{${name.slice(1)}}`));
  if (!operation) return `${method} ${pattern} is not an operation of Discord's API spec (${SPEC_VERSION})`;
  if (BODY_METHODS.has(method.toLowerCase()) && !(operation in BODIES)) return `${operation} takes a body, and discord-spec.ts has no rule for it`;
  return undefined;
}

/**
 * Where the spec says less than Discord accepts, each with its reason: an issue one of these matches is not a
 * violation. Keep this list short and each rule narrow; a new entry needs a reason Discord itself gives.
 */
export const SPEC_EXCEPTIONS: { rule: string; reason: string; matches: (issue: LimitIssue, value: unknown) => boolean }[] = [
  {
    rule: "a new attachment's `id` may be a JSON number (attachments[n].id: 0)",
    reason:
      "The spec types it as a snowflake string, but Discord's own documentation of uploads (Reference, \"Uploading " +
      'Files") sends `"attachments": [{ "id": 0, … }]`, and discord.js sends each new file\'s index as a number: ' +
      'Discord matches it to the `files[n]` part.',
    matches: (issue, value) =>
      issue.code === 'STRING_TYPE_CONVERT' && Number.isSafeInteger(value) && (value as number) >= 0 && /(^|\.)attachments\[\d+\]\.id$/.test(pathText(issue.path)),
  },
];

/** What the spec says of a request body: no issues when it fits. `operation` from specOperationOf. */
export function checkBodyAgainstSpec(operation: string, body: unknown): { schema: string; issues: LimitIssue[] } {
  const rule = BODIES[operation];
  if (rule === undefined) return { schema: '(no body)', issues: [] };
  if (rule === null) {
    const empty = body === undefined || (typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0);
    return { schema: '(no body)', issues: empty ? [] : [{ path: [], code: 'BODY_NOT_EXPECTED', message: 'The spec gives this route no body.' }] };
  }
  const schema = rule.names.join(' | ');
  if (rule.array) {
    if (body === null || body === undefined) return { schema, issues: [] };
    if (!Array.isArray(body)) return { schema, issues: [{ path: [], code: 'BASE_TYPE_ARRAY', message: `Must be an array (got ${describe(body)}).` }] };
    const issues = body.flatMap((item, index) => shapeIssues(rule.shapes, item).map((issue) => ({ ...issue, path: [index, ...issue.path] })));
    return { schema, issues: withoutExceptions(issues, body) };
  }
  return { schema, issues: withoutExceptions(shapeIssues(rule.shapes, body ?? {}), body) };
}

function withoutExceptions(issues: LimitIssue[], body: unknown): LimitIssue[] {
  return issues.filter((issue) => !SPEC_EXCEPTIONS.some((exception) => exception.matches(issue, valueAt(body, issue.path))));
}

// ---- zod issues → Discord-like issues with a path and words -------------------------------------------------

/** The issues of the shape among `shapes` that fits best; none if one fits. */
function shapeIssues(shapes: ZodMiniType[], value: unknown): LimitIssue[] {
  const tries = shapes.map((shape) => shape.safeParse(value));
  if (tries.some((result) => result.success)) return [];
  const branches = tries.map((result) => (result.success ? [] : result.error.issues));
  return closest(branches, [], value);
}

/**
 * The issues of the union branch the value was meant for: the one whose `type` matched (that does not reject the
 * value's `type`); else the branch whose first issue lies deepest. When no branch stands out,
 * one issue naming how each branch failed.
 */
const DISCRIMINATORS = new Set(['type']);

function closest(branches: ZodIssue[][], prefix: (string | number)[], root: unknown): LimitIssue[] {
  const discriminated = branches.filter((issues) => !issues.some((issue) => issue.code === 'invalid_value' && issue.path.length === 1 && DISCRIMINATORS.has(String(issue.path[0]))));
  const pool = discriminated.length > 0 ? discriminated : branches;
  if (pool.length === 1) return pool[0]!.flatMap((issue) => explain(issue, prefix, root));
  const depth = (issues: ZodIssue[]): number => Math.max(0, ...issues.map((issue) => issue.path.length));
  const deepest = Math.max(...pool.map(depth));
  const atDeepest = pool.filter((issues) => depth(issues) === deepest);
  if (atDeepest.length === 1) return atDeepest[0]!.flatMap((issue) => explain(issue, prefix, root));
  const firsts = pool.map((issues) => explain(issues[0]!, [], valueAt(root, prefix))[0]!);
  return [{ path: prefix, code: 'UNION_TYPE_CHOICES', message: `Fits none of the spec's ${pool.length} shapes here: ${firsts.map((f) => `${pathText(f.path) || '(here)'} ${f.message.replace(/\.$/, '')}`).join('; or ')}.` }];
}

function explain(issue: ZodIssue, prefix: (string | number)[], root: unknown): LimitIssue[] {
  const path = [...prefix, ...issue.path.map((key) => (typeof key === 'number' ? key : String(key)))];
  const value = valueAt(root, path);
  switch (issue.code) {
    case 'invalid_union':
      if (issue.errors.length > 0) return closest(issue.errors, path, root);
      return [{ path, code: 'UNION_TYPE_CHOICES', message: `Fits none of the spec's shapes (got ${describe(value)}).` }];
    case 'invalid_type':
      if (value === undefined) return [{ path, code: 'BASE_TYPE_REQUIRED', message: 'This field is required.' }];
      return [{ path, code: `${String(issue.expected).toUpperCase()}_TYPE_CONVERT`, message: `Must be ${article(String(issue.expected))} (got ${describe(value)}).` }];
    case 'invalid_value':
      return [{ path, code: 'BASE_TYPE_CHOICES', message: `Must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')} (got ${describe(value)}).` }];
    case 'too_big':
      return [{ path, code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${sizeWord(issue.origin, Number(issue.maximum), 'most')} (got ${measure(issue.origin, value)}).` }];
    case 'too_small':
      return [{ path, code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${sizeWord(issue.origin, Number(issue.minimum), 'least')} (got ${measure(issue.origin, value)}).` }];
    case 'invalid_format':
      return [{ path, code: 'BASE_TYPE_BAD_FORMAT', message: `Must be a valid ${issue.format} (got ${describe(value)}).` }];
    case 'unrecognized_keys':
      return [{ path, code: 'BASE_TYPE_UNKNOWN_KEYS', message: `Has keys the spec does not know: ${issue.keys.join(', ')}.` }];
    default:
      return [{ path, code: 'BASE_TYPE_INVALID', message: issue.message }];
  }
}

function sizeWord(origin: string, bound: number, side: 'most' | 'least'): string {
  if (origin === 'string') return `at ${side} ${bound} characters long`;
  if (origin === 'array' || origin === 'set') return `${bound} or ${side === 'most' ? 'fewer' : 'more'} in length`;
  return `at ${side} ${bound}`;
}

function measure(origin: string, value: unknown): string {
  if (origin === 'string' && typeof value === 'string') return `${value.length} characters`;
  if (Array.isArray(value)) return `${value.length}`;
  return describe(value);
}

function article(word: string): string {
  return /^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object' && value !== null) return 'an object';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

function valueAt(root: unknown, path: (string | number)[]): unknown {
  let node = root;
  for (const key of path) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

function pathText(path: (string | number)[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}
