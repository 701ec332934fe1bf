/** How a writer folds segments together as commits add them (`chooseMerges`). */
export interface MergePolicy {
  /** Adjacent segments of one size level merged together once there are this many (at least 2). */
  segmentsPerLevel: number;
  /** Segments with fewer live records than this count as this many (the smallest level). */
  floorRecords: number;
  /** No merge makes a segment of more live records than this (a forced `optimize` does). */
  maxMergedRecords: number;
  /** A segment with at least this share of its records deleted is written again without them (0..1). */
  deletedShare: number;
}

/**
 * The default: ten segments a level, levels 10x apart from 1,000 records, merged segments of at
 * most 5,000,000 records, a segment rewritten once a third of it is deleted. So N records
 * make at most about 10 x log10(N / 1,000) segments, and each record is rewritten about once per level.
 */
export const defaultMergePolicy: MergePolicy = {
  segmentsPerLevel: 10,
  floorRecords: 1000,
  maxMergedRecords: 5_000_000,
  deletedShare: 1 / 3,
};

/** One segment as the policy sees it. */
export interface SegmentSize {
  /** Records written in it, the deleted ones included. */
  records: number;
  deleted: number;
}

/**
 * The merges a commit makes, as runs `[start, end)` of adjacent segments (so records keep their
 * order), none overlapping, in increasing order. A log-structured policy: a segment's level is
 * how many times `segmentsPerLevel` its live records are above `floorRecords`; a run of
 * `segmentsPerLevel` adjacent segments of one level becomes one segment of the next, unless it
 * would pass `maxMergedRecords`. A segment with `deletedShare` of its records deleted that no
 * run takes is written again alone. Deterministic: the same sizes give the same merges.
 */
export function chooseMerges(segments: readonly SegmentSize[], policy: MergePolicy = defaultMergePolicy): Array<[number, number]> {
  const per = Math.max(2, Math.floor(policy.segmentsPerLevel));
  const live = segments.map((segment) => segment.records - segment.deleted);
  const level = (records: number): number =>
    Math.floor(Math.log(Math.max(records, policy.floorRecords) / policy.floorRecords) / Math.log(per) + 1e-9);
  const merges: Array<[number, number]> = [];
  let start = 0;
  while (start < segments.length) {
    let end = start + 1;
    while (end < segments.length && level(live[end] as number) === level(live[start] as number)) end += 1;
    // Within a run of one level, merge groups of `per`, oldest first.
    let from = start;
    while (end - from >= per) {
      let total = 0;
      for (let index = from; index < from + per; index += 1) total += live[index] as number;
      if (total <= policy.maxMergedRecords) merges.push([from, from + per]);
      from += per;
    }
    start = end;
  }
  return withRewrites(merges, segments, policy);
}

/** `merges` with every segment no run takes rewritten alone when enough of it is deleted. */
function withRewrites(merges: Array<[number, number]>, segments: readonly SegmentSize[], policy: MergePolicy): Array<[number, number]> {
  const taken = new Uint8Array(segments.length);
  for (const [from, to] of merges) taken.fill(1, from, to);
  segments.forEach((segment, index) => {
    if (taken[index] === 0 && segment.deleted > 0 && segment.deleted >= policy.deletedShare * segment.records)
      merges.push([index, index + 1]);
  });
  return merges.sort((left, right) => left[0] - right[0]);
}
