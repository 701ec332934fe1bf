import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import type { ConformanceTestApi, PortConformanceFactory, PortConformanceSubject } from "../port-conformance-subject.js";
import { portConformanceProbe, portConformanceRecords } from "../port-conformance-records.js";
import type { ConformanceCheck } from "./conformance-check.js";
import { registerRecordChecks } from "./record-checks.js";
import { registerSearchChecks } from "./search-checks.js";
import { write } from "./subject-steps.js";

/** The store the checks of one group share, filled with the conformance records before they run. */
export interface FilledStore {
  /** The store, once `beforeAll` has made and filled it. */
  ready(): PortConformanceSubject;
  /** Searches for the probe every record contains, asking for more hits than there are records. */
  searchAll(filter?: MetadataFilter): Promise<SearchHit[]>;
}

/** The group "a store holding the conformance records": one store made and filled before its checks, closed after. */
export function describeFilledStoreChecks(api: ConformanceTestApi, check: ConformanceCheck, makePort: PortConformanceFactory): void {
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

    const store: FilledStore = { ready, searchAll };
    registerRecordChecks(check, store);
    registerSearchChecks(check, store);
  });
}
