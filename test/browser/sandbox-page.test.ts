// The sandbox page in a real browser: Debian's Chromium (apt-get install chromium), driven headless by
// playwright-core against the real sandbox (fake Discord + bot). Without /usr/bin/chromium these tests are
// skipped on a developer's machine and fail in CI (CI=true), where .ci/run installs it.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Page } from 'playwright-core';
import { rollD100 } from '../../src/engine/dice.js';
import { seededRng } from '../../src/engine/rng.js';
import { ARTIFACTS, CHROMIUM, HAVE_CHROMIUM, scrollIntoView, useBrowserPages } from '../helpers/browser.js';
import { type TestSandbox } from '../helpers/sandbox.js';

if (!HAVE_CHROMIUM && !process.env.CI) {
  console.warn(`Skipping the browser tests of the sandbox page: ${CHROMIUM} is missing (apt-get install chromium; .ci/run does it).`);
}

/** A seed whose two D100s (Kat's, then Troy's) both clear the other's aptitude (as in test/e2e/contest-seed). */
function seedWhereBothSucceed(): string {
  for (let index = 0; ; index++) {
    const seed = `both-succeed-${index}`;
    const rng = seededRng(seed);
    const [kat, troy] = [rollD100(rng), rollD100(rng)];
    if (kat.value >= 35 && troy.value >= 37) return seed;
  }
}

