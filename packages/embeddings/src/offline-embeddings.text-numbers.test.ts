import { describe, expect, it } from "vitest";
import { OfflineEmbeddings } from "./offline-embeddings.js";

describe("OfflineEmbeddings counts each text's words afresh however many texts it embedded", () => {
  it("issue 36 item 6: past 2^31 texts (the int32 text numbers that mark a word's count wrap) a vector is still a fresh embedder's", async () => {
    const text = "rate limit rate limit per consumer, the limits of a rate";
    const fresh = await new OfflineEmbeddings().embedDocuments([text, text]);
    const long = new OfflineEmbeddings();
    // As if it had embedded 2^31 - 2 texts already: the next two are numbered 2^31 - 1 and 2^31.
    (long as unknown as { textNumber: number }).textNumber = 2 ** 31 - 2;
    expect(await long.embedDocuments([text, text])).toEqual(fresh);
    expect(await long.embedQuery(text)).toEqual(await new OfflineEmbeddings().embedQuery(text));
  });
});
