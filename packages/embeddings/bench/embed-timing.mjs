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

// Chinese chunks: version 2 cuts each Chinese run into words (jieba) and looks them up in the
// gloss table; version 1 (chineseGlosses: false) had character pairs only. The ratio is the
// cost of the Chinese semantic part.
const phrases = [
  "分布式事务",
  "隔离级别",
  "读写分离",
  "数据分片",
  "负载均衡",
  "限流插件",
  "配置文件",
  "连接池",
  "主键冲突",
  "慢查询日志",
  "备份恢复",
  "扩容缩容",
  "监控告警",
  "访问控制",
  "证书轮换",
  "执行计划",
  "索引优化",
  "数据迁移",
  "一致性校验",
  "故障转移",
  "的",
  "在",
  "时",
  "需要",
  "可以",
  "如何",
  "确认",
  "修改",
  "之后",
  "默认",
];
let seed = 0x9e3779b9;
const next = () => {
  seed ^= seed << 13;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  return (seed >>> 0) / 2 ** 32;
};
const chineseChunk = () => `${Array.from({ length: 120 }, () => phrases[Math.floor(next() * phrases.length)]).join("")}。`;
const chineseTexts = Array.from({ length: 2_000 }, chineseChunk);
const withoutGlosses = new OfflineEmbeddings({ chineseGlosses: false });
const glossLoadStart = performance.now();
await embeddings.embedQuery("网关");
console.log(`gloss table: first load ${(performance.now() - glossLoadStart).toFixed(0)} ms (sha256 checks included)`);
await measure("embedDocuments, Chinese chunks, v2", chineseTexts, (texts) => embeddings.embedDocuments(texts));
await measure("embedDocuments, Chinese chunks, v1", chineseTexts, (texts) => withoutGlosses.embedDocuments(texts));
