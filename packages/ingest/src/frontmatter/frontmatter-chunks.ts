import type { ChunkText } from "../chunking/chunk-blocks.js";
import type { FrontmatterFields } from "./read-frontmatter.js";
import { splitText } from "../chunking/split-text.js";

/**
 * The chunk text of a document whose body gives no chunk (a Hugo `_index.md` section page
 * with only `title` and `description`, a page whose body is only an `include` shortcode):
 * the frontmatter title and description, a blank line apart, under the breadcrumb
 * `title`, so the page can still be found. Cut at line, sentence or word boundaries when
 * longer than `maxChunkChars`. Empty when the frontmatter has neither field: such a file
 * has no content and is not a document.
 */
export function frontmatterChunks(
  fields: Pick<FrontmatterFields, "title" | "description">,
  title: string,
  maxChunkChars: number,
): ChunkText[] {
  const text = [fields.title, fields.description].filter((part) => part !== undefined).join("\n\n");
  if (text === "") return [];
  return splitText(text, maxChunkChars).map((content) => ({ breadcrumb: title, content }));
}
