// The module loader hook of `loadedModules`: runs on the loader thread, one line per module.
import { appendFileSync } from "node:fs";

const file = process.env.LOOKUP_KNOWLEDGE_LOADED_MODULES_FILE;

export async function load(url, context, nextLoad) {
  const result = await nextLoad(url, context);
  if (file) appendFileSync(file, `${url}\n`);
  return result;
}
