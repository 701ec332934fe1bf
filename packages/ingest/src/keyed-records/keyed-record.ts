// Records keyed by document ids, which come from file names: a file may be named
// `constructor.md` or `__proto__.md`. On a plain object `record["constructor"]` is Object's
// constructor (a document the manifest never held, seen as known), and assigning
// `record["__proto__"]` sets the prototype (the document is lost from the next manifest).

/** An empty record with no prototype: every key, `__proto__` included, is an own data property. */
export function keyedRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** `record[key]` when `record` has it as its own property, else undefined (never an inherited value). */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}
