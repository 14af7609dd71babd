// Debian's Chromium driven headless by playwright-core, as every browser test of the sandbox page uses it. Without
// it the tests are skipped on a developer's machine and fail in CI (CI=true), where .ci/run installs it.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { startTestSandbox, stopChecked, type TestSandbox } from './sandbox.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);
/** Where browser tests write their screenshots; each run refreshes them. */
export const ARTIFACTS = path.resolve('test/artifacts');

export async function launchChromium(): Promise<Browser> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Playwright gives every launch a new, empty profile (user-data-dir) of its own.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * One Chromium for the describe block, and for each test at most one sandbox and one page of the sandbox page: after
 * the test the page's context is closed, then the sandbox is stopped and checked for broken Discord rules.
 */
export function useBrowserPages() {
  let browser: Browser | undefined;
  let context: BrowserContext | undefined;
  let sandbox: TestSandbox | undefined;

  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
    const current = sandbox;
    sandbox = undefined;
    await stopChecked(current);
  });

  const launched = (): Browser => {
    if (!browser) throw new Error('Chromium runs only inside the describe block that asked for it');
    return browser;
  };

  return {
    browser: launched,

    /** The test's sandbox, stopped after it. */
    async startSandbox(options?: Parameters<typeof startTestSandbox>[0]): Promise<TestSandbox> {
      sandbox = await startTestSandbox(options);
      return sandbox;
    },

    /**
     * The sandbox page at `url`, loaded and ready, in a new context closed after the test. `prepare` runs on the blank
     * page before it loads (routes, say). `problems` gathers the page's uncaught errors from its load on, for the
     * test to check when it chooses: some check right away, some once the page has been played.
     */
    async open(url: string, options: BrowserContextOptions, prepare?: (page: Page) => Promise<unknown>): Promise<{ page: Page; problems: string[] }> {
      context = await launched().newContext(options);
      context.setDefaultTimeout(8000);
      const page = await context.newPage();
      await prepare?.(page);
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(url);
      await page.locator('body[data-ready="true"]').waitFor();
      return { page, problems };
    },
  };
}

/**
 * Scrolls the message `locator` finds into view. The page redraws its whole list when it learns a player's name, and
 * Playwright's own scroll holds the element it found first, failing if that one is redrawn: this finds it again.
 */
export async function scrollIntoView(locator: Locator): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await locator.scrollIntoViewIfNeeded();
      return;
    } catch (error) {
      if (attempt >= 5 || !/not attached/i.test(String(error))) throw error;
    }
  }
}
