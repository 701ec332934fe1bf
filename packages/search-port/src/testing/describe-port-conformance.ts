// Over 300 lines on purpose: the one conformance suite every adapter passes (R13), each case beside
// the others so a reader sees the whole contract in one place.
import assert from "node:assert/strict";
import { ConfigurationError, InvalidFilterError, readChunkIndex, readDocId } from "@lookup-knowledge/core";
import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import type { KnowledgeRecord } from "../knowledge-record.js";
import { knowledgeRecordId } from "../knowledge-record.js";
import { matchesFilter } from "../matches-filter.js";
import type {
  ConformanceTestApi,
  PortConformanceCheck,
  PortConformanceFactory,
  PortConformanceOptions,
  PortConformanceSubject,
} from "./port-conformance-subject.js";
import {
  portConformanceFilterCases,
  portConformanceProbe,
  portConformanceRecords,
  portConformanceUnknownFieldCases,
} from "./port-conformance-records.js";

const identityFields = ["docId", "chunkIndex", "source", "title", "breadcrumb", "category"] as const;

/** How long a check waits for an eventually consistent store (one with `settle`) to agree. */
const eventualWindowMs = 60_000;
const eventualPollMs = 1_000;

/**
 * Registers the conformance checks of a `KnowledgeSearchPort` adapter (R13): every adapter
 * of this package passes them, and so should yours.
 *
 * `makePort` makes a fresh, empty store each time it is called (a new folder, namespace,
 * table or in-memory store). The suite fills one store with {@link portConformanceRecords}
 * and checks, against it:
 * - identity: each record comes back with its id, content and metadata unchanged (`docId`,
 *   `chunkIndex`, `source`, `title`, `breadcrumb`, `category` and the rest, types included);
 * - filters: every operator of `MetadataFilter` (`$eq $ne $in $nin $gt $gte $lt $lte $exists
 *   $and $or`), alone and combined, gives exactly the records the reference `matchesFilter`
 *   accepts; so do filters on a field no record has;
 * - `topK` is honoured (0 gives no hit);
 * - scores are numbers in 0..1, best first;
 * - a record's own text finds that record first;
 * - an aborted signal rejects with its reason; an invalid filter rejects with
 *   `InvalidFilterError`.
 * Further stores check that an empty store answers `[]` and that writes are read back:
 * upsert replaces by id, `deleteDocuments` removes every chunk of a document (and nothing of
 * a document whose id merely starts the same way) and says how many.
 *
 * The filter checks search for {@link portConformanceProbe}, which every record contains,
 * asking for more hits than there are records: the port must return them all. Give a port
 * with a minimum-score cut a cut of 0 here.
 *
 * The checks are registered with `options.test` (`{ describe, it, beforeAll, afterAll }`
 * from Vitest, Jest or `node:test`), or the globals of the same names; assertions use
 * `node:assert`, so the suite needs no particular test framework.
 */
