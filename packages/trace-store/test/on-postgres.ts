import { describe, it } from "vitest";
import { testDatabaseUrlVariable } from "./database-targets.js";

/**
 * A suite that runs against a real PostgreSQL (`.ci/run` starts one and sets the variable):
 * `define(url)` when the URL is set; in CI without it, one failing test that says what is
 * missing; elsewhere a skipped suite that says why (and a warning).
 */
export function onPostgres(suite: { title: string; requirement: string; define: (url: string) => void }): void {
  const url = process.env[testDatabaseUrlVariable];
  if (url) {
    suite.define(url);
  } else if (process.env.CI) {
    describe(suite.title, () => {
      it(`${suite.requirement}: runs in CI against a real PostgreSQL`, () => {
        throw new Error(
          `${testDatabaseUrlVariable} is not set, so "${suite.title}" cannot run. CI must start PostgreSQL and set it (see .ci/run).`,
        );
      });
    });
  } else {
    const reason = `${testDatabaseUrlVariable} is not set (e.g. postgres://user:password@127.0.0.1:5432/postgres, a role with CREATEDB)`;
    console.warn(`Skipping "${suite.title}": ${reason}.`);
    describe.skip(`${suite.title}: skipped, ${reason}`, () => {
      it(`${suite.requirement}: runs against a real PostgreSQL`, () => undefined);
    });
  }
}
