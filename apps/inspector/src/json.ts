/** What `JSON.stringify` leaves out of an object, or sends as `null` in an array. */
type Unsent = undefined | symbol | ((...args: never[]) => unknown);

/**
 * A `T` as `JSON.parse` gives it back after `JSON.stringify`: what the page receives from an
 * endpoint that answers with a `T`. A `toJSON` method's result stands for the value (a `Date`
 * becomes its ISO string); a `Map` or `Set` becomes an empty object; properties holding
 * functions, symbols or `undefined` are left out (an optional property stays optional), and in
 * arrays those become `null`. (Numbers that are not finite become `null` too, which a type
 * cannot tell.)
 */
export type Json<T> = unknown extends T
  ? unknown
  : T extends { toJSON(): infer Sent }
    ? Json<Sent>
    : T extends string | number | boolean | null
      ? T
      : T extends Unsent | bigint
        ? never
        : T extends ReadonlyMap<unknown, unknown> | ReadonlySet<unknown>
          ? Record<string, never>
          : T extends readonly unknown[]
            ? { [Index in keyof T]: T[Index] extends Unsent ? null : Json<T[Index]> }
            : JsonObject<T>;

/** An object's string-keyed properties that JSON keeps, each as JSON. */
type JsonObject<T> = {
  [Key in keyof T as Key extends string ? (Exclude<T[Key], undefined> extends Unsent ? never : Key) : never]: Json<
    Exclude<T[Key], undefined>
  >;
};
