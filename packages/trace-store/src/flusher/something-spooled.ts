import { listSpoolSegments, liveSegments, spoolDirectory } from "../spool/spool-segment.js";

/**
 * Whether a background flush has anything to do: `appended` own records, or a segment of the
 * trace folder `directory` not being written here. A spool folder that cannot be listed has nothing.
 */
export function somethingSpooled(directory: string, appended: number): boolean {
  if (appended > 0) return true;
  try {
    return listSpoolSegments(spoolDirectory(directory)).some((segment) => !liveSegments.has(segment.file));
  } catch {
    return false;
  }
}
