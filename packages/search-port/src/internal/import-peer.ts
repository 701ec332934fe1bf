import { ConfigurationError } from "@lookup-knowledge/core";

/**
 * Loads an optional peer dependency when it is first needed. A package that is not installed
 * becomes a `ConfigurationError` saying what to install; any other failure is rethrown.
 */
export async function importPeer<T>(load: () => Promise<T>, packageSpec: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") {
      throw new ConfigurationError({
        key: "dependencies",
        value: packageSpec,
        reason: `this store needs ${packageSpec}: install it beside @lookup-knowledge/search-port (pnpm add ${packageSpec})`,
      });
    }
    throw error;
  }
}
