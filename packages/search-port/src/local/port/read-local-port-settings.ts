import { resolve } from "node:path";
import { ConfigurationError, parseOptions } from "@lookup-knowledge/core";
import type { z } from "zod";
import type { AnswerabilityModel } from "../answerability/answerability-model.js";
import type { EmbedderIdentity } from "./local-search-port.js";
import {
  defaultApproximateCandidates,
  defaultCjkDenseWeight,
  defaultDenseWeight,
  embedderIdentitySchema,
  localSearchPortOptionsSchema,
} from "./local-search-port-options.js";
import type { LocalSearchPortOptions } from "./local-search-port-options.js";
import { readCommonEmbedderIdentity, readCommonLocalOptions } from "./read-common-local-options.js";

/** The options as `localSearchPortOptionsSchema` gives them: each checked, the independent defaults filled in. */
type ParsedLocalOptions = z.output<ReturnType<typeof localSearchPortOptionsSchema>>;

/**
 * The options of `openLocalSearchPort`, checked, resolved and with their defaults: the parsed
 * options, with what depends on several of them worked out (the folder, the embedder, the
 * dense weights, the approximate candidates, the answerability model).
 */
export interface LocalPortSettings
  extends Pick<ParsedLocalOptions, "mode" | "onEmbedderChange" | "denseFloor" | "minScore" | "refreshIntervalMs" | "onRefreshError"> {
  directory: string;
  embeddings: ParsedLocalOptions["embeddings"];
  embedder: EmbedderIdentity | null;
  denseWeight: number;
  /** The dense weight of a query in CJK scripts (`queryDenseWeight` mixes the two by the query's terms). */
  cjkDenseWeight: number;
  /** Candidates per approximate dense search; undefined: exact dense search. */
  approximateCandidates: number | undefined;
  answerability: AnswerabilityModel | undefined;
  /** Bytes of postings a reader keeps; undefined: `postingsCacheLimit` of its postings file. */
  postingsCacheBytes: ParsedLocalOptions["postingsCacheBytes"];
}

/**
 * Reads the options of `openLocalSearchPort`: each one's shape through zod (`parseOptions`),
 * or, for the common options, through plain checks that give the same values
 * (`readCommonLocalOptions`: a schema's first parse is costly in a short process), then the embedder identity (given, or the embeddings' own `identity`) and what depends on
 * several options. A bad option is a `ConfigurationError` whose key is the option's name
 * (`denseWeight`, `answerability.kind`), as the README documents it.
 */
export function readLocalPortSettings(input: LocalSearchPortOptions): LocalPortSettings {
  const options = readCommonLocalOptions(input) ?? parseOptions(localSearchPortOptionsSchema(), input, "");
  const { mode, embeddings } = options;
  const embedder = embedderOf(options);
  if (options.onEmbedderChange !== "refuse" && mode !== "write") {
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
  const { approximateDense } = options;
  return {
    directory: resolve(options.directory),
    mode,
    onEmbedderChange: options.onEmbedderChange,
    embeddings,
    embedder,
    denseWeight: options.denseWeight ?? defaultDenseWeight,
    // A weight given for every query holds for CJK ones too, unless one is given for them.
    cjkDenseWeight: options.cjkDenseWeight ?? options.denseWeight ?? defaultCjkDenseWeight,
    denseFloor: options.denseFloor,
    minScore: options.minScore,
    approximateCandidates:
      approximateDense === undefined || approximateDense === false
        ? undefined
        : approximateDense === true
          ? defaultApproximateCandidates
          : (approximateDense.candidates ?? defaultApproximateCandidates),
    answerability: options.answerability === false ? undefined : options.answerability,
    refreshIntervalMs: options.refreshIntervalMs,
    postingsCacheBytes: options.postingsCacheBytes,
    onRefreshError: options.onRefreshError,
  };
}

/** The embedder identity given, else the embeddings' own (a copy; null without embeddings); embeddings without one are refused. */
function embedderOf(options: ParsedLocalOptions): EmbedderIdentity | null {
  if (options.embedder !== undefined) return options.embedder;
  const { embeddings } = options;
  if (embeddings === undefined) return null;
  const identity = (embeddings as { identity?: unknown }).identity;
  if (identity !== undefined) return readCommonEmbedderIdentity(identity) ?? parseOptions(embedderIdentitySchema(), identity, "embedder");
  throw new ConfigurationError({
    key: "embedder",
    value: undefined,
    reason: "these embeddings have no identity: pass embedder { id, version, dimension } so the index can record whose vectors it holds",
  });
}
