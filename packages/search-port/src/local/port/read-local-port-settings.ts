import { resolve } from "node:path";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import { z } from "zod";
import { embeddingsSchema } from "../../internal/embeddings-schema.js";
import { parseAnswerabilityModel, type AnswerabilityModel } from "../answerability/answerability-model.js";
import { defaultAnswerabilityModel } from "../answerability/default-answerability-model.js";
import type { EmbedderIdentity, LocalSearchPortOptions } from "./local-search-port.js";
import { defaultRefreshIntervalMs } from "../reader/manifest-watch.js";
import { warnRefreshError } from "../reader/reader-refresh.js";

/**
 * The default weight of the dense score in the fused score of a query in scripts other than
 * Chinese, Japanese and Korean, chosen with `defaultCjkDenseWeight` on the development halves of every eval set
 * with the offline embedder (README, "Fusion"; `pnpm --filter @lookup-knowledge/eval run fusion`).
 */
export const defaultDenseWeight = 0.25;

/**
 * The default weight of the dense score for a query in CJK scripts. The offline embedder
 * knows Chinese words only through their English glosses (kana and Korean only as character
 * pairs), so its vector of CJK text is coarser than of English. Chosen with
 * `defaultDenseWeight` on the development halves of every eval set (README, "Fusion").
 */
export const defaultCjkDenseWeight = 0.05;

/**
 * The default cosine floor: about what unrelated texts reach with the offline embedder.
 * The dense score is the cosine's excess over it, stretched to 0..1 (README, "Score").
 */
export const defaultDenseFloor = 0.3;

/**
 * The default number of candidates of approximate dense search (`approximateDense`): the
 * smallest of 4,000 / 10,000 / 20,000 / 40,000 whose recall@10 against exact dense search
 * reached 0.95 on the dev half of the queries (odd positions) at SciFact x 200, 1,036,600
 * chunks (`bench/index-peers/approximate-recall.mjs`); README, "Approximate dense search".
 */
export const defaultApproximateCandidates = 20_000;

/**
 * The default cut on a hit's fused ranking score (README, "Score"): none. Whether the list
 * answers the query is the answerability judgement's to say, never a reason to drop hits.
 */
export const defaultMinScore = 0;

/** The options of `openLocalSearchPort`, checked, resolved and with their defaults. */
export interface LocalPortSettings {
  directory: string;
  mode: "read" | "write";
  /** A writer, on an index of another embedder: refuse it, or start empty (`LocalSearchPortOptions.onEmbedderChange`). */
  onEmbedderChange: NonNullable<LocalSearchPortOptions["onEmbedderChange"]>;
  embeddings: EmbeddingsInterface | undefined;
  embedder: EmbedderIdentity | null;
  denseWeight: number;
  /** The dense weight of a query in CJK scripts (`queryDenseWeight` mixes the two by the query's terms). */
  cjkDenseWeight: number;
  denseFloor: number;
  minScore: number;
  /** Candidates per approximate dense search; undefined: exact dense search. */
  approximateCandidates: number | undefined;
  answerability: AnswerabilityModel | undefined;
  refreshIntervalMs: number;
  /** Bytes of postings a reader keeps; undefined: `postingsCacheLimit` of its postings file. */
  postingsCacheBytes: number | undefined;
  onRefreshError: (error: Error) => void;
}

const identitySchema = z.strictObject({
  id: z.string().min(1),
  version: z.string(),
  dimension: z.number().int().positive(),
});

const identityReason = "expected { id: non-empty string, version: string, dimension: positive integer }";

function fraction(reason = "expected a number from 0 to 1", below = 1.5) {
  return z.custom<number>((value) => typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1 && value < below, {
    error: reason,
  });
}

const approximateDenseSchema = z.strictObject(
  {
    candidates: z
      .custom<number>((value) => Number.isSafeInteger(value) && (value as number) >= 1, {
        error: "expected a whole number of candidates, 1 or more",
      })
      .optional(),
  },
  { error: "expected true, false or { candidates?: whole number, 1 or more }" },
);

