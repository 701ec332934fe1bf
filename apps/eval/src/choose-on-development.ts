import { knowledgeBaseOf } from "./leave-one-out.js";

/** One set's score (nDCG@10) at one value of a parameter, on each half. */
export interface ParameterMeasure<T> {
  set: string;
  value: T;
  dev: number;
  test: number;
}

/** How the values of a parameter are told apart and ordered. */
export interface ParameterSpace<T> {
  /** A value's name, for tables and errors; two values with one name are the same value. */
  name(value: T): string;
  /** The order candidates are tried in: on a tie of the development mean, the first wins. */
  order(a: T, b: T): number;
}

/**
 * The value with the best mean score over the development halves of the sets kept (each set
 * counts once, whatever its size); ties go to the first value in `space.order`. Undefined
 * when no set is kept.
 */
export function chooseOnDevelopment<T>(
  measures: readonly ParameterMeasure<T>[],
  space: ParameterSpace<T>,
  keep: (set: string) => boolean = () => true,
): T | undefined {
  const candidates = new Map<string, T>();
  for (const measure of measures) candidates.set(space.name(measure.value), measure.value);
  const ordered = [...candidates.values()].sort(space.order);
  let best: { value: T; mean: number } | undefined;
  for (const value of ordered) {
    const kept = measures.filter((measure) => space.name(measure.value) === space.name(value) && keep(measure.set));
    if (kept.length === 0) continue;
    const mean = kept.reduce((sum, measure) => sum + measure.dev, 0) / kept.length;
    if (best === undefined || mean > best.mean + 1e-9) best = { value, mean };
  }
  return best?.value;
}

/** For each set: the value chosen without its knowledge base, and its test score there, at `current` and at `baseline`. */
export interface LeftOutChoice<T> {
  set: string;
  chosen: T;
  test: number;
  atCurrent: number;
  atBaseline: number;
}

/** Leave one knowledge base out: the value each set would get from the others' development halves. */
export function leaveOneOutChoice<T>(
  measures: readonly ParameterMeasure<T>[],
  space: ParameterSpace<T>,
  current: T,
  baseline: T,
): LeftOutChoice<T>[] {
  const sets = [...new Set(measures.map((measure) => measure.set))];
  const at = (set: string, value: T) => {
    const found = measures.find((measure) => measure.set === set && space.name(measure.value) === space.name(value));
    if (found === undefined) throw new Error(`${set} was not measured at ${space.name(value)}: put it on the grid`);
    return found.test;
  };
  return sets.map((set) => {
    const chosen = chooseOnDevelopment(measures, space, (other) => knowledgeBaseOf(other) !== knowledgeBaseOf(set));
    if (chosen === undefined) throw new Error(`no other knowledge base to choose a value for ${set} from`);
    return { set, chosen, test: at(set, chosen), atCurrent: at(set, current), atBaseline: at(set, baseline) };
  });
}
