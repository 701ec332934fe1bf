import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCalibration } from "./calibration-api.js";
import { exampleKnowledgeBase, inspectExampleBase, type InspectedBase } from "./test/inspected-base.js";

/** Runs `body` with `TMPDIR` naming a folder that does not exist, so any temp file written fails. */
async function withoutTempFolder<T>(folder: string, body: () => Promise<T>): Promise<T> {
  const saved = { TMPDIR: process.env.TMPDIR, TMP: process.env.TMP, TEMP: process.env.TEMP };
  const missing = join(folder, "no-temp-folder-here");
  Object.assign(process.env, { TMPDIR: missing, TMP: missing, TEMP: missing });
  try {
    return await body();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

describe("runCalibration", () => {
  let base: InspectedBase;
  let lines: string[];
  beforeAll(async () => {
    base = await inspectExampleBase();
    const examples = JSON.parse(await readFile(join(exampleKnowledgeBase, "questions.json"), "utf8")) as Array<{
      question: string;
      relevant: string[];
    }>;
    lines = [
      ...examples
        .slice(0, 3)
        .map((example, index) => JSON.stringify({ id: `q${index}`, query: example.question, relevant: example.relevant })),
      JSON.stringify({ id: "out1", query: "What is the boiling point of ethanol?", relevant: [] }),
    ];
  });
  afterAll(async () => {
    await base?.close();
  });

  it("issue 13 review: the posted question text is parsed in memory: calibration runs with no temp folder to write to", async () => {
    const view = await withoutTempFolder(base.folder, () => runCalibration(base.knowledgeBase, { questions: lines.join("\n") }));
    expect(view.samples.map((sample) => [sample.id, sample.answerable])).toEqual([
      ["q0", true],
      ["q1", true],
      ["q2", true],
      ["out1", false],
    ]);
    expect(view.atThreshold).toMatchObject({ answerableAsked: 3, outOfScopeAsked: 1 });
    expect(view.evaluation.answerable.asked).toBe(3);
  });

  it("issue 13 review: a bad question line is a 400 naming the question file, the line and what was wrong", async () => {
    const text = `${lines[0]}\n\n{"id":"q9","query":"Who refunds?","relevant":"billing/refunds.md"}`;
    const refused = await withoutTempFolder(base.folder, () => runCalibration(base.knowledgeBase, { questions: text })).catch(
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      status: 400,
      code: "invalid_request",
      message: "the question file line 3: relevant: expected an array of document paths ([] for an out-of-scope question)",
    });
    const repeated = await runCalibration(base.knowledgeBase, { questions: `${lines[0]}\n${lines[0]}` }).catch((error: unknown) => error);
    expect(repeated).toMatchObject({ status: 400, message: 'the question file line 2: id "q0" was already used on line 1' });
  });
});
