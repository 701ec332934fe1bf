import type { Page } from "playwright-core";

/**
 * Installed in the page before its own scripts: the URL of every response whose body the page
 * read, noted in a task after the one that read it, so after every promise the page chained on
 * it (its state set, Preact's render, which runs in microtasks) has run.
 */
const noteHandledAnswers = `(() => {
  const handled = (window.__handledAnswers = []);
  const json = Response.prototype.json;
  Response.prototype.json = function () {
    const url = this.url;
    return json.call(this).finally(() => setTimeout(() => handled.push(url), 0));
  };
})();`;

/**
 * Holds back the answers to the page's requests that `matches` admits, so a test can make an
 * earlier request answer after a later one. `release()` lets them through and waits until the
 * page has handled each (read it and run everything it chained on it), so a late answer that
 * the page did not drop is on the screen when the test looks: no timing, only that order.
 * Call it before the page loads.
 */
export async function holdAnswers(page: Page, matches: (url: URL) => boolean): Promise<{ release(): Promise<void> }> {
  await page.addInitScript(noteHandledAnswers);
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const held: string[] = [];
  await page.route(matches, async (route) => {
    held.push(route.request().url());
    await opened;
    await route.continue();
  });
  return {
    async release() {
      open();
      // A function, not a string: the page's policy allows no eval.
      await page.waitForFunction(
        (urls: string[]) => urls.every((url) => (globalThis as unknown as { __handledAnswers: string[] }).__handledAnswers.includes(url)),
        held,
        { timeout: 20_000 },
      );
    },
  };
}
