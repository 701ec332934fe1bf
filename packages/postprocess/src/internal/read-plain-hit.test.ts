import { describe, expect, it } from "vitest";
import { hitSchema, normalizeHits } from "../normalize-hits.js";
import { readPlainHit } from "./read-plain-hit.js";

const readId = (value: unknown) =>
  typeof value === "string" && value.trim() !== ""
    ? value
    : typeof value === "number" && Number.isFinite(value)
      ? String(value)
      : undefined;
const judgement = { score: 0.7, model: "answerability-logistic@3", signals: { lexical: 0.5, dense_top: 0.2 } };
const good = {
  id: "v1",
  content: "Refunds take five days.",
  score: 0.4,
  answerability: judgement,
  metadata: { docId: "faq", chunkIndex: 0 },
};

/** Every copy of `hit` with one field (at any depth) replaced or removed. */
function* oneFieldChanges(value: unknown): Generator<unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return;
  for (const [key, inner] of Object.entries(value)) {
    for (const replacement of [
      undefined,
      null,
      "",
      " ",
      "x",
      -1,
      0,
      1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      true,
      {},
      [],
      ["a"],
      "a".repeat(90),
    ]) {
      const changed: Record<string, unknown> = { ...value, [key]: replacement };
      if (replacement === undefined) delete changed[key];
      yield changed;
    }
    for (const change of oneFieldChanges(inner)) yield { ...value, [key]: change };
  }
  yield { ...value, extra: 1 };
}

describe("issue 36 item 5: a port hit read without zod", () => {
  it("issue 36 item 5: the plain checks read a hit as the schema does and accept nothing it refuses", () => {
    const tooManySignals = Object.fromEntries(Array.from({ length: 33 }, (_, index) => [`s${index}`, 0.1]));
    const hits = [good, ...oneFieldChanges(good), { ...good, answerability: { ...judgement, signals: tooManySignals } }];
    let accepted = 0;
    for (const hit of hits) {
      const plain = readPlainHit(hit, readId, 32);
      const parsed = hitSchema().safeParse(hit);
      if (plain === null) continue;
      accepted += 1;
      expect(parsed.success, JSON.stringify(hit)).toBe(true);
      const { id, content, score, answerability, metadata } = parsed.data ?? {};
      expect(plain).toEqual({ id, content, score, answerability, metadata });
    }
    expect(accepted).toBeGreaterThan(1);
    expect(accepted).toBeLessThan(hits.length);
  });

  it("issue 36 item 5: a hit the plain checks leave to the schema is refused with its reason, or read as before", () => {
    const { candidates, rejected } = normalizeHits([
      { ...good, score: 1.5 },
      { ...good, id: "v2", answerability: { ...judgement, model: "a b" }, metadata: [] },
    ]);
    expect(rejected).toEqual([{ index: 0, id: "v1", reason: "score 1.5 is outside 0..1" }]);
    expect(candidates.map((candidate) => [candidate.evidenceKey, candidate.metadata])).toEqual([["vector:v2", {}]]);
  });

  it("issue 36 item 5 (review): metadata or signals that are not plain records (a class instance, a symbol key) are left to the schema, and read as before", () => {
    class Fields {
      docId = "faq";
      chunkIndex = 1;
      lexical = 0.5;
    }
    const hits = [
      { ...good, metadata: new Fields() },
      { ...good, metadata: { docId: "faq", [Symbol("s")]: 1 } },
      { ...good, answerability: { ...judgement, signals: new Fields() } },
      { ...good, answerability: { ...judgement, signals: { lexical: 0.5, [Symbol("s")]: 1 } } },
    ];
    for (const hit of hits) {
      expect(readPlainHit(hit, readId, 32)).toBeNull();
      const parsed = hitSchema().parse(hit);
      const [candidate] = normalizeHits([hit]).candidates;
      expect(candidate?.metadata).toEqual(parsed.metadata);
      expect(candidate?.answerability).toEqual(parsed.answerability);
    }
  });
});
