import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { KnowledgeRecord } from "../../knowledge-record.js";
import { readManifest } from "../format/read-manifest.js";
import { isSegmented } from "../format/segmented-manifest.js";
import { openLocalSearchPort } from "../open-local-search-port.js";
import { build, directory, open, useIndexFolder } from "../test/local-port-test-fixtures.js";
import { random } from "../test/seeded-random-test-fixtures.js";

useIndexFolder();

const vocabulary = Array.from({ length: 120 }, (_, index) => `tok${index}z`);

function zipfText(next: () => number, words: number): string {
  return Array.from({ length: words }, () => vocabulary[Math.floor(vocabulary.length * next() ** 3)]).join(" ");
}

/** Which commit wrote a record, from its id. */
function segmentOf(id: string | undefined): string {
  if (id === undefined) return "none";
  if (id.startsWith("big") || /^tie\d+-[0b]/.test(id)) return "large";
  if (id.startsWith("mid") || /^tie\d+-c/.test(id)) return "third";
  return "small";
}

function record(id: string, content: string): KnowledgeRecord {
  return { id, content, metadata: { docId: id.split("#")[0], chunkIndex: 0 } };
}

let single: string | undefined;
afterEach(() => {
  if (single !== undefined) rmSync(single, { recursive: true, force: true });
  single = undefined;
});

describe("issue 36 review: the lexical pass searches the largest segments first", () => {
  it("issue 36: equal scores across segments keep the same hits, scores and order as one fresh segment of the same records", async () => {
    const next = random(3612);
    // Tie groups: one text copied into every segment. Ids `tieK-a` sit in the small first
    // segment (searched last), `tieK-b` in the large one (searched first), `tieK-c` in the
    // third, and `tieK-0` in the large one again: the smaller id must win either way round.
    const tieTexts = Array.from({ length: 80 }, () => zipfText(next, 3 + Math.floor(6 * next())));
    const small = tieTexts.map((text, k) => record(`tie${k}-a#chunk-0`, text));
    const large = [
      ...tieTexts.map((text, k) => record(`tie${k}-b#chunk-0`, text)),
      ...tieTexts.map((text, k) => record(`tie${k}-0#chunk-0`, text)),
      ...Array.from({ length: 2400 }, (_, index) => record(`big${index}#chunk-0`, zipfText(next, 3 + Math.floor(40 * next())))),
    ];
    const third = [
      ...tieTexts.map((text, k) => record(`tie${k}-c#chunk-0`, text)),
      ...Array.from({ length: 300 }, (_, index) => record(`mid${index}#chunk-0`, zipfText(next, 3 + Math.floor(20 * next())))),
      // Replaces records of the large segment: deleted slots there.
      ...Array.from({ length: 40 }, (_, index) => record(`big${3 * index}#chunk-0`, zipfText(next, 5))),
    ];
    const writer = await build(small);
    await writer.upsert(large);
    await writer.commit();
    await writer.upsert(third);
    await writer.commit();
    await writer.close();
    const manifest = readManifest(directory);
    expect(manifest !== undefined && isSegmented(manifest) ? manifest.segments.map((segment) => segment.chunks) : []).toEqual([
      small.length,
      large.length,
      third.length,
    ]);

    // The same live records, built at once into a folder of their own.
    const live = new Map<string, KnowledgeRecord>();
    for (const item of [...small, ...large, ...third]) live.set(item.id, item);
    single = mkdtempSync(join(tmpdir(), "local-port-single-"));
    const oneWriter = await openLocalSearchPort({ directory: single, mode: "write" });
    await oneWriter.upsert([...live.values()]);
    await oneWriter.commit();
    await oneWriter.close();
    const one = await openLocalSearchPort({ directory: single, minScore: 0 });
    const segmented = await open({ minScore: 0 });
    try {
      let compared = 0;
      let tiedAcross = 0;
      for (let query = 0; query < 250; query += 1) {
        const text = query < 80 ? (tieTexts[query] as string) : zipfText(next, 1 + Math.floor(5 * next()));
        const wide = await one.search({ query: text, topK: 60 });
        for (const topK of [1, 2, 5, 20]) {
          const expected = await one.search({ query: text, topK });
          expect(await segmented.search({ query: text, topK }), `${text} (topK ${topK})`).toEqual(expected);
          compared += expected.length;
          // The list is cut inside a run of equal scores whose records lie in other segments.
          const [kept, cut] = [wide[topK - 1], wide[topK]];
          if (kept !== undefined && cut !== undefined && kept.score === cut.score && segmentOf(kept.id) !== segmentOf(cut.id)) {
            tiedAcross += 1;
          }
        }
      }
      expect(compared).toBeGreaterThan(3000);
      // Many lists were cut inside a run of equal scores from different segments.
      expect(tiedAcross).toBeGreaterThan(100);
    } finally {
      await one.close();
    }
  });
});
