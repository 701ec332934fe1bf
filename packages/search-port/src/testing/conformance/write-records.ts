import { knowledgeRecordId } from "../../knowledge-record.js";
import type { KnowledgeRecord } from "../../knowledge-record.js";

/** Four records of three documents; `faq#archived` shares the `faq#` prefix with `faq`. */
export function writeRecords(): KnowledgeRecord[] {
  const make = (docId: string, chunkIndex: number, content: string): KnowledgeRecord => ({
    id: knowledgeRecordId(docId, chunkIndex),
    content: `Knowledge note: ${content}`,
    metadata: { docId, chunkIndex, source: `${docId}.md`, title: docId, breadcrumb: docId, category: "faq" },
  });
  return [
    make("faq", 0, "the first chunk of the frequently asked questions."),
    make("faq", 1, "the second chunk of the frequently asked questions."),
    make("faq#archived", 0, "an archived copy of the questions, whose id starts like the live one."),
    make("pricing", 0, "prices are shown without sales tax."),
  ];
}
