import type { PortConformanceFactory, PortConformanceOptions } from "./port-conformance-subject.js";
import { conformanceCheck } from "./conformance/conformance-check.js";
import { describeFilledStoreChecks } from "./conformance/filled-store.js";
import { describeFreshStoreChecks } from "./conformance/fresh-store.js";
import { resolveTestApi } from "./conformance/resolve-test-api.js";

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
 * `node:assert`, so the suite needs no particular test framework. The checks are in
 * `conformance/`: `record-checks.ts` and `search-checks.ts` on the filled store,
 * `fresh-store.ts` on empty ones.
 */
export function describePortConformance(name: string, makePort: PortConformanceFactory, options: PortConformanceOptions = {}): void {
  const api = resolveTestApi(options.test);
  const check = conformanceCheck(api, options.skip ?? {});
  api.describe(`${name}: KnowledgeSearchPort conformance (R13)`, () => {
    describeFilledStoreChecks(api, check, makePort);
    describeFreshStoreChecks(api, check, makePort);
  });
}