const optionsSchema = z.object(
  {
    directory: z
      .string({ error: "expected the path of the index folder" })
      .refine((directory) => directory.trim() !== "", { error: "expected the path of the index folder" }),
    mode: z.enum(["read", "write"], { error: 'expected "read" or "write"' }).optional(),
    onEmbedderChange: z
      .custom<NonNullable<LocalSearchPortOptions["onEmbedderChange"]>>(
        (value) => value === "refuse" || value === "start-empty" || typeof value === "function",
        { error: 'expected "refuse", "start-empty" or a function that returns one of them' },
      )
      .optional(),
    denseWeight: fraction().optional(),
    cjkDenseWeight: fraction().optional(),
    minScore: fraction().optional(),
    denseFloor: fraction("expected a number from 0 to below 1", 1).optional(),
    approximateDense: z.unknown().optional(),
    embeddings: embeddingsSchema.optional(),
    embedder: z.unknown().optional(),
    answerability: z.unknown().optional(),
    refreshIntervalMs: z
      .custom<number>((value) => typeof value === "number" && Number.isFinite(value) && value >= 0, {
        error: "expected milliseconds, 0 or more",
      })
      .optional(),
    postingsCacheBytes: z
      .custom<number>((value) => Number.isSafeInteger(value) && (value as number) >= 0, {
        error: "expected a whole number of bytes, 0 or more",
      })
      .optional(),
    onRefreshError: z.custom<(error: Error) => void>((value) => typeof value === "function", { error: "expected a function" }).optional(),
  },
  { error: "expected an object with a directory" },
);

const embedderSchema = z.custom<EmbedderIdentity>((value) => identitySchema.safeParse(value).success, { error: identityReason });

/**
 * Reads the options of `openLocalSearchPort`: each one's shape through zod (`parseOptions`),
 * then the embedder identity (given, or the embeddings' own `identity`) and what depends on
 * several options. A bad option is a `ConfigurationError` whose key is the option's name
 * (`denseWeight`, `answerability.kind`), as the README documents it.
 */
export function readLocalPortSettings(input: LocalSearchPortOptions): LocalPortSettings {
  const options = parseOptions(optionsSchema, input, "");
  const mode = options.mode ?? "read";
  const { embeddings } = options;
  const declared = options.embedder ?? (embeddings as { identity?: unknown } | undefined)?.identity;
  let embedder: EmbedderIdentity | null = null;
  if (declared !== undefined) {
    parseOptions(embedderSchema, declared, "embedder");
    embedder = identitySchema.parse(declared);
  } else if (embeddings !== undefined) {
    throw new ConfigurationError({
      key: "embedder",
      value: undefined,
      reason: "these embeddings have no identity: pass embedder { id, version, dimension } so the index can record whose vectors it holds",
    });
  }
  if (options.onEmbedderChange !== undefined && options.onEmbedderChange !== "refuse" && mode !== "write") {
    throw new ConfigurationError({
      key: "onEmbedderChange",
      value: options.onEmbedderChange,
      reason: 'only a writer (mode "write") may start an index of another embedder empty',
    });
  }
  if (mode === "write" && embedder !== null && embeddings === undefined) {
    throw new ConfigurationError({
      key: "embeddings",
      value: undefined,
      reason: "a writer given an embedder identity needs the embeddings too, to embed the records it upserts",
    });
  }
  const answerability =
    options.answerability === false
      ? undefined
      : options.answerability === undefined
        ? defaultAnswerabilityModel
        : parseAnswerabilityModel(options.answerability);
  return {
    directory: resolve(options.directory),
    mode,
    onEmbedderChange: options.onEmbedderChange ?? "refuse",
    embeddings,
    embedder,
    denseWeight: options.denseWeight ?? defaultDenseWeight,
    // A weight given for every query holds for CJK ones too, unless one is given for them.
    cjkDenseWeight: options.cjkDenseWeight ?? options.denseWeight ?? defaultCjkDenseWeight,
    denseFloor: options.denseFloor ?? defaultDenseFloor,
    minScore: options.minScore ?? defaultMinScore,
    approximateCandidates:
      options.approximateDense === undefined || options.approximateDense === false
        ? undefined
        : options.approximateDense === true
          ? defaultApproximateCandidates
          : (parseOptions(approximateDenseSchema, options.approximateDense, "approximateDense").candidates ?? defaultApproximateCandidates),
    answerability,
    refreshIntervalMs: options.refreshIntervalMs ?? defaultRefreshIntervalMs,
    postingsCacheBytes: options.postingsCacheBytes,
    onRefreshError: options.onRefreshError ?? warnRefreshError,
  };
}
