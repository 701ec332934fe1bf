// Prints how long an L0 index of 100k generated entries takes to build and to answer
// typical queries. Numbers only, nothing asserted: run with `pnpm bench` after a build.
import { performance } from "node:perf_hooks";
import { createL0Index } from "../dist/index.js";

const entryCount = 100_000;
const domains = ["billing", "search", "identity", "storage", "network", "analytics", "mobile", "payments", "support", "compliance"];
const words = ["cache", "quota", "webhook", "token", "replica", "index", "backup", "invoice", "refund", "session", "schema", "cluster"];
const hanzi = [
  ...new Set("云数据库网关存储计算安全监控日志告警备份恢复迁移容器集群节点镜像权限审计账单发票订支付退款消息队列缓索引搜推荐"),
];

const pick = (list, position) => list[position % list.length];
const hanziOf = (position) =>
  pick(hanzi, position) + pick(hanzi, Math.floor(position / hanzi.length)) + pick(hanzi, Math.floor(position / hanzi.length ** 2));

const entries = Array.from({ length: entryCount }, (_, position) => ({
  id: `doc-${position}`,
  source: `docs/${pick(domains, position)}/${position}.md`,
  title: `${pick(words, position)} ${pick(words, position * 7 + 3)} guide ${position}`,
  keywords: [`${pick(words, position * 5)} ${pick(words, position * 11 + 1)}`, `sku-${position}`, `${hanziOf(position)}配置`],
  domain: pick(domains, position),
  entities: [`svc${position}`, hanziOf(position * 3 + 1)],
}));

const buildStart = performance.now();
const index = createL0Index(entries);
const buildMs = performance.now() - buildStart;

const queries = [
  "How do I set the quota for webhook retries on svc4242?",
  "why is sku-73123 missing from the invoice refund report",
  `如何修改${hanziOf(31_337)}配置，告警一直触发`,
  "tidb集群怎么扩容",
  "cache token session schema",
  "billing questions (a domain of 10k entries: the widest kind of match)",
  "nothing in this question is known to the index at all",
];

for (let round = 0; round < 2_000; round += 1) index.match(queries[round % queries.length]);

console.log(`entries: ${entryCount}, build: ${buildMs.toFixed(0)} ms`);
for (const query of queries) {
  const runs = 5_000;
  const start = performance.now();
  let matched = 0;
  for (let run = 0; run < runs; run += 1) matched = index.match(query).entries.length;
  const microseconds = ((performance.now() - start) / runs) * 1000;
  console.log(`${microseconds.toFixed(1).padStart(8)} µs/query  ${String(matched).padStart(3)} entries  ${query}`);
}
