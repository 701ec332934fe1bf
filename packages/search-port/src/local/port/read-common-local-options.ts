import { defaultAnswerabilityModel } from "../answerability/default-answerability-model.js";
import { defaultRefreshIntervalMs } from "../reader/manifest-watch.js";
import { warnRefreshError } from "../reader/reader-refresh.js";
import type { EmbedderIdentity } from "./local-search-port.js";
import { defaultDenseFloor, defaultMinScore, type localSearchPortOptionsSchema } from "./local-search-port-options.js";
import type { z } from "zod";

// Issue 36 item 5: a zod schema's first parse in a process compiles it, which cost a one-query
// process more than its search at 100k chunks. The options almost every caller gives (a folder,
// a mode, embeddings, weights) are read here with plain checks, to the very value the schema
// gives them; anything else, and anything these checks do not accept, goes through the schema,
// so a bad option is refused by it with its usual message (read-common-local-options.test.ts
// holds the two side by side).

type ParsedLocalOptions = z.output<ReturnType<typeof localSearchPortOptionsSchema>>;

const fractionKeys = ["denseWeight", "cjkDenseWeight", "minScore"] as const;
const commonKeys = new Set<string>([
  "directory",
  "mode",
  ...fractionKeys,
  "denseFloor",
  "embeddings",
  "refreshIntervalMs",
  "postingsCacheBytes",
  // What the ingest's writer gives (a function): without it here, every CLI ingest loaded zod to read it.
  "onEmbedderChange",
]);

const isFraction = (value: unknown, below = 1.5): value is number =>
  typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1 && value < below;

/**
 * The parsed options when `input` holds only common options, each valid; otherwise undefined
 * (the caller parses it with the schema). Keys whose value is undefined count as not given.
 */
export function readCommonLocalOptions(input: unknown): ParsedLocalOptions | undefined {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return undefined;
  const given = input as Record<string, unknown>;
  for (const [key, value] of Object.entries(given)) if (value !== undefined && !commonKeys.has(key)) return undefined;
  const { directory, mode, denseFloor, embeddings, refreshIntervalMs, postingsCacheBytes } = given;
  if (typeof directory !== "string" || directory.trim() === "") return undefined;
  if (mode !== undefined && mode !== "read" && mode !== "write") return undefined;
  if (fractionKeys.some((key) => given[key] !== undefined && !isFraction(given[key]))) return undefined;
  if (denseFloor !== undefined && !isFraction(denseFloor, 1)) return undefined;
  if (embeddings !== undefined && !hasMethods(embeddings, ["embedQuery", "embedDocuments"])) return undefined;
  if (
    refreshIntervalMs !== undefined &&
    !(typeof refreshIntervalMs === "number" && Number.isFinite(refreshIntervalMs) && refreshIntervalMs >= 0)
  )
    return undefined;
  const { onEmbedderChange } = given;
  if (
    onEmbedderChange !== undefined &&
    onEmbedderChange !== "refuse" &&
    onEmbedderChange !== "start-empty" &&
    typeof onEmbedderChange !== "function"
  )
    return undefined;
  if (postingsCacheBytes !== undefined && !(Number.isSafeInteger(postingsCacheBytes) && (postingsCacheBytes as number) >= 0))
    return undefined;
  return {
    directory,
    mode: mode ?? "read",
    onEmbedderChange: (onEmbedderChange ?? "refuse") as ParsedLocalOptions["onEmbedderChange"],
    ...(given["denseWeight"] === undefined ? {} : { denseWeight: given["denseWeight"] as number }),
    ...(given["cjkDenseWeight"] === undefined ? {} : { cjkDenseWeight: given["cjkDenseWeight"] as number }),
    minScore: (given["minScore"] as number | undefined) ?? defaultMinScore,
    denseFloor: denseFloor ?? defaultDenseFloor,
    ...(embeddings === undefined ? {} : { embeddings: embeddings as NonNullable<ParsedLocalOptions["embeddings"]> }),
    refreshIntervalMs: refreshIntervalMs ?? defaultRefreshIntervalMs,
    ...(postingsCacheBytes === undefined ? {} : { postingsCacheBytes: postingsCacheBytes as number }),
    onRefreshError: warnRefreshError,
    answerability: defaultAnswerabilityModel,
  };
}

/** A copy of an embedder identity that is plainly valid (exactly `id`, `version`, `dimension`), else undefined. */
export function readCommonEmbedderIdentity(value: unknown): EmbedderIdentity | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 3 || !keys.every((key) => key === "id" || key === "version" || key === "dimension")) return undefined;
  const { id, version, dimension } = value as Record<string, unknown>;
  if (typeof id !== "string" || id === "" || typeof version !== "string") return undefined;
  if (typeof dimension !== "number" || !Number.isSafeInteger(dimension) || dimension <= 0) return undefined;
  return { id, version, dimension };
}

function hasMethods(value: unknown, methods: readonly string[]): boolean {
  return (
    value !== null && typeof value === "object" && methods.every((name) => typeof (value as Record<string, unknown>)[name] === "function")
  );
}
