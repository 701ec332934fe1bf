import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { browserSuite, launchChromium, watchPolicy } from "./test/browser.js";
import {
  hostileQueries,
  hostileScript,
  hostileSource,
  hostileTitle,
  injectedId,
  inspectHostileBase,
  ownedFlag,
} from "./test/hostile-base.js";
import type { InspectedBase } from "./test/inspected-base.js";
import type { GapsView } from "./gaps-api.js";

const { suite, suiteName } = browserSuite("issue 13: hostile documents and queries in the inspector page (Chromium)");

/** What a page saw that it must not: errors, dialogs, policy violations. */
interface Watched {
  page: Page;
  dialogs: string[];
  errors: string[];
  violations: string[];
}

async function openPage(browser: Browser): Promise<Watched> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  const watched: Watched = { page, dialogs: [], errors: [], violations: [] };
  page.on("dialog", (dialog) => {
    watched.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on("pageerror", (error) => watched.errors.push(error.message));
  await watchPolicy(page, watched.violations);
  return watched;
}

/** No payload ran, no element of theirs exists, and the page reported nothing. */
async function expectUnharmed(watched: Watched, view: string): Promise<void> {
  const { page } = watched;
  const owned = await page.evaluate((flag) => (globalThis as unknown as Record<string, unknown>)[flag], ownedFlag);
  expect(owned, `${view}: a payload ran`).toBeUndefined();
  expect(await page.locator(`#${injectedId}`).count(), `${view}: an injected element`).toBe(0);
  expect(await page.locator("img[onerror], [onclick], [onerror]").count(), `${view}: an element with a handler`).toBe(0);
  expect(await page.locator('a[href^="javascript:" i]').count(), `${view}: a javascript: link`).toBe(0);
  expect(await page.locator("body script:not([src])").count(), `${view}: an inline script`).toBe(0);
  expect(watched.dialogs, `${view}: dialogs`).toEqual([]);
  expect(watched.errors, `${view}: page errors`).toEqual([]);
  expect(watched.violations, `${view}: policy violations`).toEqual([]);
}

const text = async (page: Page, selector: string) => ((await page.locator(selector).first().textContent()) ?? "").trim();

suite(suiteName, () => {
  let base: InspectedBase;
  let browser: Browser;
  let screenshots: string;
  beforeAll(async () => {
    base = await inspectHostileBase();
    screenshots = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspector-hostile-screenshots-"));
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await base?.close();
    if (screenshots) console.log(`inspector hostile screenshots: ${screenshots}`);
  });

  it("issue 13: hostile query text in the Traces view and in one trace is shown as text; nothing in it runs", async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    await page.goto(base.server.url);
    const rows = page.locator('[data-testid="trace-row"]');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(hostileQueries.length);
    expect(await page.locator('[data-testid="trace-query"]').allTextContents()).toEqual([...hostileQueries].reverse());
    await expectUnharmed(watched, "traces");
    await page.screenshot({ path: join(screenshots, "hostile-traces.png"), fullPage: true });

    await rows.filter({ hasText: "zebracorn ledger reconciliation" }).locator("a").click();
    await page.locator('[data-testid="trace-view"] [data-testid="evidence-block"]').first().waitFor({ timeout: 20_000 });
    expect(await text(page, '[data-testid="trace-view"] [data-testid="trace-query"]')).toBe(hostileQueries[0]);
    const hostileBlock = page.locator('[data-testid="evidence-block"]').filter({ hasText: hostileSource });
    expect(await hostileBlock.count()).toBeGreaterThan(0);
    expect(await hostileBlock.first().locator("header").textContent()).toContain(`${hostileSource} — ${hostileTitle}`);
    const rebuilt = (await page.locator('[data-testid="model-content"]').allTextContents()).join("\n");
    expect(rebuilt).toContain(hostileScript);
    await expectUnharmed(watched, "one trace");
    await page.screenshot({ path: join(screenshots, "hostile-trace.png"), fullPage: true });
    await page.close();
  });

  it("issue 13: a playground run of a hostile query shows the hostile document's path, title and body as text; nothing in it runs", async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    await page.goto(`${base.server.url}#/playground`);
    await page.locator('input[name="query"]').fill(hostileQueries[0] ?? "");
    await page.getByRole("button", { name: "Run" }).click();
    await page.locator('[data-testid="run-Result"] [data-testid="packed-block"]').first().waitFor({ timeout: 20_000 });
    expect(await text(page, '[data-testid="run-found"]')).toMatch(/^found yes/);
    await expectUnharmed(watched, "playground");
    const blocks = page.locator('[data-testid="packed-block"]').filter({ hasText: hostileSource });
    expect(await blocks.count()).toBeGreaterThan(0);
    expect(await blocks.first().locator("header").textContent()).toContain(`${hostileSource} — ${hostileTitle}`);
    const bodies = (await page.locator('[data-testid="packed-block"] pre').allTextContents()).join("\n");
    expect(bodies).toContain(hostileScript);
    // Exactly what the model reads, computed in process for the same query.
    const fresh = await base.knowledgeBase.retriever.lookup(hostileQueries[0] ?? "");
    const packed = fresh.found ? fresh.contextPack.blocks.map((block) => block.content.trim()) : [];
    const shownBodies = (await page.locator('[data-testid="packed-block"] pre').allTextContents()).map((body) => body.trim());
    expect(shownBodies).toEqual(packed);
    // The very long line reaches the page too (the chunker splits it).
    expect(shownBodies.some((body) => /x{1000}/.test(body))).toBe(true);
    expect(await text(page, '[data-testid="sources"]')).toContain(hostileSource);
    await expectUnharmed(watched, "playground");
    await page.screenshot({ path: join(screenshots, "hostile-playground.png"), fullPage: true });
    await page.close();
  });

  it("issue 33: a link with a malformed % escape opens its view with the text as written instead of breaking the page", async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    await page.goto(`${base.server.url}#/playground/100%25%`);
    expect(await page.locator('input[name="query"]').inputValue()).toBe("100%25%");
    await page.goto(`${base.server.url}#/trace/%E0%A4%A`);
    // No trace has that id: the view says so, the page stands.
    await page.locator("main p.error").waitFor({ timeout: 20_000 });
    expect(await page.locator("header h1").textContent()).toBe("lookup-knowledge inspector");
    expect(watched.errors).toEqual([]);
    await page.close();
  });

  it("issue 13: the Why-not view lists and explains the hostile document by its path and title, as text; nothing in it runs", async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    await page.goto(`${base.server.url}#/why-not`);
    await page.locator('input[name="source-search"]').fill("zebracorn");
    const choice = page.getByRole("button", { name: hostileSource, exact: true });
    await choice.waitFor({ timeout: 20_000 });
    expect(await text(page, '[data-testid="documents"]')).toContain(hostileTitle);
    await expectUnharmed(watched, "why-not documents");
    await choice.click();
    expect(await page.locator('[data-testid="expected"]').inputValue()).toBe(hostileSource);
    await page.locator('input[name="why-query"]').fill(hostileQueries[0] ?? "");
    await page.getByRole("button", { name: "Explain" }).click();
    await page.locator('[data-testid="why-kind"]').first().waitFor({ timeout: 20_000 });
    expect(await text(page, '[data-testid="why-found"]')).toBe(`Reached the model · ${hostileSource}`);
    expect(await page.locator('[data-testid="why-kind"]').first().textContent()).toBe("included");
    await expectUnharmed(watched, "why-not explanation");
    await page.screenshot({ path: join(screenshots, "hostile-why-not.png"), fullPage: true });
    await page.close();
  });
  it("issue 37 item 3: the Gaps view shows hostile queries, and the hostile page that came closest by its path and title, as text; its lookups and Why not open; nothing in it runs", async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    const { report } = (await (await fetch(new URL("/api/gaps", base.server.url))).json()) as GapsView;
    // The second hostile query finds the hostile document only as low-relevance evidence: a gap whose closest page is that document.
    const group = report.groups.find((candidate) => candidate.examples.includes(hostileQueries[1] ?? ""));
    expect(group?.closest.map((closest) => closest.source)).toContain(hostileSource);
    if (!group) return;
    await page.goto(`${base.server.url}#/gaps`);
    const card = page.locator(`[data-testid="gap-group"][data-group-id="${group.id}"]`);
    await card.waitFor({ timeout: 20_000 });
    expect(await card.locator('[data-testid="gap-example"]').allTextContents()).toEqual(group.examples);
    const hostileRow = card.locator('[data-testid="gap-page"]').filter({ hasText: hostileSource });
    expect(await hostileRow.locator('[data-testid="gap-page-source"]').textContent()).toBe(hostileSource);
    expect(await hostileRow.locator("td").nth(1).textContent()).toBe(hostileTitle);
    await expectUnharmed(watched, "gaps");
    await card.locator('[data-testid="gap-open"]').click();
    expect(await card.locator('[data-testid="gap-lookup"]').allTextContents()).toEqual(group.lookupIds);
    await expectUnharmed(watched, "a gap's lookups");
    await page.screenshot({ path: join(screenshots, "hostile-gaps.png"), fullPage: true });
    await hostileRow.locator('[data-testid="gap-why-not"]').click();
    await page.locator('[data-testid="why-kind"]').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('input[name="why-query"]').inputValue()).toBe(group.examples[0]);
    expect(await page.locator('[data-testid="expected"]').inputValue()).toBe(hostileSource);
    expect(await text(page, '[data-testid="why-found"]')).toMatch(/^(Reached|Did not reach) the model · /);
    expect((await text(page, '[data-testid="why-found"]')).endsWith(` · ${hostileSource}`)).toBe(true);
    await expectUnharmed(watched, "a gap's why-not");
    await page.close();
  });
});

