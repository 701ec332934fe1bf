import { evidenceKey, readChunkIndex, readDocId } from "@lookup-knowledge/core";
import type { Candidate, RejectedHit } from "@lookup-knowledge/core";
import { schemaOnDemand } from "@lookup-knowledge/core/load-zod";
import { readPlainHit } from "./internal/read-plain-hit.js";

/** `typeof`, but telling null and arrays apart, for readable rejection reasons. */
function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function showValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value.length > 40 ? `${value.slice(0, 37)}...` : value) : String(value);
}

/** A store id: a non-blank string, or a finite number turned into one. Anything else is ignored. */
function readId(value: unknown): string | undefined {
  if (typeof value === "string" && value.trim() !== "") return value;
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** Most answerability signals a hit may carry into the trace. */
const maxSignals = 32;

/**
 * One port hit as the pipeline accepts it. Every message names the field and the value.
 * Built, and zod loaded, on first use: `readPlainHit` reads a plainly valid hit without it.
 */
export const hitSchema = schemaOnDemand((z) =>
  z.object(
    {
      id: z.unknown().optional().transform(readId),
      content: z
        .string({
          error: (issue) => (issue.input === undefined ? "content is missing" : `content is ${kindOf(issue.input)}, not a string`),
        })
        .refine((content) => content.trim() !== "", { error: "content is blank" }),
      score: z
        .number({
          error: (issue) =>
            typeof issue.input === "number"
              ? `score ${String(issue.input)} is not a finite number`
              : `score ${showValue(issue.input)} is ${kindOf(issue.input)}, not a number`,
        })
        .refine((score) => score >= 0 && score <= 1, {
          error: (issue) => `score ${String(issue.input)} is outside 0..1`,
        })
        .optional(),
      // A port's answerability judgement is optional explanation that goes into the trace: a
      // malformed or oversized one is dropped (the hit kept), and names must look like names,
      // so no query or document text rides along.
      answerability: z
        .object({
          score: z.number().min(0).max(1),
          model: z.string().regex(/^[\w.@-]{1,80}$/),
          signals: z
            .record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,39}$/), z.number().refine(Number.isFinite))
            .refine((signals) => Object.keys(signals).length <= maxSignals),
        })
        .optional()
        .catch(undefined),
      // Missing, null, array or scalar metadata is read as {}: the hit may still have an id.
      metadata: z.record(z.string(), z.unknown()).catch(() => ({})),
    },
    { error: (issue) => `hit is ${kindOf(issue.input)}, not an object` },
  ),
);

/** A non-blank string metadata field, trimmed; anything else is ignored. */
function readText(metadata: Record<string, unknown>, key: string): string | undefined {
  const value = metadata[key];
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return text === "" ? undefined : text;
}

/** A breadcrumb given as a string, or as a list of heading strings joined with " > ". */
function readBreadcrumb(metadata: Record<string, unknown>): string | undefined {
  const value = metadata["breadcrumb"];
  if (Array.isArray(value)) {
    const headings = value.filter((part): part is string => typeof part === "string" && part.trim() !== "");
    return headings.length > 0 ? headings.map((part) => part.trim()).join(" > ") : undefined;
  }
  return readText(metadata, "breadcrumb");
}

/**
 * Validates untrusted port output and gives every hit its identity (R14): `docId` from
 * metadata `docId`/`doc_id`, `chunkIndex` from `chunkIndex`/`chunk_index`, and
 * `evidenceKey` = `{docId}#chunk-{chunkIndex}`, else `vector:{id}`. Hits without content,
 * with a score that is not a number in 0..1, or without any identity are rejected with a
 * reason; the others keep their port position as `portRank`.
 *
 * `judgementLost` is true when the first hit, the one a judging port judges, carried an
 * `answerability` judgement that no candidate keeps (the hit was rejected, or its judgement
 * was malformed): the port judged, so the caller must not read the hits' ranking scores in
 * the judgement's place.
 *
 * `options.attempt` is accepted so callers can pass the attempt number along; it does not
 * change the result.
 */
export function normalizeHits(
  hits: unknown,
  options: { attempt?: number } = {},
): { candidates: Candidate[]; rejected: RejectedHit[]; judgementLost: boolean } {
  void options;
  if (!Array.isArray(hits)) {
    return { candidates: [], rejected: [{ index: -1, reason: `port returned ${kindOf(hits)}, not an array` }], judgementLost: false };
  }
  const candidates: Candidate[] = [];
  const rejected: RejectedHit[] = [];
  hits.forEach((hit: unknown, index) => {
    const plain = readPlainHit(hit, readId, maxSignals);
    const parsed = plain === null ? hitSchema().safeParse(hit) : { success: true as const, data: plain };
    if (!parsed.success) {
      const rawId = hit !== null && typeof hit === "object" ? readId((hit as { id?: unknown }).id) : undefined;
      const reason = parsed.error.issues.map((issue) => issue.message).join("; ");
      rejected.push(rawId === undefined ? { index, reason } : { index, id: rawId, reason });
      return;
    }
    const { id, content, score, metadata, answerability } = parsed.data;
    const docId = readDocId(metadata);
    const chunkIndex = readChunkIndex(metadata);
    const key = evidenceKey({ docId, chunkIndex, vectorId: id });
    if (key === undefined) {
      rejected.push({ index, reason: "no identity: needs docId and chunkIndex metadata, or an id" });
      return;
    }
    const source = readText(metadata, "source") ?? docId ?? `vector:${id ?? ""}`;
    const candidate: Candidate = { evidenceKey: key, source, content, portRank: index, hitReasons: [], metadata };
    if (docId !== undefined) candidate.docId = docId;
    if (chunkIndex !== undefined) candidate.chunkIndex = chunkIndex;
    if (id !== undefined) candidate.vectorId = id;
    const title = readText(metadata, "title");
    if (title !== undefined) candidate.title = title;
    const breadcrumb = readBreadcrumb(metadata);
    if (breadcrumb !== undefined) candidate.breadcrumb = breadcrumb;
    const category = readText(metadata, "category");
    if (category !== undefined) candidate.category = category;
    if (score !== undefined) candidate.score = score;
    // Only the first hit's judgement counts: the port judges its best hit, whose own score
    // stays its ranking score.
    if (answerability !== undefined && index === 0) candidate.answerability = answerability;
    candidate.hitReasons.push({
      signal: "semantic",
      detail: score === undefined ? "semantic match (unscored)" : `semantic match ${score.toFixed(2)}`,
    });
    candidates.push(candidate);
  });
  const first: unknown = hits[0];
  const judged = first !== null && typeof first === "object" && (first as { answerability?: unknown }).answerability !== undefined;
  const judgementLost = judged && candidates[0]?.portRank === 0 && candidates[0].answerability !== undefined ? false : judged;
  return { candidates, rejected, judgementLost };
}
