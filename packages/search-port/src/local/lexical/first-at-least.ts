/** The first index in `low..high` of the ascending `values` whose value is at least `value` (`high` if none). */
export function firstAtLeast(values: Uint32Array, low: number, high: number, value: number): number {
  let first = low;
  let last = high;
  while (first < last) {
    const middle = (first + last) >>> 1;
    if ((values[middle] as number) < value) first = middle + 1;
    else last = middle;
  }
  return first;
}
