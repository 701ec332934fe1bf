import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import type { z as Zod } from "zod";
import { objectWithMethods } from "../../internal/object-with-methods.js";
import type { LocalEmbeddings } from "../writer/embedded-row.js";
import { answerabilityOptionSchema } from "../answerability/answerability-model.js";
import type { AnswerabilityModel } from "../answerability/answerability-model.js";
import { defaultAnswerabilityModel } from "../answerability/default-answerability-model.js";
import { defaultRefreshIntervalMs } from "../reader/manifest-watch.js";
import { warnRefreshError } from "../reader/reader-refresh.js";
import type { CommittedIndexSummary, EmbedderIdentity } from "./local-search-port.js";

/**
 * How to open a local index folder: the options of `openLocalSearchPort`. They are checked by
 * `localSearchPortOptionsSchema`, whose input type is this one: the type test in
 * `local-search-port-options.test.ts` fails when the two differ. The interface is written out
 * because a type inferred from a schema loses its documentation in the published `.d.ts`.
 */
export interface LocalSearchPortOptions {
  /** The index folder. A writer creates it when missing. */
  directory: string;
  /**
   * Embeds records at upsert time (`embedDocuments`) and queries at search time
   * (`embedQuery`). Without it the port is lexical only; so is a reader of an index built
   * without embeddings (a writer with embeddings refuses such an index unless it is empty).
   * A LangChain `Embeddings`, or one whose `embedDocuments` (or `embedDocumentRows`) answers
   * `Float32Array` / `Float64Array` rows, which the writer quantises without a copy.
   */
  embeddings?: LocalEmbeddings | undefined;
  /**
   * The identity of `embeddings`, recorded in the index and checked on every open. Defaults
   * to `embeddings.identity` (the offline embedder has one); required when `embeddings` has
   * none.
   */
  embedder?: EmbedderIdentity | undefined;
  /** `"read"` (the default) opens the last committed state; `"write"` also takes the folder's lock. */
  mode?: "read" | "write" | undefined;
  /**
   * What a writer does with an index whose vectors another embedder made (an earlier version
   * of the offline embedder, say): `"refuse"` (the default) throws `EmbedderMismatchError`;
   * `"start-empty"` opens it as an empty index. The committed generation stays as it is, and
   * readable by readers of its embedder, until this writer's first commit replaces it whole:
   * write every record again before committing (`ingestFolder` with `rebuild` does). A
   * function decides from what the committed index holds, once the writer holds the lock.
   * Only a writer may start empty.
   */
  onEmbedderChange?: "refuse" | "start-empty" | ((committed: CommittedIndexSummary) => "refuse" | "start-empty") | undefined;
  /**
   * The weight of the dense (embedding) score in the fused score of a query in scripts other
   * than Chinese, Japanese and Korean, 0..1: `fused = (1 - w) * lexical + w * dense`. Default
   * 0.25, chosen by measurement (README, "Fusion"). Given alone, it is the weight of every
   * query: 0 ranks by BM25 alone and never embeds the query. Without `embeddings` the port is
   * lexical only whatever the weight.
   */
  denseWeight?: number | undefined;
  /**
   * The dense weight of a query in CJK scripts (Chinese, Japanese, Korean), 0..1; a query of
   * both takes the two weights mixed by its share of CJK terms (`queryDenseWeight`). Default
   * `denseWeight` when that is given, else 0.05, chosen by measurement with the offline
   * embedder (README, "Fusion"). A query whose weight is 0 is not embedded.
   */
  cjkDenseWeight?: number | undefined;
  /**
   * The cosine that unrelated texts reach with your embedder, 0..<1: the dense score is
   * `(cosine - denseFloor) / (1 - denseFloor)`, clipped to 0..1. Default 0.3, measured for
   * the offline embedder; embedders whose unrelated texts sit at higher cosines (many
   * neural ones do) need a higher floor.
   */
  denseFloor?: number | undefined;
  /**
   * Approximate dense search, for indexes of a million chunks and more (README,
   * "Approximate dense search"): a one-bit sketch of every vector picks the `candidates`
   * records with the best estimated cosine; those, and the `candidates / 10` records with
   * the best lexical scores, get their exact dense score and are ranked as usual. Returned
   * scores are exact for their records; a record outside both lists can be missed. `true`
   * or `{}`: 20,000 candidates (`defaultApproximateCandidates`). Default `false`: every
   * record's dense score is exact.
   */
  approximateDense?: { candidates?: number | undefined } | boolean | undefined;
  /**
   * A cut on the fused ranking score: hits below it are not returned, 0..1. Default 0 (every
   * hit with a positive score). The answerability judgement never drops a hit.
   */
  minScore?: number | undefined;
  /**
   * The model that judges whether the best hit answers the query: a 0..1 probability on the
   * first hit (`SearchHit.answerability`, with the signals it read), which is what
   * `rag.reference-threshold` compares with (R9, R11). It never changes a hit's score or
   * the order: every hit keeps its fused ranking score. Default `defaultAnswerabilityModel`,
   * fitted by `pnpm --filter @lookup-knowledge/eval run calibrate`; `lookup-knowledge
   * calibrate` fits one for your own questions. `false`: no judgement (the retriever then
   * compares the fused score).
   */
  answerability?: AnswerabilityModel | false | undefined;
  /**
   * A reader (`mode: "read"`) picks up newer commits: at the start of a search, at most this
   * often, it checks `manifest.json` (one `stat`) and, when a writer committed, loads the new
   * generation (that search pays for the load). Milliseconds, default 1000; 0 checks before
   * every search. A search already running finishes on the generation it started with.
   * Ignored by a writer (it makes the commits).
   */
  refreshIntervalMs?: number | undefined;
  /**
   * How many bytes of postings a reader keeps in memory, in a ring of reused memory where the
   * lists read last stay until newer ones need their room (a list larger than a quarter of it
   * is never kept; the ring is never larger than the postings file). Default: a quarter of the
   * index's postings file, at least 4 MB and at most 16 MB (16 MB at a million chunks). 0 keeps none: every search reads its terms' postings
   * from the file (the operating system's cache still holds them) into memory the reader uses
   * again. Whole bytes, 0 or more. Ignored by a writer (it holds its lexicon in memory) and by
   * indexes of format 3 or older (read whole).
   */
  postingsCacheBytes?: number | undefined;
  /**
   * Called, once per commit, when a reader cannot load a newer commit (its files are
   * corrupt, `CorruptIndexError`; or it was written with another embedder or analyser,
   * `EmbedderMismatchError` / `AnalyzerMismatchError`). The reader keeps serving the
   * generation it has and does not try that commit again: it tries again when the manifest
   * changes (the next commit). `stats().refreshError` shows the failure until a later commit
   * loads. Default: `console.warn`. Ignored by a writer.
   */
  onRefreshError?: ((error: Error) => void) | undefined;
}

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

