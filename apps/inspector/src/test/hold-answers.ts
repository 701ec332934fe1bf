import type { Page } from "playwright-core";

/**
 * Holds back the answers to the page's requests that `matches` admits, so a test can make an
 * earlier request answer after a later one. `release()` lets them through, waits until the
 * last one has reached the page, and then a moment more: time for a late answer to be
 * rendered, were the page not to drop it.
 */
export async function holdAnswers(page: Page, matches: (url: URL) => boolean): Promise<{ release(): Promise<void> }> {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  await page.route(matches, async (route) => {
    await opened;
    await route.continue();
  });
  return {
    async release() {
      const answered = page.waitForResponse((response) => matches(new URL(response.url())));
      open();
      await answered;
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    },
  };
}
