import { existsSync } from "node:fs";
import { join } from "node:path";
import { datasetsDirectory, skipWithoutDatasets } from "@lookup-knowledge/vitest-config";

/** The shared datasets folder (`../shared/datasets`, read only) and whether its tests skip (outside CI, when missing). */
export { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "@lookup-knowledge/vitest-config";

/** Whether the tests of one dataset skip: outside CI, when its folder is missing (a copy of shared/ older than the dataset). In CI they run and fail. */
export function skipWithoutDataset(dataset: string): boolean {
  return skipWithoutDatasets || (!existsSync(join(datasetsDirectory, dataset)) && !process.env["CI"]);
}

/** A test or suite name, saying so when it skips for want of the dataset. */
export function needsDataset(dataset: string, name: string): string {
  return skipWithoutDataset(dataset) ? `${name} (skipped: no dataset at ${join(datasetsDirectory, dataset)})` : name;
}
