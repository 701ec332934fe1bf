// The int8 / int16 codes of the dense matrix (`DenseMatrix`), and the plain JavaScript scan of them.

/**
 * Quantises a document vector to int8 codes (largest component -> +-127) into `codes`
 * (length >= stride, zero padded) and returns 1 / |codes|, or 0 for a zero vector.
 */
export function quantiseVector(vector: ArrayLike<number>, codes: Int8Array): number {
  let largest = 0;
  for (let index = 0; index < vector.length; index += 1) largest = Math.max(largest, Math.abs(vector[index] as number));
  codes.fill(0);
  if (!(largest > 0) || !Number.isFinite(largest)) return 0;
  const scale = 127 / largest;
  let sum = 0;
  for (let index = 0; index < vector.length; index += 1) {
    const code = Math.round((vector[index] as number) * scale);
    codes[index] = code;
    sum += code * code;
  }
  return sum === 0 ? 0 : 1 / Math.sqrt(sum);
}

/** The same for a query, as int16 codes (largest component -> +-32767). */
export function quantiseQuery(vector: ArrayLike<number>, dimension: number, codes: Int16Array): number {
  let largest = 0;
  for (let index = 0; index < dimension; index += 1) largest = Math.max(largest, Math.abs(vector[index] as number));
  codes.fill(0);
  if (!(largest > 0) || !Number.isFinite(largest)) return 0;
  const scale = 32_767 / largest;
  let sum = 0;
  for (let index = 0; index < dimension; index += 1) {
    const code = Math.round((vector[index] as number) * scale);
    codes[index] = code;
    sum += code * code;
  }
  return 1 / Math.sqrt(sum);
}

/** The int32 dot products of the int16 `query` with every int8 row, in plain JavaScript (where WebAssembly SIMD is missing). */
export function scanInJavaScript(query: Int16Array, rows: Int8Array, stride: number, output: Int32Array): void {
  const count = output.length;
  for (let slot = 0, base = 0; slot < count; slot += 1, base += stride) {
    let sum0 = 0;
    let sum1 = 0;
    let sum2 = 0;
    let sum3 = 0;
    for (let index = 0; index < stride; index += 4) {
      sum0 += (query[index] as number) * (rows[base + index] as number);
      sum1 += (query[index + 1] as number) * (rows[base + index + 1] as number);
      sum2 += (query[index + 2] as number) * (rows[base + index + 2] as number);
      sum3 += (query[index + 3] as number) * (rows[base + index + 3] as number);
    }
    output[slot] = sum0 + sum1 + sum2 + sum3;
  }
}
