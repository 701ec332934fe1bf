/**
 * Maps a cosine to the dense score, 0..1: the cosine's excess over `denseFloor` (the
 * cosine that unrelated texts typically reach with the offline embedder), stretched to
 * 0..1 and clipped. See the README for how the floor was measured.
 */
export function denseScore(cosine: number, floor: number): number {
  if (!(cosine > floor)) return 0;
  return Math.min(1, (cosine - floor) / (1 - floor));
}
