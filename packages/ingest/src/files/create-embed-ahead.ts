import type { KnowledgeRecord, KnowledgeWriter } from "@lookup-knowledge/search-port";

/** Hands parsed records to `writer.embedAhead` in batches while the next files are parsed. */
export interface EmbedAhead {
  /** Adds the records of one parsed file and sends every full batch. */
  add(records: readonly KnowledgeRecord[]): void;
  /** Sends what is left, a last batch not full. */
  finish(): void;
}

/**
 * A store that embeds starts on the records of parsed files (in batches of `batchSize`, as
 * they will be upserted when files are parsed one at a time) while the next files are parsed.
 * Only a hint: nothing is sent when the writer has no `embedAhead`, and one that fails upserts
 * the records all the same.
 */
export function createEmbedAhead(writer: KnowledgeWriter, batchSize: number): EmbedAhead {
  const ahead: KnowledgeRecord[] = [];
  const sendAhead = (all: boolean): void => {
    if (writer.embedAhead === undefined) return;
    while (ahead.length >= batchSize || (all && ahead.length > 0)) {
      const batch = ahead.splice(0, batchSize);
      // Only a hint: a writer whose `embedAhead` fails upserts the records all the same.
      try {
        const returned: unknown = writer.embedAhead(batch);
        if (returned instanceof Promise) returned.catch(() => undefined);
      } catch {
        // The upsert of these records embeds them.
      }
    }
  };
  return {
    add(records: readonly KnowledgeRecord[]): void {
      for (const record of records) ahead.push(record);
      sendAhead(false);
    },
    finish: () => sendAhead(true),
  };
}
