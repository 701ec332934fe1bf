/**
 * How a port judged whether its best hit answers the query: the 0..1 score the gate
 * compares with `rag.reference-threshold`, the model that gave it, and the signals the
 * model read, so a reader of the trace can see why an attempt was judged low quality.
 */
export interface Answerability {
  /** The calibrated 0..1 probability that the best hit answers; the attempt's top score, apart from the hits' ranking scores. */
  score: number;
  /** The model and its version, e.g. `"answerability-logistic@2"`. */
  model: string;
  /** The signals the model read, by name (each documented by the port), rounded. */
  signals: Record<string, number>;
}
