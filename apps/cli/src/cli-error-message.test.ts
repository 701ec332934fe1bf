import { LookupKnowledgeError } from "@lookup-knowledge/core";
import { IndexLockedError, IndexNotFoundError } from "@lookup-knowledge/search-port/local";
import { describe, expect, it } from "vitest";
import { cliErrorMessage } from "./cli-error-message.js";

describe("cliErrorMessage", () => {
  it("says there is no ingest yet in the user's words, not the library's (open it with mode write)", () => {
    const message = cliErrorMessage(new IndexNotFoundError({ directory: "/work/.lookup-knowledge/index" }));
    expect(message).toBe("Nothing has been ingested into this data folder yet: it has no index (/work/.lookup-knowledge/index).");
    expect(message).not.toMatch(/mode|upsert|commit/);
  });

  it("says a locked index is another ingest at work, without library wording", () => {
    const message = cliErrorMessage(new IndexLockedError({ directory: "/work/.lookup-knowledge/index" }));
    expect(message).toMatch(/another lookup-knowledge ingest is writing to it/);
    expect(message).not.toMatch(/mode/);
  });

  it("keeps every other message as it is", () => {
    expect(cliErrorMessage(new LookupKnowledgeError({ code: "trace_not_found", message: "No recorded lookup has the id x." }))).toBe(
      "No recorded lookup has the id x.",
    );
  });
});
