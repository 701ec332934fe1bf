import type { SearchHit } from "@lookup-knowledge/core";
import type { PineconeSettings } from "./read-pinecone-settings.js";

/** A hit of a Pinecone match or record: the text out of `textField`, the rest as metadata, the score normalised and clamped to 0..1. */
export function toPineconeHit(settings: PineconeSettings, id: string, raw: number, fields: Record<string, unknown>): SearchHit {
  const { [settings.textField]: text, ...metadata } = fields;
  const score = settings.normalizeScore(raw, settings.metric);
  return {
    id,
    content: typeof text === "string" ? text : "",
    metadata,
    score: Number.isFinite(score) ? Math.min(1, Math.max(0, score)) : 0,
  };
}
