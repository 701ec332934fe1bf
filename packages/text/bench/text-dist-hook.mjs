// A module resolve hook for the benchmarks: with LOOKUP_KNOWLEDGE_TEXT_DIST set to a folder
// holding another build of this package (its `dist`), every import of
// `@lookup-knowledge/text`, in this package's benchmarks and in the packages they load, gets
// that build instead, so an older analyser and this one can be timed in the same run.
// Registered by the benchmarks themselves (`module.register`); nothing else uses it.
import { pathToFileURL } from "node:url";
import { join } from "node:path";

export async function resolve(specifier, context, nextResolve) {
  const folder = process.env.LOOKUP_KNOWLEDGE_TEXT_DIST;
  if (folder !== undefined && folder !== "" && specifier === "@lookup-knowledge/text") {
    return { url: pathToFileURL(join(folder, "index.js")).href, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
