import { describeValue } from "@lookup-knowledge/core";
import type { RetrievalDetails } from "../../record/retrieval-details.js";
import { readStoredAttempts } from "./read-stored-attempts.js";

/**
 * The `retrieval_details` of a row as this version can read it. The column is JSON that any
 * writer could have filled (another writer, a hand edit, an older or later version), so what
 * a read relies on is checked and one odd row never fails the read of others (R29): a value
 * that is not an object is read as `{ attempts: [] }`, and `attempts` that are missing or not
 * a list as `[]`, each such repair named in `readNotes`; the attempts themselves are read by
 * `readStoredAttempts`. The other fields are returned as stored. `notes`: repairs of the
 * row's other columns, added to `readNotes`.
 */
export function readStoredDetails(stored: unknown, notes: readonly string[] = []): RetrievalDetails {
  if (typeof stored !== "object" || stored === null || Array.isArray(stored)) {
    const note = `retrievalDetails is not an object (the stored value is ${describeValue(stored)}); read as { attempts: [] }`;
    return { attempts: [], readNotes: [note, ...notes] } as unknown as RetrievalDetails;
  }
  const details = stored as RetrievalDetails;
  const attempts: unknown = details.attempts;
  const attemptNotes: string[] = [];
  const read = { ...details, attempts: Array.isArray(attempts) ? readStoredAttempts(attempts, attemptNotes) : [] };
  const added = [...notes, ...attemptNotes];
  if (attempts === undefined) added.unshift("retrievalDetails.attempts is missing; read as []");
  else if (!Array.isArray(attempts)) {
    added.unshift(`retrievalDetails.attempts is not a list (the stored value is ${describeValue(attempts)}); read as []`);
  }
  if (added.length === 0) return read;
  // Notes already stored (a record read and written again) are kept when they are a list.
  const kept: unknown = details.readNotes;
  return { ...read, readNotes: [...(Array.isArray(kept) ? kept : []), ...added] };
}
