/** The shared datasets folder (`../shared/datasets`, read only) and whether its tests skip (outside CI, when missing). */
export { datasetsDirectory, needsDatasets, skipWithoutDatasets } from "@lookup-knowledge/vitest-config";
