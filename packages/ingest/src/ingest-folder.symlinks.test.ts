import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openLocalSearchPort } from "@lookup-knowledge/search-port/local";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ingestFolder } from "./ingest-folder.js";
import type { IngestOptions } from "./options/ingest-options.js";

describe("ingestFolder and symbolic links", () => {
  let base: string;
  let root: string;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), "ingest-symlinks-"));
    root = join(base, "docs");
    await mkdir(join(root, "sub"), { recursive: true });
    await mkdir(join(root, ".drafts"));
    await mkdir(join(base, "outside"));
    await writeFile(join(root, "guide.md"), "# Guide\n\nThe guide explains the gateway.\n");
    await writeFile(join(root, "sub", "page.md"), "# Page\n\nA page about routes.\n");
    await writeFile(join(root, ".drafts", "shared.md"), "# Shared\n\nA shared note about quotas.\n");
    await writeFile(join(base, "outside", "secret.md"), "# Secret\n\nThe password is swordfish.\n");
    await symlink("..", join(root, "sub", "loop"));
    await symlink("../outside/secret.md", join(root, "secret.md"));
    await symlink("guide.md", join(root, "again.md"));
    await symlink(".drafts/shared.md", join(root, "shared.md"));
  });
  afterEach(async () => {
    await rm(base, { recursive: true, force: true });
  });

  /** Ingests into a real local index (lexical only) and returns the report and the sources a query finds. */
  async function ingestAndSearch(options: IngestOptions, query: string) {
    const directory = join(base, "index");
    const writer = await openLocalSearchPort({ directory, mode: "write" });
    const report = await ingestFolder({ root, dataDirectory: join(base, "data"), writer, options, parseWorkers: 1 });
    await writer.close();
    const reader = await openLocalSearchPort({ directory, mode: "read", minScore: 0 });
    const hits = await reader.search({ query, topK: 10 });
    await reader.close();
    return { report, found: hits.map((hit) => hit.metadata["source"]) };
  }

  it("does not follow links by default: each is reported as skipped with the reason, nothing outside the root is served", async () => {
    const { report, found } = await ingestAndSearch({}, "password swordfish");
    expect(found).toEqual([]);
    expect(report.entries.map((entry) => entry.source)).toEqual(["guide.md", "sub/page.md"]);
    expect(report.files).toBe(2);
    expect(report.skipped).toEqual(
      ["again.md", "secret.md", "shared.md", "sub/loop"].map((source) => ({
        source,
        reason: expect.stringMatching(/^a symbolic link, not followed/),
      })),
    );
  });

  it("with followSymlinks, follows only links inside the root and reads each file once by its real path (a loop is read once)", async () => {
    const { report, found } = await ingestAndSearch({ followSymlinks: true }, "shared note quotas");
    expect(found).toEqual(["shared.md"]);
    expect(report.entries.map((entry) => entry.source)).toEqual(["guide.md", "shared.md", "sub/page.md"]);
    expect(report.skipped).toEqual([
      { source: "again.md", reason: "a symbolic link to guide.md, which is read already: not read twice" },
      {
        source: "secret.md",
        reason: expect.stringMatching(/^a symbolic link to .*outside[/\\]secret\.md, outside the root: not followed$/),
      },
      { source: "sub/loop", reason: "a symbolic link to the folder ., which is read already (a loop or a second path): not followed" },
    ]);
    const secret = await ingestAndSearch({ followSymlinks: true }, "password swordfish");
    expect(secret.found).toEqual([]);
  });
});