suite(`${suiteName}: query text stored as a hash`, () => {
  let base: InspectedBase;
  let browser: Browser;
  beforeAll(async () => {
    base = await inspectHostileBase({ queryStorage: "hash" });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await base?.close();
  });

  it('issue 13: with queryStorage "hash" neither the Traces view nor one trace shows any of the query text', async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    const leaks = (body: string) =>
      hostileQueries
        .flatMap((query) => [query, ...query.split(/\s+/).filter((word) => /^(quokkasecret|zebracorn)$/i.test(word))])
        .filter((part) => body.toLowerCase().includes(part.toLowerCase()));
    await page.goto(base.server.url);
    const rows = page.locator('[data-testid="trace-row"]');
    await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(hostileQueries.length);
    for (const shown of await page.locator('[data-testid="trace-query"]').allTextContents()) expect(shown).toMatch(/^hash [0-9a-f]{12}…$/);
    expect(leaks((await page.locator("body").textContent()) ?? "")).toEqual([]);
    await expectUnharmed(watched, "hashed traces");

    for (let index = 0; index < hostileQueries.length; index++) {
      await page.goto(base.server.url);
      await expect.poll(() => rows.count(), { timeout: 20_000 }).toBe(hostileQueries.length);
      await rows.nth(index).locator("a").click();
      await page.locator('[data-testid="trace-view"]').waitFor({ timeout: 20_000 });
      expect(await text(page, '[data-testid="trace-view"] [data-testid="trace-query"]')).toMatch(/^hash /);
      expect(await page.locator('[data-testid="rerun"]').count()).toBe(0);
      // The hash trace keeps no query words (hints, filters) either; document text may name zebracorn, so only the query's own words count.
      // Each attempt's best page is a page of the knowledge base (kept as it is under hash, as the evidence's sources are), not query text.
      const details = (
        await page
          .locator(
            '[data-testid="trace-view"] [data-testid="hints"], [data-testid="trace-view"] [data-testid="attempts"] td:not([data-testid="attempt-best-page"])',
          )
          .allTextContents()
      ).join("\n");
      expect(leaks(details)).toEqual([]);
      expect(leaks(await text(page, '[data-testid="trace-view"] [data-testid="trace-query"]'))).toEqual([]);
      await expectUnharmed(watched, `hashed trace ${index + 1}`);
    }
    await page.close();
  });
  it('issue 37 item 4: with queryStorage "hash" the Gaps view shows none of the query text and says groups come from hints and sources', async () => {
    const watched = await openPage(browser);
    const { page } = watched;
    const { report } = (await (await fetch(new URL("/api/gaps", base.server.url))).json()) as GapsView;
    expect(report.groups.length).toBeGreaterThan(0);
    await page.goto(`${base.server.url}#/gaps`);
    const groups = page.locator('[data-testid="gap-group"]');
    await expect.poll(() => groups.count(), { timeout: 20_000 }).toBe(report.groups.length);
    expect(await text(page, '[data-testid="gaps-hashed"]')).toMatch(/built from the stored hints and sources only/);
    for (let index = 0; index < report.groups.length; index++) await groups.nth(index).locator('[data-testid="gap-open"]').click();
    const words = hostileQueries.flatMap((query) => [query, ...query.split(/\s+/).filter((word) => /^quokkasecret$/i.test(word))]);
    const body = ((await page.locator("body").textContent()) ?? "").toLowerCase();
    expect(words.filter((part) => body.includes(part.toLowerCase()))).toEqual([]);
    expect(JSON.stringify(report).toLowerCase()).not.toContain("quokkasecret");
    await expectUnharmed(watched, "hashed gaps");
    await page.close();
  });
});
