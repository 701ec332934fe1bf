// Prints how long the word table takes to load (first time in this process, checksums
// included) and how many texts per second the offline embedder embeds on one core.
// Numbers only, nothing asserted: run with `pnpm bench` after a build.
import { performance } from "node:perf_hooks";
import { OfflineEmbeddings, loadWordTable } from "../dist/index.js";

const loadStart = performance.now();
const table = loadWordTable();
const loadMs = performance.now() - loadStart;
const constructStart = performance.now();
const embeddings = new OfflineEmbeddings();
const constructMs = performance.now() - constructStart;
console.log(`word table: ${table.wordCount} words x ${table.dimension}, first load ${loadMs.toFixed(0)} ms (sha256 checks included)`);
console.log(`new OfflineEmbeddings(): ${constructMs.toFixed(1)} ms with the table already loaded`);

const subjects = ["rate limits", "webhook retries", "invoice exports", "password resets", "cache invalidation", "backup schedules"];
const verbs = ["configure", "monitor", "debug", "disable", "explain", "migrate"];
const hanzi = ["网关限流插件配置", "数据库备份恢复", "消息队列告警", "容器集群扩容"];
const shortText = (position) =>
  position % 5 === 4
    ? `${hanzi[position % hanzi.length]}${position}`
    : `How to ${verbs[position % verbs.length]} ${subjects[(position * 7) % subjects.length]} for tenant ${position} in the ${subjects[(position * 3) % subjects.length]} service.`;
const longText = (position) => Array.from({ length: 12 }, (_, sentence) => shortText(position * 12 + sentence)).join(" ");

async function measure(label, texts, embed) {
  await embed(texts.slice(0, 200));
  const start = performance.now();
  await embed(texts);
  const seconds = (performance.now() - start) / 1000;
  const words = texts.reduce((sum, text) => sum + text.split(/\s+/).length, 0) / texts.length;
  console.log(
    `${label.padEnd(34)} ${String(texts.length).padStart(6)} texts (~${words.toFixed(0)} words) ${(texts.length / seconds).toFixed(0).padStart(7)} texts/s`,
  );
}

const shortTexts = Array.from({ length: 20_000 }, (_, position) => shortText(position));
const longTexts = Array.from({ length: 2_000 }, (_, position) => longText(position));
await measure("embedDocuments, short documents", shortTexts, (texts) => embeddings.embedDocuments(texts));
await measure("embedDocuments, ~12-sentence chunks", longTexts, (texts) => embeddings.embedDocuments(texts));
await measure("embedQuery, short queries", shortTexts, async (texts) => {
  for (const text of texts) await embeddings.embedQuery(text);
});
