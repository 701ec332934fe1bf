import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { GapsView } from "./gaps-api.js";
import { browserSuite, launchChromium, watchPolicy } from "./test/browser.js";
import { gapTopics, inspectGapsBase, utcDay, type GapLookup, type GapsBase } from "./test/gaps-base.js";
import { getJson } from "./test/inspector-http.js";

const { suite, suiteName } = browserSuite("issue 37 item 3: the Gaps view in a real browser (Chromium)");

/** What a page reported that it must not: script errors, policy violations, failed requests. */
async function openPage(browser: Browser, failures: string[]): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  page.on("pageerror", (error) => failures.push(error.message));
  page.on("requestfailed", (request) => failures.push(`request failed: ${request.url()}`));
  await watchPolicy(page, failures);
  return page;
}

/** The bars of a drawn chart: per day, its count as the bar carries it and the bar's height. */
async function bars(chart: Locator): Promise<Array<{ day: string; count: number; height: number }>> {
  const shown = chart.locator('[data-testid="day-bar"]');
  const read = [];
  for (let index = 0; index < (await shown.count()); index++) {
    const bar = shown.nth(index);
    read.push({
      day: (await bar.getAttribute("data-day")) ?? "",
      count: Number(await bar.getAttribute("data-count")),
      height: Number(await bar.getAttribute("height")),
    });
  }
  return read;
}

/** The gap lookups per UTC day since `since`, from what each lookup returned when it was recorded. */
function gapsPerDay(lookups: readonly GapLookup[], since = new Date(0)): Record<string, number> {
  const days: Record<string, number> = {};
  for (const lookup of lookups) if (lookup.gap && lookup.at >= since) days[utcDay(lookup.at)] = (days[utcDay(lookup.at)] ?? 0) + 1;
  return days;
}

const nonZero = (read: Array<{ day: string; count: number }>) =>
  Object.fromEntries(read.filter((bar) => bar.count > 0).map((bar) => [bar.day, bar.count]));
const queryWords = ["ethanol", "bitcoin", "parking"];

