import { ConfigurationError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { parseDatabaseUrl } from "./parse-database-url.js";

function refusal(value: string): string {
  try {
    parseDatabaseUrl(value);
  } catch (error) {
    expect(ConfigurationError.isInstance(error)).toBe(true);
    return (error as Error).message;
  }
  throw new Error(`${value} was accepted`);
}

describe("parseDatabaseUrl", () => {
  it("hides the password of the userinfo and keeps the URL to connect with", () => {
    const url = "postgres://lookup:hunter2@db.example:5432/traces";
    expect(parseDatabaseUrl(url)).toEqual({ url, redacted: "postgres://lookup:***@db.example:5432/traces" });
  });

  it("hides the values of password, sslpassword, key, secret and token query parameters, and keeps the others", () => {
    const url =
      "postgres://lookup@db.example/traces?sslmode=verify-full&password=hunter2&sslpassword=pem-pass&sslkey=%2Fkeys%2Fclient.key&client_secret=s3&authToken=t0k&application_name=lk";
    const { redacted } = parseDatabaseUrl(url);
    for (const secret of ["hunter2", "pem-pass", "client.key", "s3&", "t0k"]) expect(redacted).not.toContain(secret);
    expect(redacted).toBe(
      "postgres://lookup@db.example/traces?sslmode=verify-full&password=***&sslpassword=***&sslkey=***&client_secret=***&authToken=***&application_name=lk",
    );
  });

  it("hides a query-string password in the error of a refused URL, too", () => {
    const scheme = refusal("mysql://root:hunter2@db/x?password=hunter3&sslpassword=hunter4");
    expect(scheme).toContain('DATABASE_URL="mysql://root:***@db/x?password=***&sslpassword=***"');
    expect(scheme).toMatch(/the scheme mysql: is not supported/);
    const notUrl = refusal("db.example/traces?password=hunter3");
    expect(notUrl).not.toContain("hunter3");
    expect(notUrl).toMatch(/not a URL/);
    const noHost = refusal("postgres:///traces?password=hunter3");
    expect(noHost).not.toContain("hunter3");
    expect(noHost).toMatch(/names no host/);
  });
});
