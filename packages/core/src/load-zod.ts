import { createRequire } from "node:module";
import type { z } from "zod";

// Issue 36 item 5: zod is ~95 modules and ~100 ms of a short process's start. The option and
// file checks on the query path read what is plainly valid with plain checks (to the very value
// their schema gives) and need their schema only for what those checks do not accept: to refuse
// it with zod's usual message, or to read an unusual but valid value. Those checks are
// synchronous, and an ES module cannot be imported synchronously on Node 20, so zod is required
// here, through its CommonJS build, the first time a schema is built. The schemas built from
// it are used on their own (never mixed with schemas of the ES build), so the two builds never
// meet. A subpath of its own: the root of this package also runs in browsers (the inspector).
const requireHere = createRequire(import.meta.url);
let loaded: typeof z | undefined;

/** zod's `z`, loaded on the first call (synchronously), for schemas built on first use. */
export function loadZod(): typeof z {
  loaded ??= (requireHere("zod") as { z: typeof z }).z;
  return loaded;
}

/**
 * A schema built, and zod loaded, on the first call of the returned function: for a check
 * whose schema is needed only for input its plain checks did not accept.
 */
export function schemaOnDemand<Schema>(build: (zod: typeof z) => Schema): () => Schema {
  let schema: Schema | undefined;
  return () => {
    schema ??= build(loadZod());
    return schema;
  };
}
