// The tables of the segments bench (segments.mjs): builds beside the peers, the one-document
// change, the small commits, and query p50 after them against a merged index.
import { codeRoot, root } from "./corpus.mjs";

const names = { ours: "ours (local)", lancedb: "LanceDB 0.31.0", sqlite: "SQLite FTS5 + sqlite-vec" };
const modes = ["lexical", "dense", "hybrid"];

function median(values) {
  const sorted = values.filter((value) => value !== undefined).sort((left, right) => left - right);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const percentile = (values, share) => {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
};
const fixed = (value, digits) => (value === undefined ? "–" : value.toFixed(digits));
const ratio = (value, base) => (value === undefined || base === undefined || base === 0 ? "–" : `${(value / base).toFixed(2)}x`);
const size = (bytes) =>
  bytes === undefined ? "–" : bytes >= 1048576 ? `${(bytes / 1048576).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
const row = (cells) => console.log(`| ${cells.join(" | ")} |`);
const header = (cells) => {
  row(cells);
  console.log(`|${cells.map(() => "---").join("|")}|`);
};

function printBuilds({ stores, builds, rounds }) {
  console.log(`\n### Build, embedding excluded (median of ${rounds} builds per store, taking turns; each build in its own process)\n`);
  const cells = ["measure", names.ours];
  for (const name of stores.slice(1)) cells.push(names[name], `${name} / ours`);
  header(cells);
  const measure = (label, read, digits) => {
    const values = Object.fromEntries(stores.map((name) => [name, builds[name].filter((build) => build.failed === undefined).map(read)]));
    const base = median(values.ours);
    const line = [label, `${fixed(base, digits)} (${values.ours.map((value) => fixed(value, digits)).join(", ")})`];
    for (const name of stores.slice(1))
      line.push(
        `${fixed(median(values[name]), digits)} (${values[name].map((value) => fixed(value, digits)).join(", ")})`,
        ratio(median(values[name]), base),
      );
    row(line);
  };
  measure("build, chunks/s", (build) => build.chunks / build.seconds, 0);
  measure("build, peak RSS (MB)", (build) => build.peakRssMb, 0);
  measure("RSS before the build (MB)", (build) => build.rssBeforeMb, 0);
  measure("on disk (MB)", (build) => build.diskMb, 0);
  for (const name of stores) {
    const failed = builds[name].filter((build) => build.failed !== undefined);
    if (failed.length > 0) console.log(`\n- ${names[name]}: ${failed.length} build(s) failed (${failed[0].failed})`);
  }
}

function commitFigures(run) {
  const commits = run.commits;
  return {
    changeMs: median(commits.map((commit) => commit.changeMs)),
    commitMs: commits.map((commit) => commit.commitMs),
    written: commits.map((commit) => commit.written.bytes),
    beyond: commits.map((commit) => commit.written.bytes - commit.payloadBytes),
    payload: median(commits.map((commit) => commit.payloadBytes)),
    writeCalls: median(commits.map((commit) => commit.writeCalls)),
    files: median(commits.map((commit) => commit.written.files.length)),
    removed: median(commits.map((commit) => commit.written.removed.length)),
  };
}

function printChange({ change }) {
  const figures = commitFigures(change);
  const count = change.commits.length;
  console.log(`\n### One-document change (deleteDocuments + upsert of its chunk, then commit), ${count} commits in one writer process\n`);
  header(["measure", "ours", "target (issue 36, at 1M chunks)"]);
  row(["writer open before the changes (ms)", fixed(change.openMs, 0), ""]);
  row([`deleteDocuments + upsert (ms), median of ${count}`, fixed(figures.changeMs, 1), ""]);
  row([
    `commit wall (ms), median (min to max)`,
    `${fixed(median(figures.commitMs), 0)} (${fixed(Math.min(...figures.commitMs), 0)} to ${fixed(Math.max(...figures.commitMs), 0)})`,
    "< 100 ms",
  ]);
  row([
    "bytes written into the index folder per commit, median",
    `${size(median(figures.written))} in ${figures.files} files (${figures.removed} removed)`,
    "",
  ]);
  row([`beyond the changed records (their text and vector: ${size(figures.payload)}), median`, size(median(figures.beyond)), "< 1 MB"]);
  row(["bytes passed to write calls per commit (/proc/self/io wchar), median", size(figures.writeCalls), ""]);
  row(["peak RSS of the writer process (MB)", fixed(change.peakRssMb, 0), ""]);
  const first = change.commits[0];
  const removed = first.written.removed.length;
  console.log(
    `\nFiles the first change's commit wrote (${size(first.written.bytes)}; ${removed} file${removed === 1 ? "" : "s"} removed):\n`,
  );
  for (const file of first.written.files) console.log(`- ${file.path}: ${size(file.bytes)} (${file.how})`);
}

