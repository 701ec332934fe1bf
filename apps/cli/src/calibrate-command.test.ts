import { readdirSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { LookupResult } from "@lookup-knowledge/core";
import { defaultAnswerabilityModel } from "@lookup-knowledge/search-port/local";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exampleQuestionLines, writeQuestionFile } from "./test/question-files.js";
import { exampleKnowledgeBase, runLookupKnowledge as lookupKnowledge } from "./test/run-lookup-knowledge.js";

const question = "Who can issue a refund for a paid invoice?";

async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, "utf8")) as T;
}

interface CalibrationJson {
  version: number;
  store: { kind: string; description: string; key: string };
  embedder: { id: string; version?: string; dimension?: number };
  fittedAt: string;
  questions: { file: string; answerable: number; outOfScope: number };
  fitted: {
    kind: string;
    model?: { kind: string; version: number; weights: Record<string, number>; referenceThreshold?: number };
    referenceThreshold?: number;
  };
}

// The real command over the example knowledge base: calibrate writes the file, and later
// lookups on the folder use it (the port's model in their traces, or the fitted threshold).
describe("lookup-knowledge calibrate", () => {
  let cwd: string;
  let questions: string;
  const calibrationFile = () => join(cwd, ".lookup-knowledge", "calibration.json");
  beforeAll(async () => {
    cwd = await mkdtemp(join(tmpdir(), "lookup-knowledge-calibrate-"));
    questions = await writeQuestionFile(cwd, "questions.jsonl");
    expect((await lookupKnowledge(cwd, "ingest", "--no-progress", exampleKnowledgeBase)).code).toBe(0);
  });
  afterAll(async () => {
    await rm(cwd, { recursive: true, force: true });
  });

  it("on the local index fits an answerability model, prints the trade-off table, and writes <data>/calibration.json", async () => {
    const { code, stdout, stderr } = await lookupKnowledge(cwd, "calibrate", "--questions", questions);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Calibrated the local index on .*questions\.jsonl: 8 answerable and 5 out-of-scope questions/);
    expect(stdout).toMatch(/threshold +answerable found +out-of-scope refused/);
    for (const threshold of ["0.20", "0.25", "0.30", "0.35", "0.40", "0.45", "0.50", "0.55", "0.60"]) {
      expect(stdout).toMatch(new RegExp(`^${threshold.replace(".", "\\.")} +\\d/8 +\\d/5`, "m"));
    }
    // Before: the shipped model at its own operating point; now: the fitted model at the
    // threshold of its best balanced accuracy on these questions, kept with the model.
    expect(stdout).toMatch(
      new RegExp(
        `Before: +answerability-logistic@${defaultAnswerabilityModel.version} at ${defaultAnswerabilityModel.referenceThreshold}:`,
      ),
    );
    const fitted = (await readJson<CalibrationJson>(calibrationFile())).fitted.model?.referenceThreshold;
    expect(fitted).toBeGreaterThan(0);
    expect(stdout).toMatch(new RegExp(`^${fitted?.toFixed(2).replace(".", "\\.")} .*in use now$`, "m"));
    expect(stdout).toMatch(
      new RegExp(`Now: +answerability-logistic@1001 at ${fitted}: answerable found \\d/8, out-of-scope refused \\d/5\\.`),
    );
    // Fewer than ten of each: said, and fitted with the stronger penalty.
    expect(stderr).toMatch(/warning: Only 8 answerable and 5 out-of-scope questions: the fit is rough/);
    expect(stdout).toMatch(/L2 penalty 4/);

    const calibration = await readJson<CalibrationJson>(calibrationFile());
    expect(calibration).toMatchObject({
      version: 1,
      store: { kind: "local", description: "local index" },
      embedder: { id: "lookup-knowledge/offline-hash-glove", version: "2", dimension: 356 },
      questions: { file: "questions.jsonl", answerable: 8, outOfScope: 5 },
      fitted: { kind: "answerability-model", model: { kind: "logistic", version: 1001 } },
    });
    expect(Date.parse(calibration.fittedAt)).toBeGreaterThan(Date.now() - 600_000);
    expect(Object.keys(calibration.fitted.model?.weights ?? {}).length).toBeGreaterThan(3);
  });

  it("later lookups use it: query --json and trace <id> show the calibrated model, eval and stats name it", async () => {
    const query = await lookupKnowledge(cwd, "query", "--json", question);
    expect(query.code).toBe(0);
    const result = JSON.parse(query.stdout) as LookupResult;
    expect(result.found).toBe(true);
    for (const attempt of result.retrievalTrace.attempts) expect(attempt.answerability?.model).toBe("answerability-logistic@1001");
    // The gate reads the calibrated model at the threshold fitted with it.
    const fitted = (await readJson<CalibrationJson>(calibrationFile())).fitted.model?.referenceThreshold;
    expect(result.retrievalTrace.referenceThreshold).toBe(fitted);

    const [record] = JSON.parse((await lookupKnowledge(cwd, "traces", "--json", "--limit", "1")).stdout) as Array<{ id: string }>;
    const trace = await lookupKnowledge(cwd, "trace", record?.id ?? "");
    expect(trace.stdout).toMatch(/answerability [01]\.\d{3} \(answerability-logistic@1001\)/);

    const evaluation = await lookupKnowledge(cwd, "eval", "--questions", questions, "--json");
    const report = JSON.parse(evaluation.stdout) as {
      calibration: { status: string; fitted: string };
      questions: Array<{ answerability?: { model: string } }>;
    };
    expect(report.calibration).toMatchObject({ status: "used", fitted: "answerability-logistic@1001" });
    expect(
      report.questions
        .filter((outcome) => outcome.answerability)
        .every((outcome) => outcome.answerability?.model === "answerability-logistic@1001"),
    ).toBe(true);

    const stats = await lookupKnowledge(cwd, "stats");
    expect(stats.stdout).toMatch(
      /calibration +answerability-logistic@1001, fitted \d{4}-\d\d-\d\d \d\d:\d\d on questions\.jsonl \(8 answerable, 5 out of scope\)/,
    );
  });

  it("a second calibration gets the next version and compares itself with the one in use", async () => {
    const { code, stdout } = await lookupKnowledge(cwd, "calibrate", "--questions", questions);
    expect(code).toBe(0);
    expect(stdout).toMatch(/answerability-logistic@1001/);
    const model = (await readJson<CalibrationJson>(calibrationFile())).fitted.model;
    expect(model?.version).toBe(1002);
    expect(stdout).toMatch(new RegExp(`Now: +answerability-logistic@1002 at ${model?.referenceThreshold}:`));
  });

  it("a calibration written before models kept a threshold is read at the default 0.35, and calibrating again says so", async () => {
    const file = calibrationFile();
    const older = await readJson<CalibrationJson>(file);
    delete older.fitted.model?.referenceThreshold;
    await writeFile(file, JSON.stringify(older));
    const query = JSON.parse((await lookupKnowledge(cwd, "query", "--json", question)).stdout) as LookupResult;
    expect(query.retrievalTrace.referenceThreshold).toBe(0.35);
    const { code, stdout } = await lookupKnowledge(cwd, "calibrate", "--questions", questions);
    expect(code).toBe(0);
    expect(stdout).toMatch(/Before: +answerability-logistic@1002 at 0\.35:/);
    const model = (await readJson<CalibrationJson>(file)).fitted.model;
    expect(model?.version).toBe(1003);
    expect(stdout).toMatch(new RegExp(`Now: +answerability-logistic@1003 at ${model?.referenceThreshold}:`));
  });

  it("refuses fewer than 2 answerable or 2 out-of-scope questions, saying how many it has", async () => {
    const few = await writeQuestionFile(cwd, "few.jsonl", exampleQuestionLines.slice(0, 9));
    const before = await readFile(calibrationFile(), "utf8");
    const { code, stderr } = await lookupKnowledge(cwd, "calibrate", "--questions", few);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /Calibrating needs at least 2 answerable and 2 out-of-scope questions \(relevant: \[\]\) in .*few\.jsonl; it has 8 and 1\./,
    );
    expect(await readFile(calibrationFile(), "utf8")).toBe(before);
  });

  it("a calibration fitted for another store or embedder is ignored with a warning; lookups fall back to the default model", async () => {
    const good = await readFile(calibrationFile(), "utf8");
    const other = JSON.parse(good) as CalibrationJson;
    other.embedder = { id: "acme/other-embedder", version: "7", dimension: 768 };
    await writeFile(calibrationFile(), JSON.stringify(other));
    const query = await lookupKnowledge(cwd, "query", "--json", question);
    expect(query.code).toBe(0);
    expect(query.stderr).toMatch(
      /warning: The calibration in .*calibration\.json is ignored: it was fitted with the embedder acme\/other-embedder@7/,
    );
    const model = (JSON.parse(query.stdout) as LookupResult).retrievalTrace.attempts[0]?.answerability?.model;
    expect(model).toMatch(/^answerability-logistic@\d+$/);
    expect(model).not.toBe("answerability-logistic@1003");
    // Ignored, so the default model reads at its own threshold.
    expect((JSON.parse(query.stdout) as LookupResult).retrievalTrace.referenceThreshold).toBe(defaultAnswerabilityModel.referenceThreshold);
    const stats = await lookupKnowledge(cwd, "stats");
    expect(stats.stdout).toMatch(/calibration +answerability-logistic@1003, .*; not used: it was fitted with the embedder/);
    await writeFile(calibrationFile(), good);
  });

  it("a corrupt calibration file is refused naming the file; calibrate replaces it", async () => {
    const good = await readFile(calibrationFile(), "utf8");
    await writeFile(calibrationFile(), "{ not json");
    const query = await lookupKnowledge(cwd, "query", question);
    expect(query.code).toBe(2);
    expect(query.stderr).toMatch(/^lookup-knowledge: The calibration file .*\.lookup-knowledge\/calibration\.json is not valid JSON\.$/m);
    expect(query.stderr).toMatch(/lookup-knowledge calibrate --questions <file>` again/);
    const broken = JSON.parse(good) as CalibrationJson;
    (broken.fitted.model as { weights: Record<string, unknown> }).weights["lexical"] = "high";
    await writeFile(calibrationFile(), JSON.stringify(broken));
    const badModel = await lookupKnowledge(cwd, "eval", "--questions", questions);
    expect(badModel.code).toBe(2);
    expect(badModel.stderr).toMatch(/calibration\.json holds a bad answerability model .*fitted\.model\.weights\.lexical/);
    const again = await lookupKnowledge(cwd, "calibrate", "--questions", questions);
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(/warning: The calibration file .* It is replaced\./);
    expect((await readJson<CalibrationJson>(calibrationFile())).fitted.kind).toBe("answerability-model");
  });

  describe("R13: on a libSQL store", () => {
    const libsql = () => ["--store", "libsql", "--store-url", `file:${join(cwd, "knowledge.db")}`];
    const stateFile = () => {
      const stores = join(cwd, ".lookup-knowledge", "stores");
      const [folder] = readdirSync(stores).filter((name) => name.startsWith("libsql-"));
      return join(stores, folder ?? "", "calibration.json");
    };
    beforeAll(async () => {
      expect((await lookupKnowledge(cwd, ...libsql(), "ingest", "--no-progress", exampleKnowledgeBase)).code).toBe(0);
    });

    it("fits the reference threshold of the best balanced accuracy into the store's own state folder; lookups use it", async () => {
      const { code, stdout } = await lookupKnowledge(cwd, ...libsql(), "calibrate", "--questions", questions);
      expect(code).toBe(0);
      expect(stdout).toMatch(/Calibrated the libsql file:.*knowledge\.db, table vectors on .*questions\.jsonl/);
      expect(stdout).toMatch(/^0\.35 .*in use before$/m);
      const calibration = await readJson<CalibrationJson>(stateFile());
      expect(calibration).toMatchObject({
        version: 1,
        store: { kind: "libsql" },
        embedder: { id: "lookup-knowledge/offline-hash-glove" },
        fitted: { kind: "reference-threshold" },
      });
      const threshold = calibration.fitted.referenceThreshold as number;
      // On these questions the fitted cut refuses more out-of-scope questions than the default 0.35 (found by measurement).
      expect(threshold).not.toBe(0.35);
      expect(stdout).toMatch(new RegExp(`^${threshold.toFixed(2).replace(".", "\\.")} .*in use now$`, "m"));
      // The local index's calibration is its own: still the model.
      expect((await readJson<CalibrationJson>(calibrationFile())).fitted.kind).toBe("answerability-model");

      const query = JSON.parse((await lookupKnowledge(cwd, ...libsql(), "query", "--json", question)).stdout) as LookupResult;
      expect(query.retrievalTrace.referenceThreshold).toBe(threshold);
      const evaluation = JSON.parse((await lookupKnowledge(cwd, ...libsql(), "eval", "--questions", questions, "--json")).stdout) as {
        referenceThreshold: number;
        outOfScope: { refused: number };
      };
      expect(evaluation.referenceThreshold).toBe(threshold);
      expect(evaluation.outOfScope.refused).toBe(5);
      expect((await lookupKnowledge(cwd, ...libsql(), "stats")).stdout).toMatch(
        new RegExp(`calibration +reference threshold ${threshold}, fitted `),
      );
    });

    it("a rag.reference-threshold set in the settings wins over the fitted one, and stats says so", async () => {
      const config = join(cwd, "lookup-knowledge.config.json");
      await writeFile(config, JSON.stringify({ "rag.reference-threshold": 0.3 }));
      try {
        const query = JSON.parse((await lookupKnowledge(cwd, ...libsql(), "query", "--json", question)).stdout) as LookupResult;
        expect(query.retrievalTrace.referenceThreshold).toBe(0.3);
        expect((await lookupKnowledge(cwd, ...libsql(), "stats")).stdout).toMatch(
          /not used: rag\.reference-threshold is set in the settings/,
        );
        const calibrate = await lookupKnowledge(cwd, ...libsql(), "calibrate", "--questions", questions);
        expect(calibrate.stderr).toMatch(/rag\.reference-threshold is set in the settings \(0\.3\), so lookups keep it/);
        expect(calibrate.stdout).toMatch(/^0\.30 .*in use now$/m);
      } finally {
        await rm(config);
      }
    });
  });
});