suite(suiteName, () => {
  let base: GapsBase;
  let browser: Browser;
  let screenshots: string;
  const failures: string[] = [];
  beforeAll(async () => {
    base = await inspectGapsBase();
    screenshots = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspector-gaps-screenshots-"));
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await base?.close();
    if (screenshots) console.log(`inspector gaps screenshots: ${screenshots}`);
  });

  it("issue 37 item 3: the view lists the groups largest first as `gaps` groups them, the chart shows the lookups per day, the period is selectable", async () => {
    const page = await openPage(browser, failures);
    const { report, chart } = await getJson<GapsView>(base, "/api/gaps");
    await page.goto(`${base.server.url}#/gaps`);
    const groups = page.locator('[data-testid="gap-group"]');
    await expect.poll(() => groups.count(), { timeout: 20_000 }).toBe(report.groups.length);
    expect(report.groups.length).toBeGreaterThanOrEqual(3);
    const shownIds = await groups.evaluateAll((cards) => cards.map((card) => card.getAttribute("data-group-id")));
    expect(shownIds).toEqual(report.groups.map((group) => group.id));
    const sizes = (await page.locator('[data-testid="gap-lookups"]').allTextContents()).map((text) => Number.parseInt(text, 10));
    expect(sizes).toEqual(report.groups.map((group) => group.lookups));
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(await page.locator('[data-testid="gap-kind"]').allTextContents()).toEqual(
      report.groups.map((group) => (group.kind === "missing-page" ? "missing page" : "page we have but refuse")),
    );
    // The largest group: the ethanol questions, asked most, that no page comes close to.
    expect(await groups.first().locator('[data-testid="gap-example"]').allTextContents()).toEqual(report.groups[0]?.examples);
    expect(report.groups[0]?.examples.every((query) => (gapTopics.ethanol as readonly string[]).includes(query))).toBe(true);
    expect(await groups.first().locator('[data-testid="gap-kind"]').textContent()).toBe("missing page");

    // The chart: one bar a day of the 30 days, its count the gap lookups recorded that day.
    const drawn = await bars(page.locator('[data-testid="gaps-view"] > [data-testid="daily-counts"]'));
    expect(drawn.map(({ day, count }) => ({ day, count }))).toEqual(chart.days);
    expect(drawn.length).toBeGreaterThanOrEqual(30);
    expect(nonZero(drawn)).toEqual(gapsPerDay(base.lookups));
    const highest = Math.max(...drawn.map((bar) => bar.count));
    for (const bar of drawn) {
      if (bar.count === 0) expect(bar.height).toBe(0);
      else expect(bar.height / (drawn.find((other) => other.count === highest)?.height ?? 1)).toBeCloseTo(bar.count / highest, 5);
    }
    await page.screenshot({ path: join(screenshots, "gaps.png"), fullPage: true });

    // The period: the last day only.
    await page.locator('input[name="gaps-since"]').fill("1d");
    await page.getByRole("button", { name: "Show" }).click();
    const since = new Date(Date.now() - 24 * 3_600_000);
    const today = base.lookups.filter((lookup) => lookup.gap && lookup.at >= since).length;
    await expect
      .poll(() => page.locator('[data-testid="gaps-summary"]').textContent(), { timeout: 20_000 })
      .toMatch(new RegExp(`^${today} refused or low-relevance lookups`));
    expect(today).toBeLessThan(base.lookups.filter((lookup) => lookup.gap).length);
    expect(nonZero(await bars(page.locator('[data-testid="gaps-view"] > [data-testid="daily-counts"]')))).toEqual(
      gapsPerDay(base.lookups, since),
    );
    expect(failures).toEqual([]);
    await page.close();
  });

  it("issue 37 item 3: a group opens its lookups (each opens its trace) and Why not for its closest page with its most asked query", async () => {
    const page = await openPage(browser, failures);
    const { report, chart } = await getJson<GapsView>(base, "/api/gaps");
    const group = report.groups.find((candidate) => candidate.kind === "refused-page" && candidate.closest.length > 0);
    expect(group, "a group whose page was refused").toBeDefined();
    if (!group) return;
    expect(group.examples.every((query) => (gapTopics.bitcoin as readonly string[]).includes(query))).toBe(true);
    await page.goto(`${base.server.url}#/gaps`);
    const card = page.locator(`[data-testid="gap-group"][data-group-id="${group.id}"]`);
    await card.waitFor({ timeout: 20_000 });

    // Its lookups, and their count per day.
    await card.locator('[data-testid="gap-open"]').click();
    const links = card.locator('[data-testid="gap-lookup"]');
    expect(await links.allTextContents()).toEqual(group.lookupIds);
    const groupBars = await bars(card.locator('[data-testid="daily-counts"]'));
    expect(groupBars.map((bar) => bar.day)).toEqual(chart.days.map((day) => day.day));
    expect(nonZero(groupBars)).toEqual(gapsPerDay(base.lookups.filter((lookup) => group.examples.includes(lookup.query))));
    expect(groupBars.reduce((sum, bar) => sum + bar.count, 0)).toBe(group.lookups);
    await page.screenshot({ path: join(screenshots, "gap-group.png"), fullPage: true });
    await links.first().click();
    await page.locator('[data-testid="trace-view"]').waitFor({ timeout: 20_000 });
    expect(decodeURIComponent(new URL(page.url()).hash)).toBe(`#/trace/${group.lookupIds[0]}`);
    expect(group.examples).toContain(await page.locator('[data-testid="trace-view"] [data-testid="trace-query"]').textContent());

    // Back to the groups, then Why not for the closest page, explained at once with the group's most asked query.
    await page.goBack();
    await card.waitFor({ timeout: 20_000 });
    const closest = group.closest[0];
    await card.locator('[data-testid="gap-why-not"]').first().click();
    await page.locator('[data-testid="why-kind"]').first().waitFor({ timeout: 20_000 });
    expect(await page.locator('input[name="why-query"]').inputValue()).toBe(group.examples[0]);
    expect(await page.locator('[data-testid="expected"]').inputValue()).toBe(closest?.source);
    const explained = (await (
      await fetch(new URL("/api/why-not", base.server.url), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: group.examples[0], expected: closest?.source, config: {} }),
      })
    ).json()) as { found: boolean; summary: string; attempts: Array<{ outcome: { kind: string } }> };
    expect(await page.locator('[data-testid="why-found"]').textContent()).toBe(
      `${explained.found ? "Reached the model" : "Did not reach the model"} · ${closest?.source}`,
    );
    expect(await page.locator('[data-testid="why-kind"]').allTextContents()).toEqual(
      explained.attempts.map((attempt) => attempt.outcome.kind),
    );
    expect(await page.locator('[data-testid="why-summary"]').textContent()).toBe(explained.summary);
    await page.screenshot({ path: join(screenshots, "gap-why-not.png"), fullPage: true });
    expect(failures).toEqual([]);
    await page.close();
  });

  it("issue 37 item 3: a long tail of groups is listed 50 at a time, largest first, with Show more", async () => {
    const page = await openPage(browser, failures);
    const real = await getJson<GapsView>(base, "/api/gaps");
    // The real answer with 120 groups (copies of the real ones, sizes falling), served in its place.
    const groups = Array.from({ length: 120 }, (_, index) => {
      const group = real.report.groups[index % real.report.groups.length];
      return { ...group, id: `gap-copy-${index}`, lookups: 200 - index };
    });
    await page.route(
      (url) => url.pathname === "/api/gaps",
      (route) => route.fulfill({ json: { ...real, report: { ...real.report, groups } } }),
    );
    await page.goto(`${base.server.url}#/gaps`);
    const cards = page.locator('[data-testid="gap-group"]');
    await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(50);
    const ids = () => cards.evaluateAll((shown) => shown.map((card) => card.getAttribute("data-group-id")));
    expect(await ids()).toEqual(groups.slice(0, 50).map((group) => group.id));
    await page.locator('[data-testid="gaps-more"]').click();
    await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(100);
    expect(await page.locator('[data-testid="gaps-more"]').textContent()).toBe("Show 20 more");
    await page.locator('[data-testid="gaps-more"]').click();
    await expect.poll(() => cards.count(), { timeout: 20_000 }).toBe(120);
    expect(await ids()).toEqual(groups.map((group) => group.id));
    expect(await page.locator('[data-testid="gaps-more"]').count()).toBe(0);
    expect(failures).toEqual([]);
    await page.close();
  });
});