describe.skipIf(!HAVE_CHROMIUM && !process.env.CI)('the sandbox page in Chromium', () => {
  const pages = useBrowserPages();

  async function open(seeds?: string[]): Promise<{ page: Page; sandbox: TestSandbox }> {
    const sandbox = await pages.startSandbox(seeds ? { seeds } : {});
    const { page, problems } = await pages.open(sandbox.url, { viewport: { width: 1280, height: 900 } });
    expect(problems).toEqual([]);
    return { page, sandbox };
  }

  /** Plays as `name` from now on: one click on the player, or typing the name the first time. */
  async function playAs(page: Page, name: string, options: { dispatcher?: boolean } = {}): Promise<void> {
    const chip = page.locator(`.player[data-user="${name}"]`);
    if (await chip.count()) await chip.click();
    else {
      await page.fill('#user-name', name);
      await page.press('#user-name', 'Enter');
    }
    await page.locator(`#messages[data-viewer="${name}"]`).waitFor();
    if (options.dispatcher !== undefined) await page.setChecked('#user-dispatcher', options.dispatcher);
  }

  /** Types a slash command into the composer and sends it with Enter. */
  async function send(page: Page, text: string): Promise<void> {
    await page.fill('#composer', text);
    await page.press('#composer', 'Enter');
    await expect.poll(() => page.inputValue('#composer')).toBe('');
  }

  const message = (page: Page, text: string | RegExp) => page.locator('#messages .message', { hasText: text });

  it('creates a sheet and rolls a challenge by typing; lists commands, enforces required options, serves files', async () => {
    const { page } = await open();
    await playAs(page, 'mike');

    // `/` lists the bot's commands with their descriptions; picking one offers its options.
    await page.click('#composer');
    await page.keyboard.type('/sheet cr');
    const create = page.locator('.popup-item[data-label="/sheet create"]');
    await create.waitFor();
    expect(await create.textContent()).toContain('Create a sheet');
    await page.keyboard.press('Enter');
    expect(await page.inputValue('#composer')).toBe('/sheet create ');
    await page.locator('.popup-item[data-label="name:"]').waitFor();
    expect(await page.locator('.popup-item[data-label="name:"]').textContent()).toContain('required');
    await page.keyboard.type('name:Troy');
    await page.keyboard.press('Enter');
    await message(page, 'Troy').first().waitFor();

    await send(page, '/sheet skill set name:Climbing level:40');
    await message(page, 'Climbing').first().waitFor();

    // A required option left out: nothing is sent, the composer says what is missing.
    await page.fill('#composer', '/roll challenge skill:Climbing');
    await page.press('#composer', 'Enter');
    await expect.poll(() => page.textContent('#composer-error')).toContain('Missing required option: cl');
    expect(await page.inputValue('#composer')).toBe('/roll challenge skill:Climbing');

    await page.fill('#composer', '/roll challenge skill:Climbing cl:90');
    await page.press('#composer', 'Enter');
    const roll = message(page, 'mike used').filter({ hasText: '/roll challenge' }).locator('.embed');
    await roll.waitFor();
    expect(await roll.textContent()).toMatch(/Climbing/);
    expect(await roll.getAttribute('style')).toMatch(/border-left-color:#(?!1e1f22)[0-9a-f]{6}/); // the embed's colour bar

    // A file the bot sends can be downloaded.
    await send(page, '/sheet export');
    const link = page.locator('.attachment a.file-name');
    await link.waitFor();
    expect(await link.getAttribute('download')).toMatch(/\.json$/);
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const file = await download.path();
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toMatchObject({ name: 'Troy' });
  });

  it('after /config systems the `/` list still offers every command, as Discord does, and one of another system answers privately how to turn it on', async () => {
    const { page } = await open();
    await playAs(page, 'olga');
    await page.setChecked('#user-manage', true);
    const offered = async (typed: string): Promise<string[]> => {
      await page.fill('#composer', '');
      await page.click('#composer');
      await page.keyboard.type(typed);
      // A list refreshed after the last answer may close the popup just opened: then this try shows nothing, and the
      // poll types again.
      const shown = await page.locator('.popup-item').first().waitFor({ timeout: 2_000 }).then(() => true, () => false);
      return shown ? page.locator('.popup-item').evaluateAll((items) => items.map((item) => item.getAttribute('data-label') ?? '')) : [];
    };
    await expect.poll(() => offered('/ta')).toContain('/tactics check');
    await send(page, '/config systems play:d6 pools');
    await message(page, 'This server plays').waitFor();
    // The command list is global: the server's choice is applied when a command arrives, not in the list.
    await expect.poll(() => offered('/ro')).toContain('/roll challenge');
    await expect.poll(() => offered('/ta')).toContain('/tactics check');
    await send(page, '/tactics check attribute:Aim');
    await message(page, 'which this server does not play').waitFor();
  });

  it('offers the bot’s autocomplete suggestions for a skill option as you type', async () => {
    const { page, sandbox } = await open();
    await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Climbing', level: 40 } });
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Shotgun Handling', level: 35 } });
    await playAs(page, 'mike');
    await page.click('#composer');
    await page.keyboard.type('/roll challenge skill:sho', { delay: 20 });
    // The bot suggests "Shotgun Handling (35)" for the value "Shotgun Handling", as Discord shows it.
    const suggestion = page.locator('.popup-item[data-label="Shotgun Handling (35)"]');
    await suggestion.waitFor();
    expect(await page.locator('.popup-item[data-label^="Climbing"]').count()).toBe(0);
    await page.keyboard.press('Tab');
    expect(await page.inputValue('#composer')).toBe('/roll challenge skill:Shotgun Handling (35) ');
    await page.keyboard.type('cl:50');
    await page.keyboard.press('Enter');
    await message(page, 'Shotgun Handling').locator('.embed').first().waitFor();
  });

  it('shows an ephemeral error only to the user who got it', async () => {
    const { page } = await open();
    await playAs(page, 'olga');
    await send(page, '/roll challenge skill:Climbing cl:90');
    const error = page.locator('#messages .message.ephemeral', { hasText: 'you have none' });
    await error.waitFor();
    expect(await error.textContent()).toContain('Only you can see this');

    await playAs(page, 'mike');
    expect(await page.locator('#messages .message', { hasText: 'you have none' }).count()).toBe(0);
    await playAs(page, 'olga');
    await error.waitFor();
  });

  it('plays the seed’s Kat-vs-Troy contest by switching users and clicking, to Troy’s outcome', async () => {
    const seed = seedWhereBothSucceed();
    const { page, sandbox } = await open(Array.from({ length: 40 }, () => seed));
    await sandbox.one({ user: 'sasha', command: 'sheet create', options: { name: 'Kat' } });
    await sandbox.one({ user: 'sasha', command: 'sheet skill set', options: { name: 'CQC', level: 37 } });
    await sandbox.one({ user: 'mike', command: 'sheet create', options: { name: 'Troy' } });
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'CQC', level: 40 } });
    await sandbox.one({ user: 'mike', command: 'sheet skill set', options: { name: 'Shotgun Handling', level: 35 } });

    await playAs(page, 'dee', { dispatcher: true });
    await playAs(page, 'mike');
    await playAs(page, 'sasha');
    await send(page, '/contest start opponent:mike intent:Kat disarms Troy as he enters stakes:Troy is disarmed skill:CQC role:attacker');
    const contest = message(page, 'Contest #1: Kat vs');
    await contest.waitFor();
    const click = async (customId: string): Promise<void> => {
      const button = page.locator(`button[data-custom-id$="${customId}"]:not([disabled])`);
      await button.click();
    };

    // Troy answers in one form: his stakes, his role (secret until the roll) and his skill.
    await playAs(page, 'mike');
    await click(':accept:1');
    const modal = page.locator('dialog#modal[open]');
    await modal.waitFor();
    expect(await modal.locator('h2').textContent()).toBe('Accept contest #1 as Troy');
    await modal.locator('[data-custom-id="stakes"]').fill('Troy kicks Kat: she rolls on the Blunt Damage Outcome Table');
    await modal.locator('select[data-custom-id="role"]').selectOption('defender');
    await modal.locator('select[data-custom-id="skill"]').selectOption('CQC');
    await modal.locator('button[type="submit"]').click();
    await modal.waitFor({ state: 'hidden' });
    await contest.filter({ hasText: 'Troy kicks Kat' }).waitFor();
    // Kat is told in a new message that it is her move.
    await message(page, 'your move: **Agree**').or(message(page, 'your move: Agree')).first().waitFor();

    await playAs(page, 'dee');
    expect(await page.isChecked('#user-dispatcher')).toBe(true);
    await click(':adjust:1');
    await modal.waitFor();
    await modal.locator('[data-custom-id="opponent_skill"]').fill('Shotgun Handling');
    await modal.locator('button[type="submit"]').click();
    await modal.waitFor({ state: 'hidden' });
    await contest.filter({ hasText: 'Shotgun Handling 35' }).waitFor();
    await page.mouse.move(1, 1);
    await page.screenshot({ path: path.join(ARTIFACTS, 'contest-in-progress.png') });

    await playAs(page, 'sasha');
    await click(':agree:1');
    await playAs(page, 'mike');
    await click(':ready:1');
    // The result is a new message, linking back to the contest message.
    const result = message(page, 'the dice of contest #1 have rolled');
    await result.waitFor();
    const text = (await result.textContent()) ?? '';
    expect(text).toContain('Troy wins');
    expect(text).toContain('Both succeeded: the defender wins.');
    expect(text).toContain('Troy kicks Kat: she rolls on the Blunt Damage Outcome Table');
    expect(text).toMatch(/vs CL 35 \(Troy's Shotgun Handling\) → ✅ success/);
    expect(text).toMatch(/vs CL 37 \(Kat's CQC\) → ✅ success/);
    expect(await result.locator('button:not(.apps-button)').count()).toBe(0);
    await scrollIntoView(result);
    await page.mouse.move(1, 1);
    await page.screenshot({ path: path.join(ARTIFACTS, 'contest-result.png') });
    await result.screenshot({ path: path.join(ARTIFACTS, 'contest-result-embed.png') });
  });
});
