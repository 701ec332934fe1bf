// Preloaded by `loadedModules` (`node --import`): registers the hook that appends each loaded
// module's URL to the file named by LOOKUP_KNOWLEDGE_LOADED_MODULES_FILE.
import { register } from "node:module";

register(new URL("./record-loaded-modules-hooks.js", import.meta.url));
