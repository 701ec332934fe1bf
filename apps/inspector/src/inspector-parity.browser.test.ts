import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { explainLookup, type LookupExplanation } from "@lookup-knowledge/agent-tool";
import type { LookupResult } from "@lookup-knowledge/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { browserSuite, launchChromium, watchPolicy } from "./test/browser.js";
import { inspectExampleBase, recordedQueries, type InspectedBase } from "./test/inspected-base.js";

const { suite, suiteName } = browserSuite("issue 13: the inspector page's numbers equal an in-process computation (Chromium)");

/** Two answerable demo queries, each with a document that reaches the model and one that does not. */
const cases = [
  { query: recordedQueries[0] ?? "", included: "billing/refunds.md", notIncluded: "security/sso-saml.md" },
  { query: recordedQueries[1] ?? "", included: "integrations/accounting-export.md", notIncluded: "account/closing-your-account.md" },
];
const noEvidenceQuery = "What is the boiling point of ethanol?";

/** A number as the page shows it: integers whole, other numbers at three decimals. */
const shownNumber = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3));
const score = (value: number | undefined) => (value === undefined ? "-" : value.toFixed(3));
const trimmed = (texts: string[]) => texts.map((text) => text.trim().replace(/\s+/g, " "));

/** What the playground shows of one run, read from its data-testid hooks. */
async function shownRun(page: Page) {
  const run = page.locator('[data-testid="run-Result"]');
  const rows = run.locator('[data-testid="breakdown-row"]');
  const breakdown = [];
  for (let index = 0; index < (await rows.count()); index++) {
    const row = rows.nth(index);
    breakdown.push({
      key: (await row.getAttribute("data-evidence-key")) ?? "",
      rank: ((await row.locator('[data-testid="breakdown-rank"]').textContent()) ?? "").trim(),
      base: ((await row.locator('[data-testid="base-score"]').textContent()) ?? "").trim(),
      final: ((await row.locator('[data-testid="final-score"]').textContent()) ?? "").trim(),
    });
  }
  return {
    found: ((await run.locator('[data-testid="run-found"]').textContent()) ?? "").trim(),
    attempts: trimmed(await run.locator('[data-testid="attempt-outcome"]').allTextContents()),
    breakdown,
    evidence: trimmed(await run.locator('[data-testid="packed-block"] header').allTextContents()),
    sources: trimmed(await run.locator('[data-testid="sources"] td').allTextContents()),
  };
}

/** The same, computed from an in-process lookup result. */
function expectedRun(result: LookupResult) {
  const list = (values: string[]) => (values.length > 0 ? values.join(", ") : "-");
  return {
    found: `found ${result.found ? "yes" : "no"} · relevance ${result.relevanceLevel} · threshold ${result.retrievalTrace.referenceThreshold}`,
    attempts: result.retrievalTrace.attempts.map((attempt) => attempt.outcome),
    breakdown: (result.found ? result.rerankTrace.entries : []).map((entry) => ({
      key: entry.evidenceKey,
      rank: String(entry.rank),
      base: score(entry.baseScore),
      final: score(entry.finalScore),
    })),
    evidence: result.found
      ? result.contextPack.blocks.map((block) =>
          `${block.source}${block.title ? ` — ${block.title}` : ""}${block.truncated ? " (truncated by the context budget)" : ""}`.trim(),
        )
      : [],
    sources: result.found ? [list(result.contextPack.summary.includedSources), list(result.contextPack.summary.omittedSources)] : [],
  };
}

/** What the why-not view shows per attempt: the outcome and its numbers. */
async function shownExplanation(page: Page) {
  const rows = page.locator('[data-testid="why-attempt"]');
  const attempts = [];
  for (let index = 0; index < (await rows.count()); index++) {
    const row = rows.nth(index);
    attempts.push({
      kind: ((await row.locator('[data-testid="why-kind"]').textContent()) ?? "").trim(),
      numbers: trimmed(await row.locator('[data-testid="why-numbers"] > [data-testid^="why-"]').allTextContents()),
    });
  }
  return { found: ((await page.locator('[data-testid="why-found"]').textContent()) ?? "").trim(), attempts };
}

const unshown = new Set(["kind", "message", "evidenceKey", "boosts"]);

