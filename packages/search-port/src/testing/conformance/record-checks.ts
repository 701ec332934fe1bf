import assert from "node:assert/strict";
import { portConformanceFilterCases, portConformanceRecords, portConformanceUnknownFieldCases } from "../port-conformance-records.js";
import type { ConformanceCheck } from "./conformance-check.js";
import type { FilledStore } from "./filled-store.js";
import { assertHitShapes, assertSameAsReference, hitKey } from "./hit-assertions.js";
import { eventually } from "./subject-steps.js";

const identityFields = ["docId", "chunkIndex", "source", "title", "breadcrumb", "category"] as const;

/** The checks of what comes back: each record whole (identity), and exactly the records each filter accepts. */
export function registerRecordChecks(check: ConformanceCheck, store: FilledStore): void {
  const { ready, searchAll } = store;
  check("identity", "R13: identity metadata round-trips: id, content, docId, chunkIndex, source, title, breadcrumb, category", async () => {
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
  });

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
}

/** `null` and `undefined` both mean "absent". */
function present(value: unknown): unknown {
  return value === null ? undefined : value;
}
