import { openSync } from "node:fs";
import { join } from "node:path";
import { isMissing } from "./is-missing.js";
import { MissingDataFileError } from "../errors/missing-data-file-error.js";

/** Opens a data file for reading; a missing one is a `MissingDataFileError`. */
export function openExistingFile(directory: string, name: string): number {
  try {
    return openSync(join(directory, name), "r");
  } catch (error) {
    if (isMissing(error)) throw new MissingDataFileError(name);
    throw error;
  }
}
