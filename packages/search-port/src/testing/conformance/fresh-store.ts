import assert from "node:assert/strict";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import type { ConformanceTestApi, PortConformanceFactory, PortConformanceSubject } from "../port-conformance-subject.js";
import { portConformanceProbe } from "../port-conformance-records.js";
import type { ConformanceCheck } from "./conformance-check.js";
import { hitKey, sortedKeys } from "./hit-assertions.js";
import { commitAndSettle, eventually, withSubject, write } from "./subject-steps.js";
import { writeRecords } from "./write-records.js";

/** The group "a fresh store": each check makes its own empty store: it starts empty, and writes are read back. */
export function describeFreshStoreChecks(api: ConformanceTestApi, check: ConformanceCheck, makePort: PortConformanceFactory): void {
  api.describe("a fresh store", () => {
    check("empty-store", "R13: an empty store returns no hits, with or without a filter", async () => {
      await withSubject(makePort, async ({ port }) => {
        assert.deepEqual(await port.search({ query: portConformanceProbe, topK: 5 }), []);
        assert.deepEqual(await port.search({ query: portConformanceProbe, topK: 5, filter: { category: "billing" } }), []);
      });
    });

    check("writes", "R13: upserted records are found; an upsert with the same id replaces the record", async () => {
      await withSubject(makePort, checkUpsertReplaces);
    });

    check(
      "writes",
      "R13: deleteDocuments removes every chunk of the documents, says how many, and spares ids that only share a prefix",
      async () => {
        await withSubject(makePort, checkDeleteDocuments);
      },
    );

    check("writes", "R13: a document deleted and written again with fewer chunks leaves no stale chunk", async () => {
      await withSubject(makePort, checkShrunkDocument);
    });
  });
}

/** Search for the probe, ten hits at most. */
function searchProbe(subject: PortConformanceSubject) {
  return subject.port.search({ query: portConformanceProbe, topK: 10 });
}

async function checkUpsertReplaces(subject: PortConformanceSubject): Promise<void> {
  const records = writeRecords();
  await write(subject, records, records.length);
  await eventually(subject, async () => {
    const hits = await searchProbe(subject);
    assert.deepEqual(sortedKeys(hits), records.map((record) => record.id).sort());
  });
  const changed = { ...(records[0] as KnowledgeRecord), content: "Knowledge note: the changed text of the first chunk." };
  await write(subject, [changed], records.length);
  await eventually(subject, async () => {
    const hits = await searchProbe(subject);
    assert.deepEqual(sortedKeys(hits), records.map((record) => record.id).sort(), "no duplicate after the upsert");
    assert.equal(hits.find((hit) => hitKey(hit) === changed.id)?.content, changed.content);
  });
}

async function checkDeleteDocuments(subject: PortConformanceSubject): Promise<void> {
  const records = writeRecords();
  await write(subject, records, records.length);
  await eventually(subject, async () => {
    const hits = await searchProbe(subject);
    assert.equal(hits.length, records.length);
  });
  assert.equal(await subject.writer.deleteDocuments(["faq"]), 2, "two chunks of faq");
  await commitAndSettle(subject, records.length - 2);
  assert.equal(await subject.writer.deleteDocuments(["no-such-document"]), 0, "an unknown document");
  assert.equal(await subject.writer.deleteDocuments([]), 0, "no documents");
  await eventually(subject, async () => {
    const hits = await searchProbe(subject);
    assert.deepEqual(sortedKeys(hits), ["faq#archived#chunk-0", "pricing#chunk-0"]);
  });
}

async function checkShrunkDocument(subject: PortConformanceSubject): Promise<void> {
  const records = writeRecords();
  await write(subject, records, records.length);
  await eventually(subject, async () => {
    assert.equal((await searchProbe(subject)).length, records.length);
  });
  await subject.writer.deleteDocuments(["faq"]);
  await write(subject, [records[0] as KnowledgeRecord], records.length - 1);
  await eventually(subject, async () => {
    const hits = await searchProbe(subject);
    assert.deepEqual(sortedKeys(hits), ["faq#archived#chunk-0", "faq#chunk-0", "pricing#chunk-0"]);
  });
}
