import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "@lookup-knowledge/vitest-config";
import { describe, expect, it } from "vitest";
import { CjkSegmenter } from "./cjk-segmenter.js";
import type { JiebaSource } from "./cjk-segmenter.js";
import { loadJiebaClass, readBundledDictionary } from "./load-jieba.js";
import { splitWords } from "./split-words.js";

const knowledgeBaseZh = fileURLToPath(new URL("../../../examples/knowledge-base/zh/", import.meta.url));

/** The CJK runs, distinct and as the lexical view cuts them, of the Markdown files under `root`. */
function runsUnder(root: string): string[] {
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".md"));
  const runs = new Set<string>();
  for (const file of files) {
    for (const token of splitWords(readFileSync(join(root, file), "utf8"))) if (token.kind === "cjk") runs.add(token.text);
  }
  return [...runs];
}

const whole = loadJiebaClass().withDict(readBundledDictionary());

/** Cuts `runs` in groups, as the lexical view does a text's runs, and counts where the words differ from the whole dictionary's. */
function differences(segmenter: CjkSegmenter, runs: readonly string[], group = 16): string[] {
  const different: string[] = [];
  for (let index = 0; index < runs.length; index += group) {
    const part = runs.slice(index, index + group);
    segmenter.cut(part).forEach((words, offset) => {
      const run = part[offset] as string;
      if (words.join("|") !== whole.cut(run, true).join("|")) different.push(run);
    });
  }
  return different;
}

/** The bundled source, counting what it is asked for. */
function countingSource(): JiebaSource & { reads: number } {
  const source = {
    reads: 0,
    jieba: loadJiebaClass,
    dictionary: () => {
      source.reads += 1;
      return readBundledDictionary();
    },
  };
  return source;
}

describe("CjkSegmenter", () => {
  it("issue 14: small dictionaries cut the example knowledge base's Chinese pages exactly as the whole dictionary", () => {
    const runs = runsUnder(knowledgeBaseZh);
    expect(runs.length).toBeGreaterThan(500);
    const segmenter = new CjkSegmenter({ wholeDictionaryAfter: Number.POSITIVE_INFINITY });
    expect(differences(segmenter, runs)).toEqual([]);
    expect(segmenter.usesWholeDictionary).toBe(false);
  });

  it.skipIf(skipWithoutDatasets)(
    needsDatasets("issue 14: small dictionaries cut the APISIX (zh) and TiDB docs exactly as the whole dictionary"),
    () => {
      for (const root of ["apisix-docs/docs/zh", "tidb-docs-cn"]) {
        const runs = runsUnder(join(datasetsDirectory, root));
        expect(runs.length).toBeGreaterThan(10_000);
        expect(differences(new CjkSegmenter({ wholeDictionaryAfter: Number.POSITIVE_INFINITY }), runs, 64)).toEqual([]);
      }
    },
    120_000,
  );

  it("issue 14: builds the whole dictionary once the work reaches the limit, with the same words before and after", () => {
    const runs = runsUnder(knowledgeBaseZh);
    const source = countingSource();
    const segmenter = new CjkSegmenter({ wholeDictionaryAfter: 2_000, source });
    expect(source.reads).toBe(0);
    const before = segmenter.cut(runs.slice(0, 10));
    expect(segmenter.usesWholeDictionary).toBe(false);
    expect(source.reads).toBe(1);
    // Runs cut lately cost nothing more: repeating them never reaches the limit.
    for (let repeat = 0; repeat < 50; repeat += 1) expect(segmenter.cut(runs.slice(0, 10))).toEqual(before);
    expect(segmenter.usesWholeDictionary).toBe(false);
    let cuts = 0;
    for (let start = 10; !segmenter.usesWholeDictionary && start < runs.length; start += 20) {
      segmenter.cut(runs.slice(start, start + 20));
      cuts += 1;
    }
    expect(segmenter.usesWholeDictionary).toBe(true);
    expect(cuts).toBeLessThan(40);
    // The file was read once: the whole dictionary is built from the bytes already read.
    expect(source.reads).toBe(1);
    expect(segmenter.cut(runs.slice(0, 10))).toEqual(before);
    expect(differences(segmenter, runs)).toEqual([]);
  });

  it("with the whole dictionary, cuts a run again from the words kept (the index and the embedder cut the same runs), copies each time", () => {
    let cuts = 0;
    const source: JiebaSource = {
      jieba: () => {
        const Jieba = loadJiebaClass();
        return {
          withDict: (bytes: Uint8Array) => {
            const jieba = Jieba.withDict(bytes);
            return {
              cut: (text: string, hmm: boolean) => {
                cuts += 1;
                return jieba.cut(text, hmm);
              },
            };
          },
        } as unknown as ReturnType<JiebaSource["jieba"]>;
      },
      dictionary: readBundledDictionary,
    };
    const segmenter = new CjkSegmenter({ wholeDictionaryAfter: 0, source });
    segmenter.cut(["网关"]);
    expect(segmenter.usesWholeDictionary).toBe(true);
    const [first] = segmenter.cut(["分布式事务的隔离级别"]);
    const cutsAfterFirst = cuts;
    const [again] = segmenter.cut(["分布式事务的隔离级别"]);
    expect(again).toEqual(first);
    expect(cuts).toBe(cutsAfterFirst);
    (again as string[]).push("changed");
    expect(segmenter.cut(["分布式事务的隔离级别"])[0]).toEqual(first);
    segmenter.cut(["读写分离"]);
    expect(cuts).toBe(cutsAfterFirst + 1);
  });

  it("issue 14: reads nothing for no CJK; empty runs give no words; odd input is cut as the whole dictionary cuts it", () => {
    const source = countingSource();
    const segmenter = new CjkSegmenter({ source });
    expect(segmenter.cut([])).toEqual([]);
    expect(segmenter.cut(["", ""])).toEqual([[], []]);
    expect(source.reads).toBe(0);
    const odd = ["\ue000限流", "负载 均衡\n网关", "api网关", "做B超检查", "𠀀中华人民共和国", "限流\u0000插件", "ｚ"];
    expect(differences(segmenter, odd, 3)).toEqual([]);
    expect(segmenter.cut(["", "限流插件"])).toEqual([[], ["限流", "插件"]]);
    // What a caller does with the words it got changes nothing for the next caller.
    const [words] = segmenter.cut(["限流插件"]);
    words?.push("changed");
    expect(segmenter.cut(["限流插件", "限流插件"])).toEqual([
      ["限流", "插件"],
      ["限流", "插件"],
    ]);
  });
});
