import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { installWithoutPeers } from "@lookup-knowledge/vitest-config/install-without-peers";
import { afterAll, describe, expect, it } from "vitest";
import { jiebaVersion, loadJiebaClass } from "./load-jieba.js";

const packageFolder = fileURLToPath(new URL("../", import.meta.url));
const manifest = JSON.parse(readFileSync(join(packageFolder, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

describe("jieba, only when CJK text is cut (issue 35 item 5: pay for what you use)", () => {
  const root = mkdtempSync(join(tmpdir(), "text-without-jieba-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("@node-rs/jieba is an optional peer dependency at the version the install command names, and no dependency", () => {
    expect(manifest.dependencies["@node-rs/jieba"]).toBeUndefined();
    expect(manifest.peerDependenciesMeta["@node-rs/jieba"]?.optional).toBe(true);
    expect(manifest.peerDependencies["@node-rs/jieba"]?.replace(/^\^/, "")).toBe(jiebaVersion);
  });

  it("loads where it is installed (the workspace)", () => {
    expect(typeof loadJiebaClass().withDict).toBe("function");
  });

  it("installed without it: English text is analysed, and the first CJK text is a clear error naming the package and its install command", async () => {
    // The package as a user who left jieba out gets it: copied (a link would find the
    // workspace's jieba from its real path), with only stemmer beside it.
    installWithoutPeers({ root, packageFolder, copied: ["dist"], linked: ["stemmer"] });
    const script = join(root, "analyse.mjs");
    writeFileSync(
      script,
      [
        'import { cjkWords, lexicalTerms } from "@lookup-knowledge/text";',
        'const english = lexicalTerms("Rotating the webhook secrets");',
        "const failure = (work) => { try { return { words: work() }; } catch (error) { return { name: error.name, code: error.code, packageName: error.packageName, message: error.message, marked: error[Symbol.for('lookup-knowledge.error')] === true, retryable: error.retryable }; } };",
        'console.log(JSON.stringify({ english, chinese: failure(() => lexicalTerms("如何轮换密钥")), words: failure(() => cjkWords("负载均衡")) }));',
      ].join("\n"),
    );
    // pnpm's bin shims set NODE_PATH to the workspace's hoisted packages; a user's install has none.
    const { NODE_PATH: _hoisted, ...environment } = process.env;
    const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: root, env: environment });
    const { english, chinese, words } = JSON.parse(stdout) as {
      english: string[];
      chinese: Record<string, unknown>;
      words: Record<string, unknown>;
    };
    expect(english).toEqual(["rotat", "webhook", "secret"]);
    for (const failure of [chinese, words]) {
      // Marked as the library's errors are (LookupKnowledgeError.isInstance): a lookup reports its code.
      expect(failure).toMatchObject({
        name: "MissingJiebaError",
        code: "jieba_missing",
        packageName: "@node-rs/jieba",
        marked: true,
        retryable: false,
      });
      expect(failure["message"]).toContain(`which is not installed: run \`npm install @node-rs/jieba@${jiebaVersion}\``);
    }
  });
});
