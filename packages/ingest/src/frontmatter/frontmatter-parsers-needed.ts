import { boundNesting } from "../markdown/bound-nesting.js";
import { readFrontmatterBlock } from "./read-frontmatter-block.js";
import { readSimpleYaml } from "./read-simple-yaml.js";

/**
 * Whether parsing `text` may need the YAML or TOML parser (`loadFrontmatterParsers`): false
 * only when its frontmatter is read without them for certain: no frontmatter, JSON, or YAML
 * that `readSimpleYaml` reads. It looks at the frontmatter block the parse reads (the text
 * without its BOM, nesting bounded; shortcode flattening never touches the frontmatter).
 * Loading the parsers costs 25-60 ms of a cold process; most documents never need them.
 */
export function frontmatterParsersNeeded(text: string): boolean {
  const block = readFrontmatterBlock(boundNesting(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text));
  if (block === undefined || block.format === "json") return false;
  return block.format === "toml" || readSimpleYaml(block.value) === undefined;
}
