import type { LookupKnowledgeError } from "@lookup-knowledge/core";
import { asFlushError } from "../flusher/as-flush-error.js";
import type { DurableStoreParts } from "./create-durable-store-parts.js";

/**
 * Stops the background flusher, seals the spool's segment, flushes it and closes the database.
 * A failure to seal or flush goes to `report`; the records stay in the spool for a later flush.
 * `flush: false` leaves the spooled records for a later flush (the database is not opened).
 */
export async function closeDurableStoreParts(
  { spool, session, flusher }: DurableStoreParts,
  options: { lockWaitMs: number; location: string; report: (error: LookupKnowledgeError) => void; flush?: boolean },
): Promise<void> {
  session.cancelIdleClose();
  await flusher.stop();
  // The segment is flushed even when sealing it failed: it left the live set, so the
  // flush takes it as finished.
  try {
    await spool.close();
  } catch (error) {
    options.report(asFlushError(error, options.location));
  }
  if (options.flush !== false) {
    try {
      await flusher.flush(options.lockWaitMs);
    } catch (error) {
      options.report(asFlushError(error, options.location));
    }
  }
  await session.close();
}
