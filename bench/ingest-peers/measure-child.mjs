// One measurement in a process of its own: `node measure-child.mjs <tool> <stage> <tree>`,
// tool ours | langchain | mastra | llamaindex, stage chunk | embed. Prints one JSON line:
// the pipeline's wall and CPU time (imports and the word table load excluded), its chunk
// count and the process's peak RSS.
import { readdir, readFile } from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const [tool, stage, tree] = process.argv.slice(2);
const maxChunkChars = 1500;
const overlapChars = 150;
// LlamaIndex's SentenceSplitter counts tokens (cl100k); about 4 characters a token here.
const llamaChunkTokens = 375;
const llamaOverlapTokens = 38;

async function markdownFiles(folder) {
  const found = [];
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules") found.push(...(await markdownFiles(path)));
    else if (entry.isFile() && /\.mdx?$/.test(entry.name)) found.push(path);
  }
  return found;
}

const { createOfflineEmbeddings } = await import(join(root, "packages/embeddings/dist/index.js"));
// Loads the word table (cached per process), so no pipeline's time holds it.
createOfflineEmbeddings();

const pipelines = {
  async ours() {
    const dataDirectory = mkdtempSync(join(tmpdir(), "ingest-peers-ours-"));
    try {
      if (stage === "chunk") {
        const { ingestFolder } = await import(join(root, "packages/ingest/dist/index.js"));
        const records = new Map();
        const writer = {
          async upsert(batch) {
            for (const record of batch) records.set(record.id, record);
          },
          async deleteDocuments() {
            return 0;
          },
        };
        return async () => (await ingestFolder({ root: tree, dataDirectory, writer })).chunksWritten;
      }
      const { ingestIntoLocalIndex } = await import(join(root, "apps/agent-tool/dist/local.js"));
      return async () => (await ingestIntoLocalIndex({ root: tree, dataDirectory })).chunksWritten;
    } finally {
      process.on("exit", () => rmSync(dataDirectory, { recursive: true, force: true }));
    }
  },
  async langchain() {
    const { DirectoryLoader } = await import("@langchain/classic/document_loaders/fs/directory");
    const { TextLoader } = await import("@langchain/classic/document_loaders/fs/text");
    const { RecursiveCharacterTextSplitter } = await import("@langchain/textsplitters");
    const { MemoryVectorStore } = await import("@langchain/classic/vectorstores/memory");
    return async () => {
      const loader = new DirectoryLoader(
        tree,
        { ".md": (path) => new TextLoader(path), ".mdx": (path) => new TextLoader(path) },
        true,
        "ignore",
      );
      const splitter = RecursiveCharacterTextSplitter.fromLanguage("markdown", { chunkSize: maxChunkChars, chunkOverlap: overlapChars });
      const chunks = await splitter.splitDocuments(await loader.load());
      if (stage === "embed") await MemoryVectorStore.fromDocuments(chunks, createOfflineEmbeddings());
      return chunks.length;
    };
  },
  async mastra() {
    const { MDocument } = await import("@mastra/rag");
    const { embedMany } = await import("ai");
    return async () => {
      const chunks = [];
      for (const path of await markdownFiles(tree)) {
        const document = MDocument.fromMarkdown(await readFile(path, "utf8"), { source: path });
        chunks.push(...(await document.chunk({ strategy: "markdown", maxSize: maxChunkChars, overlap: overlapChars })));
      }
      if (stage === "embed") {
        const embeddings = createOfflineEmbeddings();
        const model = {
          specificationVersion: "v3",
          provider: "lookup-knowledge",
          modelId: "offline",
          maxEmbeddingsPerCall: 512,
          supportsParallelCalls: false,
          async doEmbed({ values }) {
            return { embeddings: await embeddings.embedDocuments(values), warnings: [] };
          },
        };
        const { embeddings: vectors } = await embedMany({ model, values: chunks.map((chunk) => chunk.text) });
        const store = chunks.map((chunk, index) => ({ vector: vectors[index], metadata: chunk.metadata, text: chunk.text }));
        if (store.length !== chunks.length) throw new Error("embedMany returned too few vectors");
      }
      return chunks.length;
    };
  },
  async llamaindex() {
    const { BaseEmbedding, MarkdownNodeParser, SentenceSplitter, Settings, VectorStoreIndex, runTransformations } = await import(
      "llamaindex"
    );
    const { SimpleDirectoryReader } = await import("@llamaindex/readers/directory");
    const { TextFileReader } = await import("@llamaindex/readers/text");
    class OfflineEmbedding extends BaseEmbedding {
      embeddings = createOfflineEmbeddings();
      embedBatchSize = 512;
      async getTextEmbedding(text) {
        return this.embeddings.embedQuery(text);
      }
      getTextEmbeddings = (texts) => this.embeddings.embedDocuments(texts);
    }
    return async () => {
      const reader = new SimpleDirectoryReader((category, name) => category !== "file" || /\.mdx?$/.test(name));
      const text = new TextFileReader();
      const documents = await reader.loadData({ directoryPath: tree, fileExtToReader: { md: text, mdx: text } });
      const nodes = await runTransformations(documents, [
        new MarkdownNodeParser(),
        new SentenceSplitter({ chunkSize: llamaChunkTokens, chunkOverlap: llamaOverlapTokens }),
      ]);
      if (stage === "embed") {
        Settings.embedModel = new OfflineEmbedding();
        await VectorStoreIndex.init({ nodes });
      }
      return nodes.length;
    };
  },
};

const run = await pipelines[tool]();
const cpuBefore = process.cpuUsage();
const started = performance.now();
const chunks = await run();
const wallMs = performance.now() - started;
const cpu = process.cpuUsage(cpuBefore);
console.log(JSON.stringify({ wallMs, cpuMs: (cpu.user + cpu.system) / 1000, chunks, peakRssMb: process.resourceUsage().maxRSS / 1024 }));
