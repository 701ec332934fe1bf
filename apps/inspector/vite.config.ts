import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// The page is built into dist/web, next to the compiled server that serves it; every
// asset is bundled (no CDN), so the page works offline.
export default defineConfig({
  root: fileURLToPath(new URL("./web", import.meta.url)),
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: fileURLToPath(new URL("./dist/web", import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    assetsInlineLimit: 0,
  },
  logLevel: "warn",
});
