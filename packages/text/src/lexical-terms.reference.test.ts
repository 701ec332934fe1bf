import { needsDatasets, skipWithoutDatasets } from "@lookup-knowledge/vitest-config";
import { describe, expect, it } from "vitest";
import { embeddingTerms } from "./embedding-terms.js";
import type { EmbeddingTerms } from "./embedding-terms.js";
import { lexicalTermIds, lexicalTerms } from "./lexical-terms.js";
import type { LexicalTermsOptions } from "./lexical-terms.js";
import type { CjkSegmentation } from "./segment-cjk.js";
import { splitWords, wordTokens } from "./split-words.js";
import type { SplitWordsOptions, TextToken } from "./split-words.js";
import { TermNumbering } from "./term-numbering.js";
import { datasetTexts, piecesOf } from "./test/dataset-texts.js";
import { hostileStrings } from "./test/hostile-strings.js";
import { referenceEmbeddingTerms } from "./test/reference/reference-embedding-terms.js";
import { referenceLexicalTerms } from "./test/reference/reference-lexical-terms.js";
import { referenceSplitWords, referenceWordTokens } from "./test/reference/reference-split-words.js";

/** Every option of the lexical view and of the splitter (`{}` for the defaults). */
const segmentations: (CjkSegmentation | undefined)[] = [undefined, "words", "bigrams", "words+bigrams"];
const splitOptions: SplitWordsOptions[] = [
  {},
  { caseChanges: true },
  { caseChanges: true, compounds: true },
  { compounds: true, wordSuffixes: false },
  { wordSuffixes: false },
];
/** On the datasets (large): the defaults, the other segmentations, and the splitter as the embedder and l0-hints use it. */
const datasetSegmentations: (CjkSegmentation | undefined)[] = [undefined, "bigrams", "words+bigrams"];
const datasetSplitOptions: SplitWordsOptions[] = [{}, { wordSuffixes: false }, { caseChanges: true, compounds: true }];

function sameStrings(left: readonly string[], right: readonly string[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) if (left[index] !== right[index]) return false;
  return true;
}

function sameTokens(left: readonly TextToken[], right: readonly TextToken[]): boolean {
  if (left.length !== right.length) return false;
  for (let index = 0; index < left.length; index += 1) {
    const [one, other] = [left[index] as TextToken, right[index] as TextToken];
    if (one.text !== other.text || one.kind !== other.kind || one.continuesPhrase !== other.continuesPhrase) return false;
    if (Object.keys(one).length !== 3) return false;
  }
  return true;
}

function sameEmbeddingTerms(left: EmbeddingTerms, right: EmbeddingTerms): boolean {
  return (
    sameStrings(left.words, right.words) &&
    sameStrings(left.cjkGrams, right.cjkGrams) &&
    sameStrings(left.cjkRuns, right.cjkRuns) &&
    left.continuesPhrase.length === right.continuesPhrase.length &&
    left.continuesPhrase.every((value, index) => value === right.continuesPhrase[index]) &&
    Object.keys(left).length === 4
  );
}

/** The texts (at most `limit` shown) whose analysis differs from the old implementation's. */
function differences<Analysis>(
  texts: readonly string[],
  analyse: (text: string) => Analysis,
  reference: (text: string) => Analysis,
  same: (left: Analysis, right: Analysis) => boolean,
  limit = 5,
): string[] {
  const different: string[] = [];
  for (const text of texts) {
    const actual = analyse(text);
    const expected = reference(text);
    if (!same(actual, expected) && different.length < limit) {
      different.push(
        `${JSON.stringify(text.slice(0, 200))}: ${JSON.stringify(actual).slice(0, 300)} != ${JSON.stringify(expected).slice(0, 300)}`,
      );
    }
  }
  return different;
}

/**
 * `lexicalTermIds` read back as terms, under two numberings taken in turns text after text (so
 * the word cache's remembered ids are of the other numbering half the time).
 */
function termsOfIds(options?: LexicalTermsOptions): (text: string) => string[] {
  const numberings = [new TermNumbering(), new TermNumbering()];
  let turn = 0;
  return (text) => {
    const numbering = numberings[turn++ % 2] as TermNumbering;
    return Array.from(lexicalTermIds(text, numbering, options), (id) => numbering.terms[id] as string);
  };
}

function checkAll(texts: readonly string[], cjkOptions = segmentations, splitWordsOptions = splitOptions): void {
  for (const cjk of cjkOptions) {
    const options = cjk === undefined ? undefined : { cjk };
    const name = `lexicalTerms ${JSON.stringify(options)}`;
    expect(
      differences(
        texts,
        (text) => lexicalTerms(text, options),
        (text) => referenceLexicalTerms(text, options),
        sameStrings,
      ),
      name,
    ).toEqual([]);
    expect(
      differences(texts, termsOfIds(options), (text) => referenceLexicalTerms(text, options), sameStrings),
      `${name} as ids`,
    ).toEqual([]);
  }
  for (const options of splitWordsOptions) {
    const name = `splitWords ${JSON.stringify(options)}`;
    expect(
      differences(
        texts,
        (text) => splitWords(text, options),
        (text) => referenceSplitWords(text, options),
        sameTokens,
      ),
      name,
    ).toEqual([]);
  }
  expect(differences(texts, wordTokens, referenceWordTokens, sameStrings), "wordTokens").toEqual([]);
  expect(differences(texts, embeddingTerms, referenceEmbeddingTerms, sameEmbeddingTerms), "embeddingTerms").toEqual([]);
}

describe("issue 36 item 4: the faster analyser gives exactly the old terms (lexicalTerms and lexicalTermIds, embeddingTerms, splitWords, wordTokens)", () => {
  it("on 5,000 random strings of hostile characters (case changes, NFKC forms, surrogates, CJK, long words)", () => {
    checkAll(hostileStrings(5_000, 40));
  });

  it("on the analyzerVersion sample and the README's examples", () => {
    checkAll([
      "How does APISIX's limit-count plugin use Redis? getUserName node.js C++ 如何配置分布式限流插件",
      "How do I configure the limit-count plugin?",
      "如何配置基于Redis集群的分布式限流",
      "getUserName",
      "",
    ]);
  });

  it.skipIf(skipWithoutDatasets)(
    needsDatasets("on the APISIX and ShardingSphere docs (en and zh) and SciFact, whole and in 1,000-character pieces"),
    () => {
      for (const { name, texts } of datasetTexts()) {
        expect(texts.length, name).toBeGreaterThan(150);
        // Chunks are pieces of pages: the default view on 1,000-character pieces too (SciFact's abstracts are that size already).
        if (name !== "scifact") {
          const pieces = texts.flatMap((text) => piecesOf(text, 1_000));
          expect(
            differences(
              pieces,
              (text) => lexicalTerms(text),
              (text) => referenceLexicalTerms(text),
              sameStrings,
            ),
            `${name}, pieces`,
          ).toEqual([]);
          expect(
            differences(pieces, termsOfIds(), (text) => referenceLexicalTerms(text), sameStrings),
            `${name}, pieces as ids`,
          ).toEqual([]);
        }
        checkAll(texts, datasetSegmentations, datasetSplitOptions);
      }
    },
    240_000,
  );
});
