import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { calibrationFilePath, readCalibrationFile, writeCalibrationFile, type Calibration } from "./calibration-file.js";

const calibration: Calibration = {
  version: 1,
  store: { kind: "libsql", description: "libsql file:kb.db, table vectors", key: "0123456789abcdef" },
  embedder: { id: "lookup-knowledge/offline-hash-glove", version: "1", dimension: 356 },
  fittedAt: "2026-12-01T10:00:00.000Z",
  questions: { file: "questions.jsonl", answerable: 12, outOfScope: 10 },
  fitted: { kind: "reference-threshold", referenceThreshold: 0.42 },
};

describe("the calibration file", () => {
  it("round-trips, and a folder without one has none", async () => {
    const folder = await mkdtemp(join(tmpdir(), "calibration-"));
    expect(await readCalibrationFile(folder)).toBeUndefined();
    const written = await writeCalibrationFile(join(folder, "stores", "libsql"), calibration);
    expect(written).toBe(calibrationFilePath(join(folder, "stores", "libsql")));
    expect(await readCalibrationFile(join(folder, "stores", "libsql"))).toEqual(calibration);
    expect(JSON.parse(await readFile(written, "utf8"))).toEqual(calibration);
  });

  it.each([
    ["a newer format", { ...calibration, version: 2 }, /format version 2, newer than this release reads \(1\)/],
    [
      "a threshold out of range",
      { ...calibration, fitted: { kind: "reference-threshold", referenceThreshold: 1.5 } },
      /fitted\.referenceThreshold: /,
    ],
    ["an unknown kind", { ...calibration, fitted: { kind: "magic" } }, /fitted\.kind: /],
    [
      "a bad model",
      {
        ...calibration,
        fitted: { kind: "answerability-model", model: { kind: "logistic", version: 1, bias: 0, weights: { nonsense: 1 } } },
      },
      /bad answerability model/,
    ],
  ])("refuses %s naming the file and the field", async (_name, content, message) => {
    const folder = await mkdtemp(join(tmpdir(), "calibration-"));
    await writeFile(join(folder, "calibration.json"), JSON.stringify(content));
    const error = (await readCalibrationFile(folder).then(
      () => undefined,
      (caught: unknown) => caught,
    )) as Error & { code: string };
    expect(error.code).toBe("invalid_calibration");
    expect(error.message).toContain(join(folder, "calibration.json"));
    expect(error.message).toMatch(message);
  });
});
