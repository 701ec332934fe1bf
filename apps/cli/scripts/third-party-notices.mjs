// The notices of the third-party code a bundle copies (scripts/bundle-cli.mjs). Installed as
// packages, each ships its own licence file; copied into the CLI's bundle, their MIT, ISC,
// BlueOak and Apache-2.0 licences ask that their notice travels with the copy. So the bundle
// ships `THIRD-PARTY-NOTICES.txt` beside it: for each package it holds code of, its name,
// version, licence and repository, then the licence files the package ships, as they are.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const licenceFile = /^(licen[cs]e|copying|notice)(\.(md|txt|markdown))?$/i;

function repositoryOf(manifest) {
  const repository = typeof manifest.repository === "string" ? manifest.repository : manifest.repository?.url;
  return repository ?? manifest.homepage ?? "(none given)";
}

/**
 * The text of the notices for the packages at `roots` (their folders, each holding its
 * package.json), sorted by name. A package that ships no licence file is named with the licence
 * its package.json declares and where its source is, which holds the licence's text.
 */
export function thirdPartyNotices(roots) {
  const packages = [...new Set(roots)]
    .map((root) => ({ root, manifest: JSON.parse(readFileSync(join(root, "package.json"), "utf8")) }))
    .sort((a, b) => `${a.manifest.name}@${a.manifest.version}`.localeCompare(`${b.manifest.name}@${b.manifest.version}`));
  const sections = packages.map(({ root, manifest }) => {
    const files = readdirSync(root)
      .filter((name) => licenceFile.test(name))
      .sort();
    const heading = `${manifest.name}@${manifest.version}\nLicence: ${manifest.license ?? "(none declared)"}\nSource: ${repositoryOf(manifest)}\n`;
    const texts = files.map((name) => `\n--- ${name} ---\n${readFileSync(join(root, name), "utf8").trimEnd()}\n`);
    const missing = files.length === 0 ? `\nThe package ships no licence file: its licence, ${manifest.license}, is at its source.\n` : "";
    return `${heading}${texts.join("")}${missing}`;
  });
  const rule = `\n${"=".repeat(78)}\n\n`;
  return `The lookup-knowledge CLI's bundle (dist/bundle/) holds code of these packages, under their licences.\n${rule}${sections.join(rule)}`;
}