export function describePortConformance(name: string, makePort: PortConformanceFactory, options: PortConformanceOptions = {}): void {
  const api = resolveTestApi(options.test);
  const skipped = options.skip ?? {};
  const check = (kind: PortConformanceCheck, title: string, body: () => Promise<void>): void => {
    const reason = skipped[kind];
    if (reason === undefined) {
      api.it(title, body);
      return;
    }
    const skip = (api.it as { skip?: (name: string, body: () => Promise<void>) => unknown }).skip;
    if (typeof skip === "function") skip(`${title} (skipped: ${reason})`, async () => {});
  };

  api.describe(`${name}: KnowledgeSearchPort conformance (R13)`, () => {
    api.describe("a store holding the conformance records", () => {
      let subject: PortConformanceSubject | undefined;
      const ready = (): PortConformanceSubject => {
        if (subject === undefined) throw new Error("the store was not set up (see the failure of beforeAll)");
        return subject;
      };
      const searchAll = (filter?: MetadataFilter): Promise<SearchHit[]> =>
        ready().port.search({ query: portConformanceProbe, topK: portConformanceRecords.length + 5, ...(filter ? { filter } : {}) });

      api.beforeAll(async () => {
        subject = await makePort();
        await write(subject, portConformanceRecords, portConformanceRecords.length);
      });
      api.afterAll(async () => {
        await subject?.close?.();
      });

      check(
        "identity",
        "R13: identity metadata round-trips: id, content, docId, chunkIndex, source, title, breadcrumb, category",
        async () => {
          await eventually(ready(), async () => {
            const hits = await searchAll();
            assertHitShapes(hits);
            const byKey = new Map(hits.map((hit) => [hitKey(hit), hit]));
            for (const record of portConformanceRecords) {
              const hit = byKey.get(record.id);
              assert.ok(hit !== undefined, `record ${record.id} was not returned`);
              if (hit.id !== undefined) assert.equal(hit.id, record.id, `the id of ${record.id}`);
              assert.equal(hit.content, record.content, `the content of ${record.id}`);
              for (const field of identityFields) {
                assert.deepEqual(present(hit.metadata[field]), record.metadata[field], `metadata.${field} of ${record.id}`);
              }
              for (const [field, value] of Object.entries(record.metadata)) {
                assert.deepEqual(hit.metadata[field], value, `metadata.${field} of ${record.id} (type and value)`);
              }
            }
          });
        },
      );

      for (const { name: caseName, filter } of portConformanceFilterCases) {
        check("filters", `R13: filter ${caseName} gives the records matchesFilter accepts: ${JSON.stringify(filter)}`, async () => {
          await eventually(ready(), async () => assertSameAsReference(await searchAll(filter), filter));
        });
      }

      for (const { name: caseName, filter } of portConformanceUnknownFieldCases) {
        check("unknown-field", `R13: ${caseName}: ${JSON.stringify(filter)}`, async () => {
          await eventually(ready(), async () => assertSameAsReference(await searchAll(filter), filter));
        });
      }

      check("top-k", "R13: returns at most topK hits, with and without a filter; topK 0 returns none", async () => {
        const { port } = ready();
        await eventually(ready(), async () => {
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
      });

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

      check("abort", "R13: an aborted signal rejects with its reason; aborting during a search settles it", async () => {
        const { port } = ready();
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
      });

      check("invalid-filter", "R13: an invalid filter rejects with InvalidFilterError, before the store is asked", async () => {
        const { port } = ready();
        const bad = { category: { $regex: "bill" } } as unknown as MetadataFilter;
        await assert.rejects(port.search({ query: portConformanceProbe, topK: 3, filter: bad }), (error: unknown) =>
          InvalidFilterError.isInstance(error),
        );
      });
    });

    api.describe("a fresh store", () => {
      check("empty-store", "R13: an empty store returns no hits, with or without a filter", async () => {
        await withSubject(makePort, async ({ port }) => {
          assert.deepEqual(await port.search({ query: portConformanceProbe, topK: 5 }), []);
          assert.deepEqual(await port.search({ query: portConformanceProbe, topK: 5, filter: { category: "billing" } }), []);
        });
      });

      check("writes", "R13: upserted records are found; an upsert with the same id replaces the record", async () => {
        await withSubject(makePort, async (subject) => {
          const records = writeRecords();
          await write(subject, records, records.length);
          await eventually(subject, async () => {
            const hits = await subject.port.search({ query: portConformanceProbe, topK: 10 });
            assert.deepEqual(sortedKeys(hits), records.map((record) => record.id).sort());
          });
          const changed = { ...(records[0] as KnowledgeRecord), content: "Knowledge note: the changed text of the first chunk." };
          await write(subject, [changed], records.length);
          await eventually(subject, async () => {
            const hits = await subject.port.search({ query: portConformanceProbe, topK: 10 });
            assert.deepEqual(sortedKeys(hits), records.map((record) => record.id).sort(), "no duplicate after the upsert");
            assert.equal(hits.find((hit) => hitKey(hit) === changed.id)?.content, changed.content);
          });
        });
      });

      check(
        "writes",
        "R13: deleteDocuments removes every chunk of the documents, says how many, and spares ids that only share a prefix",
        async () => {
          await withSubject(makePort, async (subject) => {
            const records = writeRecords();
            await write(subject, records, records.length);
            await eventually(subject, async () => {
              const hits = await subject.port.search({ query: portConformanceProbe, topK: 10 });
              assert.equal(hits.length, records.length);
            });
            assert.equal(await subject.writer.deleteDocuments(["faq"]), 2, "two chunks of faq");
            await commitAndSettle(subject, records.length - 2);
            assert.equal(await subject.writer.deleteDocuments(["no-such-document"]), 0, "an unknown document");
            assert.equal(await subject.writer.deleteDocuments([]), 0, "no documents");
            await eventually(subject, async () => {
              const hits = await subject.port.search({ query: portConformanceProbe, topK: 10 });
              assert.deepEqual(sortedKeys(hits), ["faq#archived#chunk-0", "pricing#chunk-0"]);
            });
          });
        },
      );

      check("writes", "R13: a document deleted and written again with fewer chunks leaves no stale chunk", async () => {
        await withSubject(makePort, async (subject) => {
          const records = writeRecords();
          await write(subject, records, records.length);
          await eventually(subject, async () => {
            assert.equal((await subject.port.search({ query: portConformanceProbe, topK: 10 })).length, records.length);
          });
          await subject.writer.deleteDocuments(["faq"]);
          await write(subject, [records[0] as KnowledgeRecord], records.length - 1);
          await eventually(subject, async () => {
            const hits = await subject.port.search({ query: portConformanceProbe, topK: 10 });
            assert.deepEqual(sortedKeys(hits), ["faq#archived#chunk-0", "faq#chunk-0", "pricing#chunk-0"]);
          });
        });
      });
    });
  });
}

function resolveTestApi(given: ConformanceTestApi | undefined): ConformanceTestApi {
  if (given !== undefined) return given;
  const scope = globalThis as Record<string, unknown>;
  if (
    typeof scope["describe"] === "function" &&
    typeof scope["it"] === "function" &&
    typeof scope["beforeAll"] === "function" &&
    typeof scope["afterAll"] === "function"
  ) {
    return scope as unknown as ConformanceTestApi;
  }
  throw new ConfigurationError({
    key: "test",
    value: undefined,
    reason: "no global describe/it/beforeAll/afterAll; pass { test: { describe, it, beforeAll, afterAll } } from your test framework",
  });
}

/** Four records of three documents; `faq#archived` shares the `faq#` prefix with `faq`. */
function writeRecords(): KnowledgeRecord[] {
  const make = (docId: string, chunkIndex: number, content: string): KnowledgeRecord => ({
    id: knowledgeRecordId(docId, chunkIndex),
    content: `Knowledge note: ${content}`,
    metadata: { docId, chunkIndex, source: `${docId}.md`, title: docId, breadcrumb: docId, category: "faq" },
  });
  return [
    make("faq", 0, "the first chunk of the frequently asked questions."),
    make("faq", 1, "the second chunk of the frequently asked questions."),
    make("faq#archived", 0, "an archived copy of the questions, whose id starts like the live one."),
    make("pricing", 0, "prices are shown without sales tax."),
  ];
}

async function write(subject: PortConformanceSubject, records: readonly KnowledgeRecord[], recordCount: number): Promise<void> {
  await subject.writer.upsert(records.map((record) => ({ ...record, metadata: structuredClone(record.metadata) })));
  await commitAndSettle(subject, recordCount);
}

async function commitAndSettle(subject: PortConformanceSubject, recordCount: number): Promise<void> {
  await subject.writer.commit?.();
  await subject.settle?.({ recordCount });
}

async function withSubject(makePort: PortConformanceFactory, body: (subject: PortConformanceSubject) => Promise<void>): Promise<void> {
  const subject = await makePort();
  try {
    await body(subject);
  } finally {
    await subject.close?.();
  }
}

/**
 * Runs `assertion`; for an eventually consistent store (one with `settle`), retries a failed
 * assertion for up to a minute before failing with its last error.
 */
async function eventually(subject: PortConformanceSubject, assertion: () => Promise<void>): Promise<void> {
  if (subject.settle === undefined) {
    await assertion();
    return;
  }
  const deadline = Date.now() + eventualWindowMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (error) {
      if (!(error instanceof assert.AssertionError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, eventualPollMs));
    }
  }
}

function assertSameAsReference(hits: SearchHit[], filter: MetadataFilter): void {
  assertHitShapes(hits);
  const expected = portConformanceRecords
    .filter((record) => matchesFilter(record.metadata, filter))
    .map((record) => record.id)
    .sort();
  assert.deepEqual(sortedKeys(hits), expected);
}

function assertHitShapes(hits: SearchHit[]): void {
  assert.ok(Array.isArray(hits), "search resolves to an array");
  for (const hit of hits) {
    assert.equal(typeof hit.content, "string", "hit.content is a string");
    assert.ok(hit.metadata !== null && typeof hit.metadata === "object", "hit.metadata is an object");
    assert.ok(hit.id === undefined || typeof hit.id === "string", "hit.id is a string when present");
  }
  const keys = hits.map(hitKey);
  assert.equal(new Set(keys).size, keys.length, `no record twice: ${keys.join(", ")}`);
}

function assertScores(hits: SearchHit[], query: string): void {
  let previous = Number.POSITIVE_INFINITY;
  for (const hit of hits) {
    if (hit.score === undefined) continue;
    assert.ok(Number.isFinite(hit.score) && hit.score >= 0 && hit.score <= 1, `score ${hit.score} of ${hitKey(hit)} is in 0..1`);
    assert.ok(hit.score <= previous, `hits for ${JSON.stringify(query)} are ordered by score`);
    previous = hit.score;
  }
}

/** The record id of a hit: its id, or `{docId}#chunk-{chunkIndex}` from its metadata. */
function hitKey(hit: SearchHit): string {
  if (hit.id !== undefined) return hit.id;
  const docId = readDocId(hit.metadata);
  const chunkIndex = readChunkIndex(hit.metadata);
  return docId !== undefined && chunkIndex !== undefined ? knowledgeRecordId(docId, chunkIndex) : "(no identity)";
}

function sortedKeys(hits: SearchHit[]): string[] {
  return hits.map(hitKey).sort();
}

/** `null` and `undefined` both mean "absent". */
function present(value: unknown): unknown {
  return value === null ? undefined : value;
}
