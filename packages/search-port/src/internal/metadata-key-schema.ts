import { z } from "zod";

/** An option that names a metadata key: a non-empty string not starting with `$` (`example` is shown in the refusal). */
export function metadataKeySchema(example: string) {
  const error = `expected a metadata key such as ${JSON.stringify(example)}`;
  return z.string({ error }).refine((key) => key !== "" && !key.startsWith("$"), { error });
}
