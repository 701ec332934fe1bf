import { stat } from "node:fs/promises";
import { errorMessage } from "@lookup-knowledge/core";
import { IngestError } from "../ingest-error.js";

/** Throws `IngestError` (`invalid_ingest_root`) when `root` does not exist, cannot be read or is not a folder. */
export async function assertDirectory(root: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(root)).isDirectory();
  } catch (cause) {
    const missing = (cause as NodeJS.ErrnoException).code === "ENOENT";
    throw new IngestError({
      code: "invalid_ingest_root",
      path: root,
      reason: missing ? "The ingest root does not exist" : `The ingest root cannot be read (${errorMessage(cause)})`,
      cause,
    });
  }
  if (!isDirectory) throw new IngestError({ code: "invalid_ingest_root", path: root, reason: "The ingest root is not a directory" });
}
