// The sandbox's live feed (GET /api/events), the per-user message list, and the page served on GET /.
import { expect, it } from 'vitest';
import { useTestSandbox } from '../helpers/sandbox.js';

const sandbox = useTestSandbox();

interface FeedEvent {
  event: string;
  data: { messages?: Array<{ id: string; content: string; ephemeral: boolean }>; type?: string; id?: string; message?: { id: string; content: string; ephemeral: boolean; interaction?: unknown } };
}

/** Reads GET /api/events as server-sent events; `next` waits for the next event matching `test`. */
async function feed(url: string) {
  const abort = new AbortController();
  const response = await fetch(url, { signal: abort.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const events: FeedEvent[] = [];
  const waiters: Array<() => void> = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) as FeedEvent['data'] });
          waiters.splice(0).forEach((wake) => wake());
        }
      }
    } catch {
      // aborted
    }
  })();
  let read = 0;
  return {
    events,
    /** The next event, as soon as it arrives (a reader wakes each waiter); a hang guard ends a wait for none. */
    async next(): Promise<FeedEvent> {
      if (read >= events.length) {
        let timer: NodeJS.Timeout | undefined;
        const never = new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error('no event came (waited 30 s)')), 30_000);
        });
        try {
          while (read >= events.length) await Promise.race([new Promise<void>((resolve) => waiters.push(resolve)), never]);
        } finally {
          clearTimeout(timer);
        }
      }
      return events[read++]!;
    },
    /** Every event so far not read with next(). */
    unread: () => events.slice(read),
    close: () => abort.abort(),
  };
}

it('pushes a snapshot, then creates, edits and deletes; ephemeral messages only to their user', async () => {
  const s = sandbox();
  await s.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } }); // ephemeral, for mike
  const mike = await feed(`${s.url}/api/events?user=mike`);
  const olga = await feed(`${s.url}/api/events?user=olga`);
  const anyone = await feed(`${s.url}/api/events`);
  try {
    const snapshot = await mike.next();
    expect(snapshot.event).toBe('snapshot');
    expect(snapshot.data.messages!.map((m) => m.content)).toEqual([expect.stringContaining('Created **Troy**')]);
    expect((await olga.next()).data.messages).toEqual([]);
    expect((await anyone.next()).data.messages).toEqual([]);

    // A public message reaches every stream; an ephemeral one only the stream of the user it was for.
    await s.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    const own = await mike.next();
    expect(own.data).toMatchObject({ type: 'create', message: { ephemeral: true, interaction: { type: 2, username: 'mike', command: 'sheet skill set' } } });
    const rolled = await s.one({ user: 'mike', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } });
    for (const stream of [mike, olga, anyone]) {
      expect((await stream.next()).data).toMatchObject({ type: 'create', message: { id: rolled.messageId, ephemeral: false } });
    }

    // Edits and deletes (here by the bot's own REST calls) are pushed too.
    const api = `${s.fake.restApi}/v10/channels/${s.fake.channelId}/messages`;
    const headers = { authorization: `Bot ${s.fake.token}`, 'content-type': 'application/json' };
    const posted = (await (await fetch(api, { method: 'POST', headers, body: JSON.stringify({ content: 'hello' }) })).json()) as { id: string };
    expect((await anyone.next()).data).toMatchObject({ type: 'create', message: { id: posted.id, content: 'hello' } });
    await fetch(`${api}/${posted.id}`, { method: 'PATCH', headers, body: JSON.stringify({ content: 'hello again' }) });
    expect((await anyone.next()).data).toMatchObject({ type: 'update', message: { id: posted.id, content: 'hello again' } });
    await fetch(`${api}/${posted.id}`, { method: 'DELETE', headers });
    expect((await anyone.next()).data).toEqual({ type: 'delete', id: posted.id });
    expect(olga.unread().map((e) => e.data.type)).toEqual(['create', 'update', 'delete']);
  } finally {
    for (const stream of [mike, olga, anyone]) stream.close();
  }
});

it('GET /api/messages?user= shows the channel as that user sees it', async () => {
  const s = sandbox();
  await s.one({ user: 'olga', command: 'roll challenge', options: { skill: 'Climbing', cl: 90 } }); // no sheet: a private error
  const list = async (query: string) =>
    ((await (await fetch(`${s.url}/api/messages${query}`)).json()) as { messages: Array<{ content: string }> }).messages.map((m) => m.content);
  expect(await list('?user=olga')).toEqual([expect.stringContaining('you have none')]);
  expect(await list('?user=OLGA')).toHaveLength(1);
  expect(await list('?user=mike')).toEqual([]);
  expect(await list('')).toEqual([]);
  expect(await list('?ephemeral=true')).toHaveLength(1);
});

it('serves the page, its script (built from TypeScript on the fly), its styles and the server’s names', async () => {
  const s = sandbox();
  const page = await fetch(`${s.url}/`);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(await page.text()).toContain('<script type="module" src="/page.js">');
  const script = await fetch(`${s.url}/page.js`);
  expect(script.status).toBe(200);
  expect(script.headers.get('content-type')).toContain('text/javascript');
  const code = await script.text();
  expect(code).toContain('/api/events');
  expect(code).not.toMatch(/^import /m); // one bundle
  expect((await fetch(`${s.url}/page.css`)).headers.get('content-type')).toContain('text/css');
  const server = (await (await fetch(`${s.url}/api/server`)).json()) as { channel: { name: string }; bot: { username: string }; roles: Array<{ name: string }> };
  expect(server).toMatchObject({ channel: { name: 'table' }, bot: { username: 'Tac Talk Bot' } });
  expect(server.roles.map((r) => r.name)).toEqual(['Dispatcher']);
});
