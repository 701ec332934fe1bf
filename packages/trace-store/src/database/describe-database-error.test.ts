import { describe, expect, it } from "vitest";
import { describeDatabaseError } from "./describe-database-error.js";

/** What Drizzle throws: the statement and every parameter in the message, the driver's error as cause. */
function drizzleQueryError(cause: unknown): Error {
  const error = new Error(`Failed query: insert into "tool_invocation" ("id", "query") values ($1, $2)\nparams: id-1,${"x".repeat(100_000)}`);
  (error as { cause?: unknown }).cause = cause;
  return error;
}

function driverError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

describe("describeDatabaseError", () => {
  it("R29: names the driver's cause in one line, never the statement or its parameters", () => {
    const described = describeDatabaseError(drizzleQueryError(driverError('value "3000000000" is out of range for type integer', "22003")));
    expect(described).toEqual({
      message: 'value "3000000000" is out of range for type integer',
      sqlState: "22003",
      refusedData: true,
      connectionLost: false,
    });
  });

  it("R29: a lost connection (no SQLSTATE, class 08 or 57P) is an outage, not refused data", () => {
    expect(describeDatabaseError(drizzleQueryError(new Error("Connection terminated unexpectedly")))).toMatchObject({ connectionLost: true, refusedData: false });
    expect(describeDatabaseError(driverError("the database system is shutting down", "57P03"))).toMatchObject({ connectionLost: true, refusedData: false });
    const refused = new AggregateError([driverError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")], "");
    expect(describeDatabaseError(refused)).toMatchObject({ message: "connect ECONNREFUSED 127.0.0.1:5432", sqlState: undefined, connectionLost: true });
  });

  it("R29: a long or many-line cause is cut to its first line of at most 300 characters", () => {
    const described = describeDatabaseError(driverError(`${"y".repeat(1000)}\nsecond line`, "XX000"));
    expect(described.message).toHaveLength(300);
    expect(described.message).not.toContain("\n");
    expect(described).toMatchObject({ refusedData: false, connectionLost: false });
  });
});
