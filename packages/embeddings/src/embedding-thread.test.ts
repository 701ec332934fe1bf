import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type * as EmbeddingsModule from "./index.js";
import { checkThread } from "./check-embedder-options.js";
import { EmbeddingThread } from "./embedding-thread.js";
import { OfflineEmbeddings, threadBatchTexts } from "./offline-embeddings.js";

const sourceDirectory = fileURLToPath(new URL(".", import.meta.url));
const builtIndex = new URL("../dist/index.js", import.meta.url);
const buildInfo = fileURLToPath(new URL("../dist/.tsbuildinfo", import.meta.url));

/** Whether `dist` was built after the last change to the sources (`tsc -b` ran), so it tests this code. */
function builtIsFresh(): boolean {
  if (!existsSync(fileURLToPath(builtIndex)) || !existsSync(buildInfo)) return false;
  const built = statSync(buildInfo).mtimeMs;
  return readdirSync(sourceDirectory)
    .filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    .every((name) => statSync(join(sourceDirectory, name)).mtimeMs <= built);
}

/** Under CI (turbo builds before it tests) the built-package test must run: a stale `dist` fails it instead of skipping. */
const requireBuilt = (process.env["CI"] ?? "") !== "" && process.env["CI"] !== "false";

const texts = Array.from(
  { length: 3 * threadBatchTexts + 5 },
  (_, index) => `Rate limit ${index}: the limit-req plugin throttles requests per consumer. 网关限流插件 ${index % 7}`,
);

describe("issue 36 item 6: the offline embedder's documents on a thread of its own", () => {
  it("embeds on the calling thread when running from the TypeScript sources (no thread script)", async () => {
    expect(EmbeddingThread.start({ hashDimension: 256, lexicalWeight: 0.5, chineseGlosses: true })).toBeUndefined();
    const embeddings = new OfflineEmbeddings({ thread: true });
    expect(await embeddings.embedDocumentRows(texts)).toEqual(await new OfflineEmbeddings({ thread: false }).embedDocumentRows(texts));
  });

  it("is off unless asked for (it did not pay where measured), and on when asked", () => {
    expect(checkThread(undefined)).toBe(false);
    expect(checkThread(true)).toBe(true);
    expect(checkThread(false)).toBe(false);
  });

  it("refuses a thread option that is not a boolean, naming it", () => {
    expect(() => new OfflineEmbeddings({ thread: "yes" as unknown as boolean })).toThrow(/thread/);
  });

  // Worker threads need the compiled JavaScript: this runs against `dist` after `tsc -b`.
  it.skipIf(!requireBuilt && !builtIsFresh())(
    "gives the vectors of the calling thread bit for bit, typed rows and number arrays, in concurrent calls (built package)",
    async () => {
      if (!builtIsFresh())
        throw new Error(
          "packages/embeddings/dist is missing or older than src: run `pnpm turbo run build --filter=@lookup-knowledge/embeddings`",
        );
      const built = (await import(builtIndex.href)) as typeof EmbeddingsModule;
      const threaded = built.createOfflineEmbeddings({ thread: true });
      const here = built.createOfflineEmbeddings({ thread: false });
      const halves = [texts.slice(0, 2 * threadBatchTexts), texts.slice(threadBatchTexts)];
      const [first, second] = await Promise.all(halves.map((half) => threaded.embedDocumentRows(half)));
      expect(first).toEqual(await here.embedDocumentRows(halves[0] as string[]));
      expect(second).toEqual(await here.embedDocumentRows(halves[1] as string[]));
      expect(await threaded.embedDocuments(texts)).toEqual(await here.embedDocuments(texts));
      // It did run on the thread: the calling thread's embedder of `threaded` never saw these words.
      expect((threaded as unknown as { features: Map<string, unknown> }).features.size).toBe(0);
      // Embedders of the same options share the process's one thread (each thread holds a word table).
      const another = built.createOfflineEmbeddings({ thread: true });
      await another.embedDocumentRows(texts);
      const threadOf = (embeddings: object) => (embeddings as { thread?: unknown }).thread;
      expect(threadOf(another)).toBeDefined();
      expect(threadOf(another)).toBe(threadOf(threaded));
      // Off unless asked: an embedder of the default options embeds batches here, starting no thread.
      const plain = built.createOfflineEmbeddings();
      await plain.embedDocumentRows(texts);
      expect(threadOf(plain)).toBeUndefined();
      expect((plain as unknown as { features: Map<string, unknown> }).features.size).toBeGreaterThan(0);
      // A text that is not a string is refused as on the calling thread.
      await expect(threaded.embedDocumentRows([...texts, 7 as unknown as string])).rejects.toMatchObject({
        code: "invalid_embedding_input",
      });
    },
    60_000,
  );
});
