// Every suite's setup file (vitest.config.ts, vitest.reliability.config.ts, vitest.scale.config.ts): a test fails
// when any fake Discord of its process received, during the test, a request body Discord's API spec rejects
// (src/sandbox/discord-spec.ts), naming the request, the path in the body and what is wrong there, whether or not
// the test itself looks at the fake's violations. A test that sends such a body on purpose takes the violations
// with `fake.clearViolations()` once it has checked them.
import { afterAll, afterEach } from 'vitest';
import { takeSpecViolations } from '../../src/sandbox/fake-state.js';

function failOnSpecViolations(when: string): void {
  const found = takeSpecViolations();
  if (found.length === 0) return;
  throw new Error(`The bot sent ${found.length} request bod${found.length === 1 ? 'y' : 'ies'} Discord's API spec rejects (${when}):\n${found.map((line) => `  - ${line}`).join('\n')}`);
}

afterEach(() => failOnSpecViolations('during this test'));
// What a file's beforeAll or afterAll hooks sent (a bot started once for the file registers its commands there).
afterAll(() => failOnSpecViolations('in the hooks of this file'));
