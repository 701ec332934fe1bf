import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { datasetsDirectory } from "@lookup-knowledge/vitest-config";

/** A named tree of real texts from the shared datasets. */
export interface DatasetTexts {
  name: string;
  texts: string[];
}

function markdownUnder(root: string): string[] {
  return (readdirSync(root, { recursive: true }) as string[])
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => readFileSync(join(root, name), "utf8"));
}

function scifactAbstracts(): string[] {
  return readFileSync(join(datasetsDirectory, "scifact", "corpus.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const document = JSON.parse(line) as { title: string; text: string };
      return `${document.title}\n${document.text}`;
    });
}

/**
 * The English and Chinese trees of `../shared/datasets` the analyser is checked on: the
 * APISIX and ShardingSphere docs in both languages (Markdown files whole) and the SciFact
 * abstracts (title and text). Only call it when the datasets are there.
 */
export function datasetTexts(): DatasetTexts[] {
  return [
    { name: "apisix-docs/en", texts: markdownUnder(join(datasetsDirectory, "apisix-docs", "docs", "en")) },
    { name: "apisix-docs/zh", texts: markdownUnder(join(datasetsDirectory, "apisix-docs", "docs", "zh")) },
    { name: "shardingsphere-docs/en", texts: markdownUnder(join(datasetsDirectory, "shardingsphere-docs", "en")) },
    { name: "shardingsphere-docs/zh", texts: markdownUnder(join(datasetsDirectory, "shardingsphere-docs", "zh")) },
    { name: "scifact", texts: scifactAbstracts() },
  ];
}

/** Pieces of a text cut at arbitrary places (as chunks are), including inside surrogate pairs. */
export function piecesOf(text: string, pieceLength: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += pieceLength) pieces.push(text.slice(start, start + pieceLength));
  return pieces;
}
