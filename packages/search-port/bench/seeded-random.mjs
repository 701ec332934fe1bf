// A deterministic pseudo-random sequence in [0, 1) (mulberry32), shared by the benches here,
// so a run can be repeated (the tests' own copy, src/local/test/, is not built).
export function seeded(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}
