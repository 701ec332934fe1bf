import { fileURLToPath } from "node:url";

/** The shared datasets folder beside the repository (`../shared/datasets`), read only. */
export const datasetsDirectory = fileURLToPath(new URL("../../../../shared/datasets/", import.meta.url));
