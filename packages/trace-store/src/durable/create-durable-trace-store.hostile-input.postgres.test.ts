import { describe, it } from "vitest";
import { postgresTarget, testDatabaseUrlVariable } from "../../test/database-targets.js";
import { defineHostileRecordSuite } from "../../test/hostile-record-suite.js";

// The same suite as on PGlite, against a real PostgreSQL (`.ci/run` starts one and sets the
// variable). In CI a missing URL fails; elsewhere the suite is skipped and says why.
const url = process.env[testDatabaseUrlVariable];

if (url) {
  defineHostileRecordSuite("PostgreSQL", () => postgresTarget(url));
} else if (process.env.CI) {
  describe("hostile trace records on PostgreSQL", () => {
    it("R29: runs in CI against a real PostgreSQL", () => {
      throw new Error(
        `${testDatabaseUrlVariable} is not set, so the PostgreSQL suite cannot run. CI must start PostgreSQL and set it (see .ci/run).`,
      );
    });
  });
} else {
  const reason = `${testDatabaseUrlVariable} is not set (e.g. postgres://user:password@127.0.0.1:5432/postgres, a role with CREATEDB)`;
  console.warn(`Skipping the PostgreSQL hostile trace record suite: ${reason}.`);
  describe.skip(`hostile trace records on PostgreSQL: skipped, ${reason}`, () => {
    it("R29: runs against a real PostgreSQL", () => undefined);
  });
}