suite(`${suiteName}: query text stored as a hash`, () => {
  let base: GapsBase;
  let browser: Browser;
  const failures: string[] = [];
  beforeAll(async () => {
    base = await inspectGapsBase({ queryStorage: "hash" });
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await base?.close();
  });

  it("issue 37 item 4: the view shows no query text, says the groups come from hints and sources only, and Why not asks for a query", async () => {
    const page = await openPage(browser, failures);
    const { report } = await getJson<GapsView>(base, "/api/gaps");
    await page.goto(`${base.server.url}#/gaps`);
    const groups = page.locator('[data-testid="gap-group"]');
    await expect.poll(() => groups.count(), { timeout: 20_000 }).toBe(report.groups.length);
    expect(report.groups.length).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="gaps-hashed"]').textContent()).toMatch(/built from the stored hints and sources only/);
    expect(await page.locator('[data-testid="gap-example"]').count()).toBe(0);
    for (const group of report.groups) {
      await page.locator(`[data-testid="gap-group"][data-group-id="${group.id}"] [data-testid="gap-open"]`).click();
    }
    const body = ((await page.locator("body").textContent()) ?? "").toLowerCase();
    for (const query of Object.values(gapTopics).flat()) expect(body).not.toContain(query.toLowerCase());
    for (const word of queryWords) expect(body).not.toContain(word);
    const link = page.locator('[data-testid="gap-why-not"]').first();
    expect(await link.textContent()).toBe("Why not (type a query)");
    const source = await page.locator('[data-testid="gap-page-source"]').first().textContent();
    await link.click();
    await page.locator('[data-testid="expected"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('[data-testid="expected"]').inputValue()).toBe(source);
    expect(await page.locator('input[name="why-query"]').inputValue()).toBe("");
    expect(await page.locator('[data-testid="explanation"]').count()).toBe(0);
    expect(failures).toEqual([]);
    await page.close();
  });
});
