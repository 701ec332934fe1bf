// The browser the inspector's browser tests drive: Debian's Chromium through playwright-core.
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { describe } from "vitest";

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it), or LOOKUP_KNOWLEDGE_CHROMIUM. */
export const chromiumPath = process.env["LOOKUP_KNOWLEDGE_CHROMIUM"] ?? "/usr/bin/chromium";
export const hasChromium = existsSync(chromiumPath);
if (!hasChromium && process.env["CI"]) {
  throw new Error(`The inspector's browser tests need Chromium at ${chromiumPath} in CI (apt-get install -y chromium).`);
}

/**
 * The suite to register browser tests with: it runs when Chromium is there, skips with a
 * "skipped: ..." name outside CI when it is not (in CI a missing Chromium fails above), so a
 * browser test never silently stops running.
 */
export function browserSuite(name: string): { suite: typeof describe.skip; suiteName: string } {
  return hasChromium
    ? { suite: describe, suiteName: name }
    : { suite: describe.skip, suiteName: `${name} (skipped: no Chromium at ${chromiumPath}; apt-get install -y chromium)` };
}

/** Chromium with the flags measured on our machines (no sandbox in containers, no GPU, no calls home). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update"],
  });
}

/** Review item 5: every Content-Security-Policy violation the page reports, as events and as console errors. */
export async function watchPolicy(page: Page, violations: string[]): Promise<void> {
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("__reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    // Runs in the page (this file is typed without the DOM library).
    const page = globalThis as unknown as {
      addEventListener(type: string, listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
      __reportViolation(text: string): void;
    };
    page.addEventListener("securitypolicyviolation", (event) =>
      page.__reportViolation(`${event.violatedDirective} blocked ${event.blockedURI}`),
    );
  });
}
