import { createHash } from "node:crypto";
import { channel } from "node:diagnostics_channel";
import { type Stats, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import vm from "node:vm";

// Issue 36 item 5: Node 20 compiles every ES module from its source on every start (it has no
// compile cache before Node 22), and compiling the modules a cold `query` runs took 35-60 ms of
// its CPU. A CommonJS file compiled through `vm.Script` can start from V8's code cache instead:
// the bytecode of the functions an earlier run compiled, written next to the file after that run.
//
// The cache is only ever an optimisation. Its header holds the SHA-256 of the source it was made
// from and of its own V8 data; a cache whose header does not match (another build of the file, a
// damaged or truncated file) is not handed to V8 at all, and V8 itself rejects data from another
// V8 version or other flags. Either way the file is compiled from its source, as without a cache,
// and a fresh cache replaces the old one once the run is over. One that cannot be written (a
// read-only install) is simply not written.
//
// The header's hashes find accidents, not intent: a cache is code (V8 checks only the source's
// length), and whoever can change it can make it run anything. So a cache is used only when it
// is no easier to change than the source it stands for, and it is written that way.

const magic = Buffer.from("LKCODE1\n");
const hashBytes = 32;
const headerBytes = magic.length + 2 * hashBytes;

/** What became of the cache of a module loaded by `loadCodeCachedModule`. */
export type CodeCacheUse = "used" | "absent" | "mismatched" | "rejected" | "untrusted";

export interface CodeCachedModule {
  /** The module's `module.exports` once its top level has run. */
  exports: unknown;
  cache: CodeCacheUse;
  /** Writes a fresh cache (the functions compiled so far) unless the one used is current. */
  saveCache(): void;
}

/** Where the loads are announced, for tests that list what a command loaded (the ES module hooks do not see these). */
export const codeCachedModuleChannel = "lookup-knowledge:code-cached-module";

/** The function a code-cached file calls where its source had `import(specifier)`. */
export const dynamicImportName = "__lookupKnowledgeImport";

const sha256 = (bytes: string | Uint8Array) => createHash("sha256").update(bytes).digest();

/** The V8 data of `cache` when its header names `sourceHash` and its data matches its own hash; otherwise nothing. */
function checkedCacheData(cache: Buffer | undefined, sourceHash: Buffer): Buffer | undefined {
  if (cache === undefined || cache.length <= headerBytes || !cache.subarray(0, magic.length).equals(magic)) return undefined;
  const data = cache.subarray(headerBytes);
  if (!cache.subarray(magic.length, magic.length + hashBytes).equals(sourceHash)) return undefined;
  return cache.subarray(magic.length + hashBytes, headerBytes).equals(sha256(data)) ? data : undefined;
}

/**
 * Whether the cache may run in place of `source`: a regular file, owned by this user, the
 * source's owner or root, and writable by no one the source is not writable by (a cache another
 * user planted, or one a umask of 0 left writable by all, is not). Windows has neither owners
 * nor mode bits to go by.
 */
function trusted(cache: Stats, source: Stats): boolean {
  const user = process.getuid?.();
  if (!cache.isFile()) return false;
  if (user === undefined) return true;
  const owner = cache.uid === user || cache.uid === source.uid || cache.uid === 0;
  return owner && (cache.mode & 0o022 & ~source.mode) === 0;
}

function readIfTrusted(file: string, source: Stats): Buffer | "untrusted" | undefined {
  try {
    return trusted(statSync(file), source) ? readFileSync(file) : "untrusted";
  } catch {
    return undefined;
  }
}

/**
 * Loads the CommonJS file `file` as `require` would (its own `require`, `module`, `exports`,
 * `__filename`, `__dirname`; its dynamic imports call `dynamicImportName`), compiled from the code
 * cache `cacheFile` when that is current.
 */
export function loadCodeCachedModule(file: string, cacheFile = `${file}.cache`): CodeCachedModule {
  const source = readFileSync(file, "utf8");
  const sourceHash = sha256(source);
  const cached = readIfTrusted(cacheFile, statSync(file));
  const data = cached === "untrusted" ? undefined : checkedCacheData(cached, sourceHash);
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname, ${dynamicImportName}) {${source}\n})`, {
    filename: file,
    ...(data === undefined ? {} : { cachedData: data }),
  });
  const cache: CodeCacheUse =
    cached === undefined
      ? "absent"
      : cached === "untrusted"
        ? "untrusted"
        : data === undefined
          ? "mismatched"
          : script.cachedDataRejected
            ? "rejected"
            : "used";
  const module = { exports: {} as unknown };
  script.runInThisContext()(module.exports, createRequire(file), module, file, dirname(file), importFromHere);
  const announce = channel(codeCachedModuleChannel);
  if (announce.hasSubscribers) announce.publish({ file, cache });
  let saved = cache === "used";
  return {
    exports: module.exports,
    cache,
    saveCache() {
      if (saved) return;
      saved = true;
      const fresh = script.createCachedData();
      const temporary = `${cacheFile}.${process.pid}.tmp`;
      try {
        // Written aside and renamed: a reader sees the old cache or the new one, whole.
        // Writable by this user only, whatever the umask; a file already there (a link) is not followed.
        writeFileSync(temporary, Buffer.concat([magic, sourceHash, sha256(fresh), fresh]), { mode: 0o644, flag: "wx" });
        renameSync(temporary, cacheFile);
      } catch {
        // A read-only install, a full disk: the next run compiles from the source, as this one did.
        rmSync(temporary, { force: true });
      }
    },
  };
}

// What the file calls for a dynamic `import()` (the bundle step renames the calls): Node 20 runs a
// script's own `import()` only with --experimental-vm-modules, or with
// `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`, which prints an ExperimentalWarning. Resolved
// from this module, which sits in the same package (and in the bin, the same folder).
const importFromHere = (specifier: string) => import(specifier);
