import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { z } from "zod";
import type { Judgments } from "@lookup-knowledge/agent-tool/evaluation";

export interface BeirCollection {
  name: string;
  documents: Array<{ id: string; title: string; text: string }>;
  queries: Array<{ id: string; text: string; judgments: Judgments }>;
}

const documentLine = z.object({
  _id: z.union([z.string(), z.number()]).transform(String),
  title: z.string().default(""),
  text: z.string(),
});
const queryLine = z.object({ _id: z.union([z.string(), z.number()]).transform(String), text: z.string() });

/**
 * Reads a collection in the BEIR layout (`corpus.jsonl`, `queries.jsonl`, `qrels.tsv` with
 * a header); only judged queries are kept. A malformed line is an error naming the file and
 * line.
 */
export async function readBeirCollection(directory: string, name: string): Promise<BeirCollection> {
  const documents = parseJsonLines(await readFile(join(directory, "corpus.jsonl"), "utf8"), documentLine, "corpus.jsonl");
  const queries = parseJsonLines(await readFile(join(directory, "queries.jsonl"), "utf8"), queryLine, "queries.jsonl");
  const judgments = new Map<string, Map<string, number>>();
  const qrels = (await readFile(join(directory, "qrels.tsv"), "utf8")).split("\n");
  for (const [index, line] of qrels.entries()) {
    if (index === 0 || line.trim() === "") continue;
    const [queryId, documentId, score] = line.split("\t");
    const gain = Number(score);
    if (!queryId || !documentId || !Number.isFinite(gain))
      throw new Error(`${name}/qrels.tsv line ${index + 1}: expected query-id, corpus-id, score`);
    if (gain <= 0) continue;
    const forQuery = judgments.get(queryId) ?? new Map<string, number>();
    forQuery.set(documentId, gain);
    judgments.set(queryId, forQuery);
  }
  return {
    name,
    documents: documents.map((document) => ({ id: document._id, title: document.title, text: document.text })),
    queries: queries.flatMap((query) => {
      const judged = judgments.get(query._id);
      return judged ? [{ id: query._id, text: query.text, judgments: judged }] : [];
    }),
  };
}

function parseJsonLines<T>(text: string, schema: z.ZodType<T>, file: string): T[] {
  const out: T[] = [];
  for (const [index, line] of text.split("\n").entries()) {
    if (line.trim() === "") continue;
    const parsed = schema.safeParse(JSON.parse(line));
    if (!parsed.success) throw new Error(`${file} line ${index + 1}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    out.push(parsed.data);
  }
  return out;
}
