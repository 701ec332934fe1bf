import type { ViteUserConfig } from "vitest/config";

export declare function packageTestConfig(overrides?: ViteUserConfig): ViteUserConfig;
