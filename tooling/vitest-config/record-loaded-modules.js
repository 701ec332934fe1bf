// Preloaded by `loadedModules` (`node --import`): registers the hook that appends each loaded
// module's URL to the file named by LOOKUP_KNOWLEDGE_LOADED_MODULES_FILE.
import { subscribe } from "node:diagnostics_channel";
import { appendFileSync } from "node:fs";
import { register } from "node:module";
import { pathToFileURL } from "node:url";

register(new URL("./record-loaded-modules-hooks.js", import.meta.url));

// A file the CLI compiles itself under a V8 code cache (apps/cli `code-cached-module.ts`: the
// bin's query path) does not pass the module hooks: it announces itself on this channel, and is
// listed apart (`codeCached`), being no ES module.
subscribe("lookup-knowledge:code-cached-module", ({ file }) => {
  const list = process.env.LOOKUP_KNOWLEDGE_LOADED_MODULES_FILE;
  if (list) appendFileSync(list, `code-cached ${pathToFileURL(file).href}\n`);
});
