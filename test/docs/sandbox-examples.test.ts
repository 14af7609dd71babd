/**
 * Every curl example of docs/sandbox.md and README.md works: each ```sh block's curl commands run, in the order
 * of the page, against one real test sandbox (the state carries over, as when a reader pastes them one after the
 * other), with the real curl and exactly the arguments the shell gives it (`$S` is the sandbox's address, and the
 * README's `http://127.0.0.1:8787` too). Each must answer 2xx; where the page shows the answer (a ```json block right
 * after a ```sh block, for its last command, or a `# → {…}` line under a command), the answer has the fields shown
 * (a field named `…` stands for the rest).
 *
 * The examples of buttons, selects and modals carry placeholders the reader fills from the answers before:
 * `<messageId>` (the latest message carrying components), `<custom_id of LABEL>` (the latest button or select whose
 * label is LABEL, or whose label or placeholder starts with it) and `<modal custom_id>`; the test fills them so.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url);
const README_ADDRESS = 'http://127.0.0.1:8787';

interface Example {
  file: string;
  line: number;
  /** The command as written, continuation lines joined. */
  command: string;
  /** The answer the page shows for it, when it shows one. */
  shown?: unknown;
}

/** The curl commands of a Markdown text's ```sh blocks, each with the answer shown after it if any. */
function curlExamples(file: string): Example[] {
  const lines = readFileSync(new URL(file, ROOT), 'utf8').split('\n');
  const examples: Example[] = [];
  for (let index = 0; index < lines.length; index++) {
    if (lines[index]!.trim() !== '```sh') continue;
    const inBlock: Example[] = [];
    let at = index + 1;
    for (; at < lines.length && lines[at]!.trim() !== '```'; at++) {
      const line = lines[at]!;
      const arrow = /^\s*# → (\{.*\})\s*$/.exec(line);
      if (arrow && inBlock.length > 0) {
        const shown = tryJson(arrow[1]!);
        if (shown !== undefined) inBlock.at(-1)!.shown = shown;
        continue;
      }
      if (!/^\s*curl\s/.test(line)) continue;
      const start = at;
      let command = line.replace(/#.*$/, '');
      while (/\\\s*$/.test(command) && at + 1 < lines.length) command = command.replace(/\\\s*$/, ' ') + lines[++at]!;
      // a comment after the command (`npm start  # run the bot`) is not the shell's business here either
      inBlock.push({ file, line: start + 1, command: command.replace(/\s+#[^'"]*$/, '').trim() });
    }
    // A ```json block right after a block is its last command's answer.
    let next = at + 1;
    while (next < lines.length && lines[next]!.trim() === '') next++;
    if (inBlock.length > 0 && lines[next]?.trim() === '```json') {
      const end = lines.indexOf('```', next + 1);
      const shown = tryJson(lines.slice(next + 1, end).join('\n'));
      if (shown !== undefined) inBlock.at(-1)!.shown = shown;
    }
    examples.push(...inBlock);
    index = at;
  }
  return examples;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The arguments the shell gives curl for this command line, with `S` set to the sandbox's address. */
async function shellWords(command: string, address: string): Promise<string[]> {
  const { stdout } = await run('bash', ['-c', `set -f; printf '%s\\0' ${command}`], { env: { PATH: process.env.PATH, S: address } });
  return stdout.split('\0').slice(0, -1);
}

/** Where `shown` has an object, `actual` has an object with at least its fields (values are illustrative). */
function missingFields(actual: unknown, shown: unknown, path = ''): string[] {
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${path || 'the answer'} is not a list`];
    if (shown.length === 0) return [];
    if (actual.length === 0) return [`${path || 'the answer'} is empty`];
    return missingFields(actual[0], shown[0], `${path}[0]`);
  }
  if (typeof shown !== 'object' || shown === null) return [];
  if (typeof actual !== 'object' || actual === null) return [`${path || 'the answer'} is not an object`];
  return Object.entries(shown).filter(([key]) => key !== '…').flatMap(([key, value]) =>
    key in actual ? missingFields((actual as Record<string, unknown>)[key], value, `${path}.${key}`) : [`${path}.${key} is missing`],
  );
}

interface Component {
  type: number;
  custom_id?: string;
  label?: string;
  placeholder?: string;
  components?: Component[];
}
interface Answer {
  responses?: Array<{ kind: string; messageId?: string; components?: Component[]; modal?: { custom_id: string } }>;
}

/** Fills the placeholders of an example from the answers before it (latest first), as the reader does. */
function filled(word: string, answers: readonly Answer[]): string {
  if (!/<[^>]+>/.test(word)) return word;
  const latestFirst = [...answers].reverse().flatMap((answer) => [...(answer.responses ?? [])].reverse());
  const components = latestFirst.flatMap((response) => (response.components ?? []).flatMap((row) => row.components ?? []));
  return word
    .replace(/<messageId>/g, () => {
      const id = latestFirst.find((response) => (response.components ?? []).length > 0 && response.messageId)?.messageId;
      if (!id) throw new Error('<messageId>: no answer before carries a message with components');
      return id;
    })
    .replace(/<custom_id of ([^>]+)>/g, (_, label: string) => {
      const component =
        components.find((candidate) => candidate.label === label) ??
        components.find((candidate) => candidate.label?.startsWith(label) || candidate.placeholder?.startsWith(label));
      if (!component?.custom_id) throw new Error(`<custom_id of ${label}>: no button or select so labelled in the answers before`);
      return component.custom_id;
    })
    .replace(/<modal custom_id>/g, () => {
      const modal = latestFirst.find((response) => response.kind === 'modal')?.modal;
      if (!modal) throw new Error('<modal custom_id>: no answer before opened a modal');
      return modal.custom_id;
    });
}

const examples = [...curlExamples('docs/sandbox.md'), ...curlExamples('README.md')];

describe('the curl examples of docs/sandbox.md and README.md', () => {
  let sandbox: TestSandbox;
  const answers: Answer[] = [];
  beforeAll(async () => {
    // As `npm start` runs it: the first command in a server brings the bot's one-time welcome too.
    sandbox = await startTestSandbox({ welcome: true });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it('the pages have curl examples, and curl is installed', async () => {
    expect(examples.filter((example) => example.file === 'docs/sandbox.md').length).toBeGreaterThan(10);
    expect(examples.filter((example) => example.file === 'README.md').length).toBeGreaterThan(2);
    await expect(run('curl', ['--version']), 'these tests run the real curl: install it (apt-get install curl)').resolves.toBeTruthy();
  });

  // One test per example, in the page's order: each may use what the ones before made (a sheet, a message).
  for (const example of examples) {
    it(`${example.file}:${example.line}: ${example.command.slice(0, 140)}`, async () => {
      const words = (await shellWords(example.command, sandbox.url)).map((word) => word.replaceAll(README_ADDRESS, sandbox.url));
      expect(words[0]).toBe('curl');
      const args = words.slice(1).map((word) => filled(word, answers));
      const { stdout } = await run('curl', [...args, '--max-time', '15', '-w', '\n%{http_code}'], { maxBuffer: 16 * 1024 * 1024 });
      const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1));
      const body = stdout.slice(0, stdout.lastIndexOf('\n'));
      expect(status, `${example.file}:${example.line} answered ${status}: ${body.slice(0, 600)}`).toBeGreaterThanOrEqual(200);
      expect(status, `${example.file}:${example.line} answered ${status}: ${body.slice(0, 600)}`).toBeLessThan(300);
      const answer = tryJson(body);
      if (example.shown !== undefined) {
        expect(answer, `${example.file}:${example.line}: the answer is not JSON: ${body.slice(0, 300)}`).toBeDefined();
        expect(missingFields(answer, example.shown), `${example.file}:${example.line}: the answer lacks fields the page shows: ${body.slice(0, 1500)}`).toEqual([]);
      }
      if (answer && typeof answer === 'object' && 'responses' in answer) {
        expect((answer as { errors?: unknown[] }).errors ?? [], `${example.file}:${example.line}: Discord rules the bot broke`).toEqual([]);
        expect((answer as Answer).responses ?? [], `${example.file}:${example.line}: the bot did not answer`).not.toEqual([]);
        answers.push(answer as Answer);
      }
    });
  }
});
