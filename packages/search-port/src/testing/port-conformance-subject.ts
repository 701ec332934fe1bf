import type { KnowledgeSearchPort } from "../knowledge-search-port.js";
import type { KnowledgeWriter } from "../knowledge-writer.js";

/**
 * A fresh, empty store for the conformance suite: the port to search and the writer that
 * fills it. `describePortConformance` asks for one per group of checks and closes it after.
 */
export interface PortConformanceSubject {
  /** The port under test. */
  port: KnowledgeSearchPort;
  /** Writes into the store the port reads. The suite calls `commit` (when present) after every write. */
  writer: KnowledgeWriter;
  /**
   * Waits until writes are visible to searches, for eventually consistent stores (a live
   * Pinecone index). Called after every write and commit with the number of records the
   * store should hold. Stores that read their own writes leave it out.
   */
  settle?(expected: { recordCount: number }): Promise<void>;
  /** Releases the store (closes files, removes a namespace). Called once per subject. */
  close?(): Promise<void>;
}

/** Makes a fresh, empty store; may be async. */
export type PortConformanceFactory = () => PortConformanceSubject | Promise<PortConformanceSubject>;

/**
 * The test functions the suite registers its checks with. Vitest and Jest provide them under
 * these names; with `node:test`, pass `{ describe, it, beforeAll: before, afterAll: after }`.
 */
export interface ConformanceTestApi {
  describe(name: string, body: () => void): unknown;
  it(name: string, body: () => Promise<void>): unknown;
  beforeAll(body: () => Promise<void>): unknown;
  afterAll(body: () => Promise<void>): unknown;
}

/** Names of the checks, for `PortConformanceOptions.skip`. */
export type PortConformanceCheck =
  | "identity"
  | "filters"
  | "unknown-field"
  | "top-k"
  | "scores"
  | "ranking"
  | "abort"
  | "invalid-filter"
  | "empty-store"
  | "writes";

export interface PortConformanceOptions {
  /**
   * The test functions to register with. Default: the global `describe`, `it`, `beforeAll`
   * and `afterAll` (Vitest with `globals: true`, Jest); without them the suite throws.
   */
  test?: ConformanceTestApi;
  /**
   * Checks to leave out, each registered as skipped with the reason given here. Meant for a
   * store that documents a different behaviour; every built-in adapter passes them all.
   */
  skip?: Partial<Record<PortConformanceCheck, string>>;
}
