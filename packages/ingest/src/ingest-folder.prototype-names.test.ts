import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createRecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import type { RecordingKnowledgeWriter } from "../test/recording-knowledge-writer.js";
import { ingestFolder } from "./ingest-folder.js";
import { readIngestManifest } from "./manifest/read-ingest-manifest.js";

const docIdsOf = (writer: RecordingKnowledgeWriter): string[] =>
  [...new Set([...writer.records.values()].map((record) => String(record.metadata["docId"])))].sort();

describe("ingestFolder: documents named like an object's own properties (constructor.md, __proto__.md)", () => {
  let base: string;
  let root: string;
  let data: string;
  const names = ["__proto__", "constructor", "plain", "toString"];

  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "ingest-prototype-names-"));
    root = join(base, "content");
    data = join(base, "data");
    await mkdir(root);
    for (const name of names) await writeFile(join(root, `${name}.md`), `# ${name}\n\nSome text about ${name}.\n`);
    await writeFile(join(root, "hasOwnProperty.md"), "");
  });

  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it("issue 36 item 5 review: are added, kept in the manifest, unchanged the next run, and removed with their chunks when their files go", async () => {
    const writer = createRecordingKnowledgeWriter();
    const first = await ingestFolder({ root, dataDirectory: data, writer });
    expect(first).toMatchObject({ parsed: 4, added: 4, changed: 0, noContent: ["hasOwnProperty.md"] });
    const manifest = await readIngestManifest(data);
    expect(Object.keys(manifest?.documents ?? {}).sort()).toEqual(names);
    expect(Object.keys(manifest?.noContent ?? {})).toEqual(["hasOwnProperty"]);

    const second = await ingestFolder({ root, dataDirectory: data, writer });
    expect(second).toMatchObject({ parsed: 0, unchanged: 4, added: 0, changed: 0, removed: 0 });

    await rm(join(root, "constructor.md"));
    await rm(join(root, "__proto__.md"));
    const third = await ingestFolder({ root, dataDirectory: data, writer });
    expect(third).toMatchObject({ parsed: 0, unchanged: 2, removed: 2 });
    expect(docIdsOf(writer)).toEqual(["plain", "toString"]);
    expect(Object.keys((await readIngestManifest(data))?.documents ?? {})).toEqual(["plain", "toString"]);
  });
});
