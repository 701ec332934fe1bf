import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OfflineEmbeddings } from "./offline-embeddings.js";

/**
 * A fingerprint of what the embedder gives: the SHA-256 of the float64 query and document
 * vectors and the float32 rows, for every word of the table (queries of one word in seven,
 * documents of 50 words covering all 50,000), English, accented, unknown, empty and Chinese
 * texts, with the default options and two others.
 */
async function vectorFingerprint(): Promise<string> {
  const words = readFileSync(new URL("../data/words.txt", import.meta.url), "utf8")
    .trimEnd()
    .split("\n");
  const documents: string[] = [];
  for (let start = 0; start < words.length; start += 50) documents.push(words.slice(start, start + 50).join(" "));
  const extra = [
    "",
    "!!! ... ???",
    "Rate limiting caps how many requests per second a client may send.",
    "Café naïve résumé Zürich façade",
    "qwertyuiop zzzzzz xylophones",
    "网关限流插件的配置方法",
    "如何限制请求速率",
    "限流配置 rate limit 網關",
    "THE Network the network NETWORK",
  ];
  const queries = [...extra, ...words.filter((_, rank) => rank % 7 === 0)];
  const hash = createHash("sha256");
  for (const options of [{}, { hashDimension: 64, lexicalWeight: 0.3 }, { chineseGlosses: false }]) {
    const embedder = new OfflineEmbeddings(options);
    for (const query of queries) hash.update(new Uint8Array(Float64Array.from(await embedder.embedQuery(query)).buffer));
    for (const vector of await embedder.embedDocuments([...extra, ...documents])) {
      hash.update(new Uint8Array(Float64Array.from(vector).buffer));
    }
    for (const row of await embedder.embedDocumentRows([...extra, ...documents])) {
      hash.update(new Uint8Array(row.buffer, row.byteOffset, row.byteLength));
    }
  }
  return hash.digest("hex");
}

describe("OfflineEmbeddings gives the same vectors", () => {
  it("issue 36 item 5: bit for bit those of the embedder before the word index (commit 39d8b79), which split words.txt and summed the common direction at start", async () => {
    // Worked out by the same procedure with the build of 39d8b79.
    expect(await vectorFingerprint()).toBe("9b6e77148565af8fd524543a3048da7af8068753865d5a40cd75ea645ea38edc");
  }, 60_000);
});