function printCommits({ commits, merged, folders }) {
  const figures = commitFigures(commits);
  const count = commits.commits.length;
  const total = figures.commitMs.reduce((sum, value) => sum + value, 0);
  console.log(`\n### ${count} small commits (one document each) in one writer process, then a merged index of the same records\n`);
  header(["measure", "ours"]);
  row([
    "commit wall (ms), median / p95 / total",
    `${fixed(median(figures.commitMs), 0)} / ${fixed(percentile(figures.commitMs, 0.95), 0)} / ${fixed(total / 1000, 1)} s`,
  ]);
  row([
    "bytes written per commit, median / total",
    `${size(median(figures.written))} / ${size(figures.written.reduce((sum, value) => sum + value, 0))}`,
  ]);
  row(["peak RSS of the writer process (MB)", fixed(commits.peakRssMb, 0)]);
  row([`index after the ${count} commits: files, on disk`, `${folders.commits.files}, ${fixed(folders.commits.diskMb, 1)} MB`]);
  row(["merged index: files, on disk", `${folders.merged.files}, ${fixed(folders.merged.diskMb, 1)} MB`]);
  const made =
    merged.how === "optimize"
      ? `optimize() in ${fixed(merged.optimizeMs, 0)} ms, ${size(merged.writtenBytes)} written, peak RSS ${fixed(merged.peakRssMb, 0)} MB`
      : `a fresh build (the port has no optimize()): ${fixed(merged.build.seconds, 1)} s, ${fixed(merged.build.chunks / merged.build.seconds, 0)} chunks/s`;
  row(["merged index made by", made]);
}

function sameTops(left, right) {
  let same = 0;
  left.forEach((ids, index) => {
    if (ids.length === right[index].length && ids.every((id, position) => id === right[index][position])) same += 1;
  });
  return same / Math.max(left.length, 1);
}

function printQueries({ queries, rounds }) {
  const count = queries.commits[0].modes.lexical.tops.length;
  console.log(`\n### Query p50 (ms), ${count} queries, top 10: median of ${rounds} runs per index, the two indexes taking turns\n`);
  header(["measure", "after the small commits", "merged", "after / merged", "runs (after; merged)", "top-10 lists identical", "target"]);
  const line = (label, read, digits, target, tops) => {
    const after = queries.commits.map(read);
    const merged = queries.merged.map(read);
    const runs = `${after.map((value) => fixed(value, digits)).join(", ")}; ${merged.map((value) => fixed(value, digits)).join(", ")}`;
    row([label, fixed(median(after), digits), fixed(median(merged), digits), ratio(median(after), median(merged)), runs, tops, target]);
  };
  for (const mode of modes) {
    const identical = sameTops(queries.commits[0].modes[mode].tops, queries.merged[0].modes[mode].tops);
    line(`${mode} p50`, (run) => run.modes[mode].p50, 2, "within 1.5x", `${(identical * 100).toFixed(0)}%`);
  }
  for (const mode of modes) line(`${mode} p95`, (run) => run.modes[mode].p95, 2, "", "");
  line("open, hybrid port (ms)", (run) => run.openMs, 1, "", "");
  line("RSS after the queries, three ports (MB)", (run) => run.rssAfterQueriesMb, 0, "", "");
}

export function printSegmentTables(results) {
  const load = (values) => values.map((value) => value.toFixed(2)).join(" / ");
  console.log(
    `\n## Segments bench (issue 36): ${results.chunks} chunks (SciFact x ${results.replicas}), same vectors (offline embedder)\n`,
  );
  console.log(
    `Code: ${codeRoot === root ? "this checkout" : codeRoot}. Load average (1 / 5 / 15 min) before ${load(results.load.before)}, after ${load(results.load.after)}.`,
  );
  if (results.peersLeftOut !== undefined) console.log(`Peers left out: ${results.peersLeftOut}.`);
  printBuilds(results);
  // Parts 1 and 2 are left out with BENCH_SEGMENT_PARTS=build.
  if (results.change !== undefined) {
    printChange(results);
    printCommits(results);
    printQueries(results);
  }
  console.log(
    "\nBuild ratios are peer / ours (over 1: the peer builds faster, or uses more memory or disk). " +
      "Bytes written: files new in the index folder after a commit (or renamed over an old name) whole, plus the growth of files it appended to. " +
      "Top-10 lists identical: the share of queries whose top 10 ids, in order, are the merged index's.",
  );
}