/** What a writer does with an index of another embedder (`onEmbedderChange`), or what the function given there returns. */
type EmbedderChangeChoice = "refuse" | "start-empty";

function identitySchema(z: typeof Zod) {
  return z.strictObject({
    id: z.string().min(1),
    version: z.string(),
    dimension: z.number().int().positive(),
  });
}

function buildEmbedderIdentitySchema(z: typeof Zod) {
  const identity = identitySchema(z);
  return z
    .custom<EmbedderIdentity>((value) => identity.safeParse(value).success, {
      error: "expected { id: non-empty string, version: string, dimension: positive integer }",
    })
    .pipe(identity);
}

/**
 * An embedder identity (the option `embedder`, or the `identity` of the embeddings): refused
 * as a whole, under the key it was read from, else read as a copy. Built, and zod loaded, on
 * first use: `readCommonEmbedderIdentity` reads a plainly valid one without it.
 */
export const embedderIdentitySchema = schemaOnDemand(buildEmbedderIdentitySchema);

function fraction(z: typeof Zod, reason = "expected a number from 0 to 1", below = 1.5) {
  return z.custom<number>((value) => typeof value === "number" && Number.isFinite(value) && value >= 0 && value <= 1 && value < below, {
    error: reason,
  });
}

const approximateDenseError = "expected true, false or { candidates?: whole number, 1 or more }";

/**
 * Each option of `openLocalSearchPort` checked on its own, with the defaults that do not
 * depend on other options; `readLocalPortSettings` parses it (through `parseOptions`, so a bad
 * option is a `ConfigurationError` naming it) and then checks what depends on several. The
 * first bad option in the order of these keys is the one reported. Built, and zod loaded, on
 * first use: `readCommonLocalOptions` reads the common options without it (issue 36 item 5).
 */
export const localSearchPortOptionsSchema = schemaOnDemand((z) =>
  z.object(
    {
      directory: z
        .string({ error: "expected the path of the index folder" })
        .refine((directory) => directory.trim() !== "", { error: "expected the path of the index folder" }),
      mode: z.enum(["read", "write"], { error: 'expected "read" or "write"' }).default("read"),
      onEmbedderChange: z
        .custom<EmbedderChangeChoice | ((committed: CommittedIndexSummary) => EmbedderChangeChoice)>(
          (value) => value === "refuse" || value === "start-empty" || typeof value === "function",
          { error: 'expected "refuse", "start-empty" or a function that returns one of them' },
        )
        .default("refuse"),
      // Not defaulted here: a denseWeight given is also the default of cjkDenseWeight.
      denseWeight: fraction(z).optional(),
      cjkDenseWeight: fraction(z).optional(),
      minScore: fraction(z).default(defaultMinScore),
      denseFloor: fraction(z, "expected a number from 0 to below 1", 1).default(defaultDenseFloor),
      // LangChain's Embeddings, or one that answers typed rows (the shared embeddingsSchema types number[][]).
      embeddings: objectWithMethods<LocalEmbeddings>(
        z,
        ["embedQuery", "embedDocuments"],
        "expected a LangChain Embeddings (embedQuery and embedDocuments)",
      ).optional(),
      refreshIntervalMs: z
        .custom<number>((value) => typeof value === "number" && Number.isFinite(value) && value >= 0, {
          error: "expected milliseconds, 0 or more",
        })
        .default(defaultRefreshIntervalMs),
      postingsCacheBytes: z
        .custom<number>((value) => Number.isSafeInteger(value) && (value as number) >= 0, {
          error: "expected a whole number of bytes, 0 or more",
        })
        .optional(),
      onRefreshError: z
        .custom<(error: Error) => void>((value) => typeof value === "function", { error: "expected a function" })
        .default(() => warnRefreshError),
      embedder: buildEmbedderIdentitySchema(z).optional(),
      answerability: answerabilityOptionSchema().default(() => defaultAnswerabilityModel),
      approximateDense: z
        .union(
          [
            z.boolean(),
            z.strictObject(
              {
                // Not aborting, so that a bad count is refused under its own name (approximateDense.candidates).
                candidates: z
                  .custom<number>((value) => Number.isSafeInteger(value) && (value as number) >= 1, {
                    error: "expected a whole number of candidates, 1 or more",
                    abort: false,
                  })
                  .optional(),
              },
              { error: approximateDenseError },
            ),
          ],
          { error: approximateDenseError },
        )
        .optional(),
    },
    { error: "expected an object with a directory" },
  ),
);
