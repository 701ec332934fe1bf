import type { ViteUserConfig } from "vitest/config";

export declare function packageTestConfig(overrides?: ViteUserConfig): ViteUserConfig;

/** The shared datasets: `$LOOKUP_KNOWLEDGE_DATASETS`, else `../shared/datasets` beside the repository. */
export declare const datasetsDirectory: string;
/** True outside CI when the datasets folder is missing: tests that read it skip. */
export declare const skipWithoutDatasets: boolean;
/** The line a file of skipped dataset tests prints once on stderr: why they skip and how to run them. */
export declare const datasetsSkipMessage: string;
/** A test or suite name, with a note when it skips for want of the datasets (the first also prints `datasetsSkipMessage`). */
export declare function needsDatasets(name: string): string;
