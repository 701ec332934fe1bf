import { readDocId } from "@lookup-knowledge/core";
import type { SearchHit } from "@lookup-knowledge/core";
import { matchesFilter } from "../matches-filter.js";
import type { SearchRequest } from "../search-request.js";
import { validateMetadataFilter } from "../validate-metadata-filter.js";
import { abortReason } from "../internal/abort.js";
import type { InMemoryRecord } from "./in-memory-record.js";
import type { InMemorySearchPort } from "./in-memory-search-port.js";
import { cosineSimilarity, lexicalVector } from "./lexical-vector.js";
import type { LexicalVector } from "./lexical-vector.js";

interface StoredRecord {
  record: InMemoryRecord;
  vector: LexicalVector;
}

/**
 * A small in-memory port for demos and as a reference in tests; no server, no model.
 *
 * Score: the cosine similarity (0..1) between the term-frequency vectors of the query and of
 * the record's content plus its `metadata.title` (see `lexicalTerms` of `@lookup-knowledge/text`). Records that share no
 * term with the query are not returned. Hits come best first, ties by id; at most `topK`.
 * The filter is checked with `validateMetadataFilter` (a bad one rejects with
 * `InvalidFilterError`) and applied with `matchesFilter`. An aborted signal rejects with its
 * reason. Records and hits are copies: changing one later does not change the store.
 */
export function createInMemorySearchPort(records: InMemoryRecord[] = []): InMemorySearchPort {
  const stored = new Map<string, StoredRecord>();

  function upsert(batch: InMemoryRecord[]): void {
    for (const record of batch) {
      const copy: InMemoryRecord = { id: record.id, content: record.content, metadata: structuredClone(record.metadata) };
      stored.set(record.id, { record: copy, vector: lexicalVector(indexedText(copy)) });
    }
  }

  upsert(records);

  return {
    async search(request: SearchRequest): Promise<SearchHit[]> {
      if (request.signal?.aborted) throw abortReason(request.signal);
      const filter = request.filter === undefined ? undefined : validateMetadataFilter(request.filter);
      const limit = Number.isNaN(request.topK) ? 0 : Math.max(0, Math.floor(request.topK));
      const query = lexicalVector(request.query);
      const scored: Array<{ record: InMemoryRecord; score: number }> = [];
      for (const { record, vector } of stored.values()) {
        const score = cosineSimilarity(query, vector);
        if (score <= 0 || !matchesFilter(record.metadata, filter)) continue;
        scored.push({ record, score });
      }
      scored.sort((left, right) => right.score - left.score || compareIds(left.record.id, right.record.id));
      return scored.slice(0, limit).map(({ record, score }) => ({
        id: record.id,
        content: record.content,
        metadata: structuredClone(record.metadata),
        score,
      }));
    },
    upsert,
    deleteByDocId(docId: string): number {
      let removed = 0;
      for (const [id, { record }] of stored) {
        if (readDocId(record.metadata) === docId) {
          stored.delete(id);
          removed += 1;
        }
      }
      return removed;
    },
    get size(): number {
      return stored.size;
    },
  };
}

function indexedText(record: InMemoryRecord): string {
  const title = record.metadata["title"];
  return typeof title === "string" ? `${title}\n${record.content}` : record.content;
}

function compareIds(left: string, right: string): number {
  if (left === right) return 0;
  return left < right ? -1 : 1;
}
