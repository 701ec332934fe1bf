import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defaultAnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Calibration, writeCalibrationFile } from "./evaluation/calibration-file.js";
import { ingestIntoLocalIndex } from "./ingest-into-local-index.js";
import { openLocalKnowledgeBase } from "./open-local-knowledge-base.js";
import { storeIdentity } from "./open-search-store.js";
import { exampleKnowledgeBase } from "./test/example-knowledge-base.js";

const question = "Who can issue a refund for a paid invoice?";

function calibrationFor(dataDirectory: string, version: number): Calibration {
  const identity = storeIdentity({ kind: "local" }, dataDirectory);
  return {
    version: 1,
    store: { kind: identity.kind, description: identity.description, key: identity.key },
    embedder: identity.embedder,
    fittedAt: new Date().toISOString(),
    questions: { file: "questions.jsonl", answerable: 10, outOfScope: 10 },
    fitted: { kind: "answerability-model", model: { ...defaultAnswerabilityModel, version } },
  };
}

// The demo's opener reads the folder's calibration.json as openKnowledgeBase and the CLI do.
describe("openLocalKnowledgeBase", () => {
  let dataDirectory: string;
  beforeAll(async () => {
    dataDirectory = await mkdtemp(join(tmpdir(), "open-local-knowledge-base-"));
    await ingestIntoLocalIndex({ root: exampleKnowledgeBase, dataDirectory });
  });
  afterAll(async () => {
    await rm(dataDirectory, { recursive: true, force: true });
  });

  it("R9: uses the fitted answerability model in calibration.json for the port's score", async () => {
    await writeCalibrationFile(dataDirectory, calibrationFor(dataDirectory, 4242));
    const knowledgeBase = await openLocalKnowledgeBase({ dataDirectory });
    try {
      expect(knowledgeBase.calibration).toMatchObject({ status: "used" });
      const result = await knowledgeBase.retriever.lookup(question);
      expect(result.found).toBe(true);
      expect(result.retrievalTrace.attempts[0]?.answerability?.model).toMatch(/@4242$/);
    } finally {
      await knowledgeBase.close();
    }
  });

  it("ignores it with calibration: false, and warns about one fitted for another store", async () => {
    const ignored = await openLocalKnowledgeBase({ dataDirectory, calibration: false });
    try {
      expect(ignored.calibration).toBeUndefined();
      expect((await ignored.retriever.lookup(question)).retrievalTrace.attempts[0]?.answerability?.model).not.toMatch(/@4242$/);
    } finally {
      await ignored.close();
    }
    const other = calibrationFor(dataDirectory, 4243);
    const warnings: string[] = [];
    const mismatched = await openLocalKnowledgeBase({
      dataDirectory,
      calibration: { ...other, store: { ...other.store, key: "another-store" } },
      onWarning: (message) => warnings.push(message),
    });
    try {
      expect(mismatched.calibration).toMatchObject({ status: "ignored" });
      expect(warnings.join("\n")).toMatch(/is ignored/);
    } finally {
      await mismatched.close();
    }
  });
});
