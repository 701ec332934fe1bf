// Issue 36 item 5: plain checks of the shapes that a zod schema also describes, for the files
// and options read at every open (a manifest). They only say whether a value is plainly valid
// and copy it as the schema would (its keys in the shape's order, absent optional keys left
// out); what they do not accept goes to the schema, which refuses it with its message or reads
// it. So a check here may be stricter than its schema, never looser (tests hold them side by
// side).

/** Reads a value as its schema would, or answers `undefined` when it is not plainly valid. */
export type PlainShape = (value: unknown) => { value: unknown } | undefined;

const accepted = (value: unknown) => ({ value });

/** A value these checks accept as it is. */
export function plainValue(test: (value: unknown) => boolean): PlainShape {
  return (value) => (test(value) ? accepted(value) : undefined);
}

export const plainString = plainValue((value) => typeof value === "string");
export const plainNumber = plainValue((value) => typeof value === "number" && Number.isFinite(value));
/** A whole number, `least` or more. */
export const plainWhole = (least: number) => plainValue((value) => Number.isSafeInteger(value) && (value as number) >= least);
export const plainMatch = (pattern: RegExp) => plainValue((value) => typeof value === "string" && pattern.test(value));
export const plainLiteral = (...values: readonly unknown[]) => plainValue((value) => values.includes(value));

export function plainOptional(shape: PlainShape): PlainShape {
  return (value) => (value === undefined ? accepted(undefined) : shape(value));
}

export function plainNullable(shape: PlainShape): PlainShape {
  return (value) => (value === null ? accepted(null) : shape(value));
}

export function plainArray(shape: PlainShape): PlainShape {
  return (value) => {
    if (!Array.isArray(value)) return undefined;
    const copy: unknown[] = [];
    for (const item of value) {
      const read = shape(item);
      if (read === undefined) return undefined;
      copy.push(read.value);
    }
    return accepted(copy);
  };
}

/** A strict object: no key but the shape's, each key's value read by its shape. */
export function plainStrictObject(shape: Readonly<Record<string, PlainShape>>): PlainShape {
  const keys = Object.keys(shape);
  return (value) => {
    if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
    const given = value as Record<string, unknown>;
    for (const key of Object.keys(given)) if (!Object.hasOwn(shape, key)) return undefined;
    const copy: Record<string, unknown> = {};
    for (const key of keys) {
      const read = (shape[key] as PlainShape)(given[key]);
      if (read === undefined) return undefined;
      if (Object.hasOwn(given, key)) copy[key] = read.value;
    }
    return accepted(copy);
  };
}
