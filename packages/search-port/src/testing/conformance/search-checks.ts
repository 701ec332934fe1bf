import assert from "node:assert/strict";
import { InvalidFilterError } from "@lookup-knowledge/core";
import type { MetadataFilter } from "@lookup-knowledge/core";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { matchesFilter } from "../../matches-filter.js";
import type { PortConformanceSubject } from "../port-conformance-subject.js";
import { portConformanceProbe, portConformanceRecords } from "../port-conformance-records.js";
import type { ConformanceCheck } from "./conformance-check.js";
import type { FilledStore } from "./filled-store.js";
import { assertHitShapes, assertScores, hitKey } from "./hit-assertions.js";
import { eventually } from "./subject-steps.js";

/** The checks of how a search answers: `topK`, scores, ranking, abort, an invalid filter. */
export function registerSearchChecks(check: ConformanceCheck, store: FilledStore): void {
  const { ready } = store;
  check("top-k", "R13: returns at most topK hits, with and without a filter; topK 0 returns none", async () => checkTopK(ready()));

  check("scores", "R13: scores are numbers in 0..1, best first", async () => {
    const { port } = ready();
    for (const query of [portConformanceProbe, "refund to the original card", "HTTP 429 rate limit"]) {
      const hits = await port.search({ query, topK: portConformanceRecords.length });
      assertHitShapes(hits);
      assertScores(hits, query);
    }
  });

  check("ranking", "R13: a record's own text finds that record first", async () => {
    const { port } = ready();
    await eventually(ready(), async () => {
      for (const id of ["refunds#chunk-0", "shipping#chunk-0", "api#chunk-1"]) {
        const record = portConformanceRecords.find((candidate) => candidate.id === id) as KnowledgeRecord;
        const query = `${String(record.metadata["title"])}\n${record.content}`;
        const [first] = await port.search({ query, topK: 3 });
        assert.ok(first !== undefined, `no hit for the text of ${id}`);
        assert.equal(hitKey(first), id, `the first hit for the text of ${id}`);
      }
    });
  });

  check("abort", "R13: an aborted signal rejects with its reason; aborting during a search settles it", async () => checkAbort(ready()));

  check("invalid-filter", "R13: an invalid filter rejects with InvalidFilterError, before the store is asked", async () => {
    const { port } = ready();
    const bad = { category: { $regex: "bill" } } as unknown as MetadataFilter;
    await assert.rejects(port.search({ query: portConformanceProbe, topK: 3, filter: bad }), (error: unknown) =>
      InvalidFilterError.isInstance(error),
    );
  });
}

async function checkTopK(subject: PortConformanceSubject): Promise<void> {
  const { port } = subject;
  await eventually(subject, async () => {
    for (const topK of [1, 3]) {
      const hits = await port.search({ query: portConformanceProbe, topK });
      assert.equal(hits.length, topK, `topK ${topK}`);
    }
    const filter: MetadataFilter = { category: "billing" };
    const filtered = await port.search({ query: portConformanceProbe, topK: 2, filter });
    assert.equal(filtered.length, 2, "topK 2 with a filter three records pass");
    for (const hit of filtered) assert.ok(matchesFilter(hit.metadata, filter), `${hitKey(hit)} passes the filter`);
    assert.deepEqual(await port.search({ query: portConformanceProbe, topK: 0 }), [], "topK 0");
  });
}

async function checkAbort(subject: PortConformanceSubject): Promise<void> {
  const { port } = subject;
  const reason = new Error("caller gave up");
  await assert.rejects(
    port.search({ query: portConformanceProbe, topK: 3, signal: AbortSignal.abort(reason) }),
    (error: unknown) => error === reason,
    "an already aborted signal rejects with signal.reason",
  );
  const controller = new AbortController();
  const running = port.search({ query: portConformanceProbe, topK: 3, signal: controller.signal });
  const late = new Error("gave up while searching");
  controller.abort(late);
  const outcome = await running.then(
    (hits) => ({ hits }),
    (error: unknown) => ({ error }),
  );
  if ("error" in outcome) assert.equal(outcome.error, late, "a search aborted while running rejects with signal.reason");
  else assert.ok(Array.isArray(outcome.hits), "a search that finished before the abort resolves with hits");
}
