// Debian's Chromium driven headless by playwright-core, as every browser test of the sandbox page uses it. Without
// it the tests are skipped on a developer's machine and fail in CI (CI=true), where .ci/run installs it.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

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
