import { createKnowledgeRetriever } from "@lookup-knowledge/agent-tool";
import { emptyL0Hints, type SearchHit } from "@lookup-knowledge/core";
import { buildToolInvocationRecord } from "@lookup-knowledge/trace-store";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { browserSuite, launchChromium, watchPolicy } from "./test/browser.js";
import { inspectExampleBase, type InspectedBase } from "./test/inspected-base.js";

const { suite, suiteName } = browserSuite("issue 32: why an L0-filtered attempt was refused, in the trace view (Chromium)");

type RetrieverOptions = Parameters<typeof createKnowledgeRetriever>[0];

/** A port that judges its best hit 0.9 and, on the filtered attempt, says the filter kept only 0.6 of the scope's best match. */
const steeredPort: RetrieverOptions["searchPort"] = {
  async search(request) {
    const filtered = request.filter !== undefined;
    const hit: SearchHit = {
      id: "billing/refunds#chunk-0",
      content: "Owners and Billing Admins can refund a paid invoice.",
      metadata: { docId: "billing/refunds", chunkIndex: 0, source: "billing/refunds.md", category: "billing" },
      score: 0.7,
      answerability: {
        score: 0.9,
        model: "answerability-logistic@1",
        signals: filtered ? { lexical: 0.5, filterShare: 0.6 } : { lexical: 0.5 },
      },
    };
    return [hit];
  },
};
const l0Index: RetrieverOptions["l0Index"] = {
  size: 1,
  match: () => ({ ...emptyL0Hints(), domains: ["billing"], keywords: ["refund"] }),
};

const recorded = "R9 filter share: who can refund a paid invoice?";
const older = "R9 filter share, an older record: who can refund a paid invoice?";
const silent = "R9 filter share, a record without the signal: who can refund a paid invoice?";
const preferred = "R9 filter share, the recorded share first: who can refund a paid invoice?";

suite(suiteName, () => {
  let base: InspectedBase;
  let browser: Browser;
  let threshold = 0;
  beforeAll(async () => {
    base = await inspectExampleBase();
    // A lookup recorded as the retriever records it today: the refused attempt keeps leftOutShare.
    const retriever = createKnowledgeRetriever({ searchPort: steeredPort, l0Index, traceStore: base.traces });
    // This port names no threshold of its own, so the records hold core's default.
    threshold = retriever.config.referenceThreshold;
    await retriever.lookup(recorded);
    await retriever.flushTraces();
    // Records written before the share was kept (one with the port's signal, one without it),
    // and one whose recorded share differs from the signal: the recorded one is what the page shows.
    const plain = createKnowledgeRetriever({ searchPort: steeredPort, l0Index });
    for (const [query, kept, keepSignal] of [
      [older, undefined, true],
      [silent, undefined, false],
      [preferred, 0.5, true],
    ] as const) {
      const record = buildToolInvocationRecord({ result: await plain.lookup(query), startedAt: new Date(), durationMs: 1 });
      const [first] = record.retrievalDetails.attempts;
      if (first === undefined) throw new Error("the lookup has an attempt");
      if (kept === undefined) delete first.leftOutShare;
      else first.leftOutShare = kept;
      if (!keepSignal && first.answerability) first.answerability.signals = { lexical: 0.5 };
      await base.traces.record(record);
    }
    await base.traces.flush();
    browser = await launchChromium();
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await base?.close();
  });

  it("R9: the attempts table names the share the filter kept, from the record or an older record's signal, and never claims a score below the threshold", async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors: string[] = [];
    const violations: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await watchPolicy(page, violations);
    for (const [query, expected] of [
      [recorded, "refused: the L0 filter kept only 0.600 of the best match it filtered out"],
      [older, "refused: the L0 filter kept only 0.600 of the best match it filtered out"],
      [silent, `refused although top score 0.900 ≥ threshold ${threshold.toFixed(3)} (the record does not say why)`],
      [preferred, "refused: the L0 filter kept only 0.500 of the best match it filtered out"],
    ] as const) {
      await page.goto(base.server.url);
      await page.locator('[data-testid="trace-row"]').filter({ hasText: query }).locator("a").click();
      await page.locator('[data-testid="trace-view"] [data-testid="attempt-row"]').first().waitFor({ timeout: 20_000 });
      if (query === recorded) {
        // The API hands the page the share the retriever recorded.
        const id = decodeURIComponent(new URL(page.url()).hash.replace("#/trace/", ""));
        const record = (await (await fetch(new URL(`/api/traces/${id}`, base.server.url))).json()) as {
          retrievalDetails: { attempts: Array<{ leftOutShare?: number }> };
        };
        expect(record.retrievalDetails.attempts.map((attempt) => attempt.leftOutShare)).toEqual([0.6, undefined]);
      }
      const checks = await page.locator('[data-testid="threshold-check"]').allTextContents();
      // Attempt 1 (filtered) was refused for the share; attempt 2 (unfiltered) passed.
      expect(checks).toEqual([expected, `top score 0.900 ≥ threshold ${threshold.toFixed(3)}`]);
    }
    expect(errors).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });
});
