import { fileURLToPath } from "node:url";
import { defaultClientConditions, defineConfig } from "vite";

// The page is built into dist/web, next to the compiled server that serves it; every
// asset is bundled (no CDN), so the page works offline.
export default defineConfig({
  root: fileURLToPath(new URL("./web", import.meta.url)),
  base: "/",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  // The workspace's packages ship bundled entries for Node (a short process loads a few files,
  // not hundreds); the page takes tsc's files beside them, so this build keeps only the modules
  // it uses (the core bundle added 1.8 KB to the page).
  resolve: { conditions: ["lookup-knowledge-unbundled", ...defaultClientConditions] },
  build: {
    outDir: fileURLToPath(new URL("./dist/web", import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    assetsInlineLimit: 0,
  },
  logLevel: "warn",
});
