import { createServer } from "node:net";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeDatabaseError } from "./describe-database-error.js";

/** What Drizzle throws: the statement and every parameter in the message, the driver's error as cause. */
function drizzleQueryError(cause: unknown): Error {
  const error = new Error(
    `Failed query: insert into "tool_invocation" ("id", "query") values ($1, $2)\nparams: id-1,${"x".repeat(100_000)}`,
  );
  (error as { cause?: unknown }).cause = cause;
  return error;
}

function driverError(message: string, code?: string): Error {
  return Object.assign(new Error(message), code === undefined ? {} : { code });
}

/** The error `promise` rejects with. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

/** A `pg` server error as pg-protocol builds it from an ErrorResponse. */
function pgServerError(message: string, code: string): Error {
  const error = new pg.DatabaseError(message, message.length, "error");
  error.code = code;
  error.severity = "ERROR";
  return error;
}

describe("describeDatabaseError", () => {
  it("R29: names the driver's cause in one line, never the statement or its parameters", () => {
    const described = describeDatabaseError(drizzleQueryError(driverError('value "3000000000" is out of range for type integer', "22003")));
    expect(described).toEqual({
      message: 'value "3000000000" is out of range for type integer',
      sqlState: "22003",
      refusedData: true,
      connectionLost: false,
      driverFailure: false,
    });
  });

  it("R29: a lost connection (a network error, class 08 or 57P) is an outage, not refused data", () => {
    expect(describeDatabaseError(drizzleQueryError(new Error("Connection terminated unexpectedly")))).toMatchObject({
      connectionLost: true,
      refusedData: false,
      driverFailure: false,
    });
    expect(describeDatabaseError(driverError("the database system is shutting down", "57P03"))).toMatchObject({
      connectionLost: true,
      refusedData: false,
    });
    expect(describeDatabaseError(pgServerError("terminating connection due to administrator command", "57P01"))).toMatchObject({
      connectionLost: true,
      sqlState: "57P01",
    });
    expect(describeDatabaseError(pgServerError("connection failure", "08006"))).toMatchObject({ connectionLost: true, sqlState: "08006" });
    const refused = new AggregateError([driverError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED")], "");
    expect(describeDatabaseError(refused)).toMatchObject({
      message: "connect ECONNREFUSED 127.0.0.1:5432",
      sqlState: undefined,
      connectionLost: true,
    });
    // EPIPE has five capitals, as a SQLSTATE has: it is still a network error.
    expect(describeDatabaseError(driverError("write EPIPE", "EPIPE"))).toMatchObject({
      sqlState: undefined,
      connectionLost: true,
      driverFailure: false,
    });
    for (const code of ["ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH"]) {
      expect(describeDatabaseError(driverError(`${code} somewhere`, code)), code).toMatchObject({
        sqlState: undefined,
        connectionLost: true,
        driverFailure: false,
      });
    }
  });

  it("R29: an error with no SQLSTATE that is no network error (a driver or serialiser bug) is a driver failure, not an outage", () => {
    // What pg throws when a jsonb parameter cannot be serialised.
    const serialiser = (() => {
      try {
        JSON.stringify({ count: 1n });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(serialiser).toBeInstanceOf(TypeError);
    expect(describeDatabaseError(drizzleQueryError(serialiser))).toMatchObject({
      sqlState: undefined,
      connectionLost: false,
      refusedData: false,
      driverFailure: true,
    });
    expect(describeDatabaseError(new RangeError("Invalid array length"))).toMatchObject({ connectionLost: false, driverFailure: true });
  });

  it("R29: a long or many-line cause is cut to its first line of at most 300 characters", () => {
    const described = describeDatabaseError(driverError(`${"y".repeat(1000)}\nsecond line`, "XX000"));
    expect(described.message).toHaveLength(300);
    expect(described.message).not.toContain("\n");
    expect(described).toMatchObject({ refusedData: false, connectionLost: false, driverFailure: false });
  });

  describe("real driver errors", () => {
    let lite: PGlite;
    beforeAll(async () => {
      lite = await PGlite.create();
    });
    afterAll(async () => {
      await lite.close();
    });

    it("R29: PGlite's errors carry their SQLSTATE: out of range and not-null are refused data, a syntax error is not", async () => {
      expect(describeDatabaseError(await rejection(lite.query("select 3000000000::int")))).toMatchObject({
        sqlState: "22003",
        refusedData: true,
        connectionLost: false,
        driverFailure: false,
      });
      await lite.exec("create table t (id int not null)");
      expect(describeDatabaseError(await rejection(lite.query("insert into t values (null)")))).toMatchObject({
        sqlState: "23502",
        refusedData: true,
        connectionLost: false,
      });
      expect(describeDatabaseError(await rejection(lite.query("selec 1")))).toMatchObject({
        sqlState: "42601",
        refusedData: false,
        connectionLost: false,
        driverFailure: false,
      });
    });

    it("R29: pg's connection refused (an AggregateError or a plain error) and its connect timeout are outages", async () => {
      // A port nobody listens on: take one, then free it.
      const port = await new Promise<number>((resolve) => {
        const server = createServer();
        server.listen(0, "127.0.0.1", () => {
          const { port: taken } = server.address() as { port: number };
          server.close(() => resolve(taken));
        });
      });
      const refused = await rejection(new pg.Client({ host: "127.0.0.1", port, user: "x", database: "x", password: "x" }).connect());
      expect(describeDatabaseError(refused)).toMatchObject({
        sqlState: undefined,
        connectionLost: true,
        refusedData: false,
        driverFailure: false,
      });
      // A server that accepts and never answers: pg's connectionTimeoutMillis.
      const silent = createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
      try {
        const { port: silentPort } = silent.address() as { port: number };
        const client = new pg.Client({
          host: "127.0.0.1",
          port: silentPort,
          user: "x",
          database: "x",
          password: "x",
          connectionTimeoutMillis: 200,
        });
        const timedOut = await rejection(client.connect());
        expect(describeDatabaseError(timedOut)).toMatchObject({ sqlState: undefined, connectionLost: true, driverFailure: false });
      } finally {
        silent.close();
      }
    });

    it("R29: pg's server errors (pg-protocol's DatabaseError) are classified by their SQLSTATE", () => {
      expect(
        describeDatabaseError(drizzleQueryError(pgServerError('value "3000000000" is out of range for type integer', "22003"))),
      ).toMatchObject({ sqlState: "22003", refusedData: true, connectionLost: false });
      expect(describeDatabaseError(pgServerError('relation "x" already exists', "42P07"))).toMatchObject({
        sqlState: "42P07",
        refusedData: false,
        connectionLost: false,
        driverFailure: false,
      });
      expect(describeDatabaseError(pgServerError('password authentication failed for user "x"', "28P01"))).toMatchObject({
        sqlState: "28P01",
        refusedData: false,
        connectionLost: false,
        driverFailure: false,
      });
    });
  });
});
