import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";

/** Creates `name` (it must not exist), writes `text` and fsyncs it; adds it to `created` once it exists. */
export function writeNewFileSync(directory: string, name: string, text: string, created: string[]): void {
  const descriptor = openSync(join(directory, name), "wx");
  created.push(name);
  try {
    const data = Buffer.from(text, "utf8");
    let done = 0;
    while (done < data.length) done += writeSync(descriptor, data, done, data.length - done);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}
