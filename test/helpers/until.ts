/**
 * Waits for a state a test expects (a count reached, a message shown, a log line written), checking it again every
 * few milliseconds. The deadline only stops a test that would otherwise hang: it is far above any normal wait, so a
 * loaded machine makes the wait longer, never the test red.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string | (() => string), timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
