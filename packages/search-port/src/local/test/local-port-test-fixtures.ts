// Test fixtures shared by the open-local-search-port*.test.ts files (not built, not shipped).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import { afterEach, beforeEach } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import type { LocalSearchPort } from "../port/local-search-port.js";
import type { LocalSearchPortOptions } from "../port/local-search-port-options.js";
import { openLocalSearchPort } from "../open-local-search-port.js";

/**
 * A deterministic test embedder: words (lower-cased, letters and digits) hashed into
 * `dimension` buckets, unit length. Texts sharing words have a positive cosine.
 */
export function hashEmbeddings(options: { dimension?: number; id?: string; delayMs?: number; queryDelayMs?: number } = {}) {
  const dimension = options.dimension ?? 32;
  const embed = (text: string): number[] => {
    const vector = new Array<number>(dimension).fill(0);
    for (const [word] of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
      let hash = 2_166_136_261;
      for (const character of word) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 16_777_619);
      const bucket = (hash >>> 0) % dimension;
      vector[bucket] = (vector[bucket] ?? 0) + 1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  };
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const embeddings = {
    identity: { id: options.id ?? "test/hash", version: "1", dimension },
    calls: 0,
    async embedQuery(text: string) {
      embeddings.calls += 1;
      const delay = options.queryDelayMs ?? options.delayMs;
      if (delay !== undefined) await wait(delay);
      return embed(text);
    },
    async embedDocuments(texts: string[]) {
      if (options.delayMs !== undefined) await wait(options.delayMs);
      return texts.map(embed);
    },
  };
  return embeddings satisfies EmbeddingsInterface;
}

export const records: KnowledgeRecord[] = [
  {
    id: "refunds#chunk-0",
    content: "Refunds are paid back to the original card within five business days.",
    metadata: { docId: "refunds", chunkIndex: 0, title: "Refund policy", category: "billing", year: 2023, tags: ["money", "cards"] },
  },
  {
    id: "refunds#chunk-1",
    content: "A refund for a cancelled order needs the order number and the receipt.",
    metadata: { docId: "refunds", chunkIndex: 1, title: "Refund policy", category: "billing", year: 2024, tags: ["orders"] },
  },
  {
    id: "shipping#chunk-0",
    content: "Parcels leave the Rotterdam warehouse every weekday at noon.",
    metadata: { doc_id: "shipping", chunk_index: 0, title: "Shipping", category: "logistics", year: 2022, public: true },
  },
  {
    id: "passwords#chunk-0",
    content: "To reset a forgotten password, open the sign-in page and follow the reset link sent by email.",
    metadata: { docId: "passwords", chunkIndex: 0, title: "Account security", category: "accounts", year: 2024, public: false },
  },
  {
    id: "limits#chunk-0",
    content: "The public API allows 100 requests per minute per key; extra requests get status 429.",
    metadata: { docId: "limits", chunkIndex: 0, title: "Rate limits", category: "api", tags: ["api", "limits"] },
  },
  {
    id: "zh#chunk-0",
    content: "网关限流插件可以限制每个客户端每秒的请求数量。",
    metadata: { docId: "zh-limits", chunkIndex: 0, title: "限流插件", category: "api", lang: "zh" },
  },
];

/** The folder of the current test's index: a fresh temporary folder per test (`useIndexFolder`). */
export let directory: string;
/** The ports opened in the current test; closed after it. */
export const opened: LocalSearchPort[] = [];

/** Gives each test of the calling file a fresh `directory`, and closes the ports it opened and removes the folder after it. */
export function useIndexFolder(): void {
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), "local-port-"));
  });

  afterEach(async () => {
    for (const port of opened.splice(0)) await port.close();
    rmSync(directory, { recursive: true, force: true });
  });
}

/** Opens a port on `directory`; it is closed after the test. */
export async function open(options: Partial<LocalSearchPortOptions> = {}): Promise<LocalSearchPort> {
  const port = await openLocalSearchPort({ directory, ...options });
  opened.push(port);
  return port;
}

/** Opens a writer, upserts `batch` and commits it. */
export async function build(batch: KnowledgeRecord[] = records, options: Partial<LocalSearchPortOptions> = {}): Promise<LocalSearchPort> {
  const writer = await open({ mode: "write", ...options });
  await writer.upsert(batch);
  await writer.commit();
  return writer;
}

export const ids = (hits: Array<{ id?: string }>) => hits.map((hit) => hit.id);

const topics = ["webhook secret rotation", "audit log access", "billing invoice export", "single sign on setup", "rate limit errors"];

/** `count` records from `first` on, each mixing two topics and a word of its own, in one of three categories. */
export function recordsFrom(first: number, count: number): KnowledgeRecord[] {
  return Array.from({ length: count }, (_, offset) => {
    const index = first + offset;
    return {
      id: `doc${index}#chunk-0`,
      content: `${topics[index % topics.length]} and ${topics[(index * 7) % topics.length]}, note ${index % 13} word${index}x`,
      metadata: { docId: `doc${index}`, chunkIndex: 0, category: `c${index % 3}` },
    };
  });
}