function expectedExplanation(explanation: LookupExplanation) {
  return {
    found: `${explanation.found ? "Reached the model" : "Did not reach the model"} · ${explanation.expected.source ?? explanation.expected.docId}${explanation.expected.inIndex ? "" : " (not in the index)"}`,
    attempts: explanation.attempts.map((attempt) => ({
      kind: attempt.outcome.kind,
      numbers: [
        ...Object.entries(attempt.outcome)
          .filter(([key]) => !unshown.has(key))
          .map(([key, value]) => `${key} ${typeof value === "number" ? shownNumber(value) : JSON.stringify(value)}`),
        ...(attempt.outcome.boosts ?? []).map((boost) => `${boost.signal} ${boost.amount >= 0 ? "+" : ""}${score(boost.amount)}`),
      ],
    })),
  };
}

suite(suiteName, () => {
  let base: InspectedBase;
  let browser: Browser;
  let screenshots: string;
  const violations: string[] = [];
  beforeAll(async () => {
    base = await inspectExampleBase();
    screenshots = await mkdtemp(join(tmpdir(), "lookup-knowledge-inspector-parity-screenshots-"));
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await base?.close();
    if (screenshots) console.log(`inspector parity screenshots: ${screenshots}`);
  });

  it("issue 13: the playground shows the found state, attempts, evidence order, sources and scores of knowledgeBase.retriever.lookup", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await watchPolicy(page, violations);
    await page.goto(`${base.server.url}#/playground`);
    for (const [index, query] of [...cases.map((entry) => entry.query), noEvidenceQuery].entries()) {
      const expected = expectedRun(await base.knowledgeBase.retriever.lookup(query));
      await page.locator('input[name="query"]').fill(query);
      await page.getByRole("button", { name: "Run" }).click();
      await expect.poll(async () => (await shownRun(page)).found, { timeout: 20_000 }).toBe(expected.found);
      await expect.poll(() => shownRun(page), { timeout: 20_000 }).toEqual(expected);
      if (query === noEvidenceQuery) expect(expected.found).toMatch(/^found no/);
      else expect(expected.breakdown.length).toBeGreaterThan(0);
      await page.screenshot({ path: join(screenshots, `playground-${index + 1}.png`), fullPage: true });
    }
    expect(violations).toEqual([]);
    await page.close();
  });

  it("issue 13: the Why-not view shows, per attempt, the outcome, rank and score explainLookup gives, for a document that reaches the model and one that does not", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await watchPolicy(page, violations);
    await page.goto(`${base.server.url}#/why-not`);
    for (const [index, entry] of cases.entries()) {
      for (const [which, expectedSource] of [
        ["included", entry.included],
        ["not included", entry.notIncluded],
      ] as const) {
        const explanation = await explainLookup(base.knowledgeBase, entry.query, { expected: expectedSource });
        expect(explanation.found, `${expectedSource} for "${entry.query}"`).toBe(which === "included");
        const expected = expectedExplanation(explanation);
        if (which === "included") {
          const used = explanation.attempts.find((attempt) => attempt.used)?.outcome;
          expect(used?.kind).toBe("included");
          expect(typeof used?.rank).toBe("number");
          expect(typeof used?.score).toBe("number");
          const usedRow = expected.attempts[explanation.attempts.findIndex((attempt) => attempt.used)];
          expect(usedRow?.numbers).toEqual(expect.arrayContaining([`rank ${used?.rank}`, `score ${score(used?.score)}`]));
        } else {
          expect(expected.attempts.every((attempt) => attempt.kind !== "included")).toBe(true);
        }
        await page.locator('input[name="source-search"]').fill(expectedSource);
        await page.getByRole("button", { name: expectedSource, exact: true }).click();
        await page.locator('input[name="why-query"]').fill(entry.query);
        await page.getByRole("button", { name: "Explain" }).click();
        await expect.poll(() => shownExplanation(page), { timeout: 20_000 }).toEqual(expected);
        await page.screenshot({ path: join(screenshots, `why-not-${index + 1}-${which.replace(" ", "-")}.png`), fullPage: true });
      }
    }
    expect(violations).toEqual([]);
    await page.close();
  });
});
