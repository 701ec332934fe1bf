import type { KnowledgeRecord } from "../knowledge-record.js";

/** What is indexed and embedded for a record: its title (when it has one) and its content. */
export function indexedText(record: KnowledgeRecord): string {
  const title = record.metadata["title"];
  return typeof title === "string" && title.trim() !== "" ? `${title}\n${record.content}` : record.content;
}
