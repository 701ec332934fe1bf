import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { defaultAnswerabilityModel } from "../answerability/default-answerability-model.js";
import { defaultRefreshIntervalMs } from "../reader/manifest-watch.js";
import { warnRefreshError } from "../reader/reader-refresh.js";
import { defaultDenseFloor, defaultMinScore, localSearchPortOptionsSchema } from "./local-search-port-options.js";
import type { LocalSearchPortOptions } from "./local-search-port-options.js";

const identity = { id: "test/hash", version: "1", dimension: 4 };
const model = { kind: "logistic" as const, version: 1, bias: 0, weights: { lexical: 1 }, fittedOn: undefined };

describe("localSearchPortOptionsSchema", () => {
  it("takes exactly the documented options: its input type is LocalSearchPortOptions, property by property (a new, dropped or retyped option fails the type check)", () => {
    expectTypeOf<LocalSearchPortOptions>().toEqualTypeOf<z.input<ReturnType<typeof localSearchPortOptionsSchema>>>();
  });

  it("fills in the defaults that depend on no other option", () => {
    const parsed = localSearchPortOptionsSchema().parse({ directory: "index" });
    expect(parsed).toMatchObject({
      mode: "read",
      onEmbedderChange: "refuse",
      minScore: defaultMinScore,
      denseFloor: defaultDenseFloor,
      refreshIntervalMs: defaultRefreshIntervalMs,
    });
    expect(parsed.onRefreshError).toBe(warnRefreshError);
    expect(parsed.answerability).toBe(defaultAnswerabilityModel);
    expect(parsed.denseWeight).toBeUndefined();
    expect(parsed.cjkDenseWeight).toBeUndefined();
    expect(parsed.postingsCacheBytes).toBeUndefined();
    expect(parsed.approximateDense).toBeUndefined();
  });

  it("reads the embedder and the answerability model as copies, without the fields given as undefined", () => {
    const parsed = localSearchPortOptionsSchema().parse({ directory: "index", embedder: identity, answerability: model });
    expect(parsed.embedder).toEqual(identity);
    expect(parsed.embedder).not.toBe(identity);
    expect(parsed.answerability).toStrictEqual({ kind: "logistic", version: 1, bias: 0, weights: { lexical: 1 } });
    expect(localSearchPortOptionsSchema().parse({ directory: "index", answerability: false }).answerability).toBe(false);
  });
});
