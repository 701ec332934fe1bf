import { describe, expect, it } from "vitest";
import { redactSecrets } from "./redact-secrets.js";

describe("redactSecrets", () => {
  it("hides the sslkey path a driver quotes from DATABASE_URL, and URL passwords and secret parameters", () => {
    const environment = { DATABASE_URL: "postgres://app:s%3Ecret@db:5432/traces?sslkey=/home/me/.ssh/prod-db.key&sslmode=require" };
    const message =
      "the trace database at postgres://app:s%3Ecret@db:5432/traces?sslkey=/home/me/.ssh/prod-db.key is unreachable " +
      "(ENOENT: no such file or directory, open '/home/me/.ssh/prod-db.key'; password s>cret)";
    const redacted = redactSecrets(message, environment);
    expect(redacted).not.toContain("prod-db.key");
    expect(redacted).not.toContain("s%3Ecret");
    expect(redacted).not.toContain("s>cret");
    expect(redacted).toContain("postgres://app:***@db:5432/traces?sslkey=***");
    expect(redacted).toContain("open '***'");
  });

  it("hides API keys and tokens from the environment, and leaves other text alone", () => {
    expect(redactSecrets("Pinecone said: key pc-0123456789 is invalid", { PINECONE_API_KEY: "pc-0123456789" })).toBe(
      "Pinecone said: key *** is invalid",
    );
    expect(redactSecrets("libsql://db.example?authToken=abc.def.ghi refused", {})).toBe("libsql://db.example?authToken=*** refused");
    expect(redactSecrets("No index at /data/index", {})).toBe("No index at /data/index");
  });
});
