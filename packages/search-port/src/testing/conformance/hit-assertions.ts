import assert from "node:assert/strict";
import { readChunkIndex, readDocId } from "@lookup-knowledge/core";
import type { MetadataFilter, SearchHit } from "@lookup-knowledge/core";
import { knowledgeRecordId } from "../../knowledge-record.js";
import { matchesFilter } from "../../matches-filter.js";
import { portConformanceRecords } from "../port-conformance-records.js";

/** The hits are the conformance records `matchesFilter` accepts under `filter`, each once. */
export function assertSameAsReference(hits: SearchHit[], filter: MetadataFilter): void {
  assertHitShapes(hits);
  const expected = portConformanceRecords
    .filter((record) => matchesFilter(record.metadata, filter))
    .map((record) => record.id)
    .sort();
  assert.deepEqual(sortedKeys(hits), expected);
}

/** An array of hits with string content, object metadata, string ids when present, and no record twice. */
export function assertHitShapes(hits: SearchHit[]): void {
  assert.ok(Array.isArray(hits), "search resolves to an array");
  for (const hit of hits) {
    assert.equal(typeof hit.content, "string", "hit.content is a string");
    assert.ok(hit.metadata !== null && typeof hit.metadata === "object", "hit.metadata is an object");
    assert.ok(hit.id === undefined || typeof hit.id === "string", "hit.id is a string when present");
  }
  const keys = hits.map(hitKey);
  assert.equal(new Set(keys).size, keys.length, `no record twice: ${keys.join(", ")}`);
}

/** Every score given is in 0..1, and they do not rise. */
export function assertScores(hits: SearchHit[], query: string): void {
  let previous = Number.POSITIVE_INFINITY;
  for (const hit of hits) {
    if (hit.score === undefined) continue;
    assert.ok(Number.isFinite(hit.score) && hit.score >= 0 && hit.score <= 1, `score ${hit.score} of ${hitKey(hit)} is in 0..1`);
    assert.ok(hit.score <= previous, `hits for ${JSON.stringify(query)} are ordered by score`);
    previous = hit.score;
  }
}

/** The record id of a hit: its id, or `{docId}#chunk-{chunkIndex}` from its metadata. */
export function hitKey(hit: SearchHit): string {
  if (hit.id !== undefined) return hit.id;
  const docId = readDocId(hit.metadata);
  const chunkIndex = readChunkIndex(hit.metadata);
  return docId !== undefined && chunkIndex !== undefined ? knowledgeRecordId(docId, chunkIndex) : "(no identity)";
}

/** The record ids of the hits, sorted. */
export function sortedKeys(hits: SearchHit[]): string[] {
  return hits.map(hitKey).sort();
}
