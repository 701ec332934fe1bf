/**
 * The version of the lexical view (`lexicalTerms` with its defaults). An index of terms
 * records it, and terms of another version are never compared with these: bump it whenever
 * any text gives other lexical terms than before (normaliser, splitter, stop words,
 * stemmer, CJK segmentation or dictionary). A test pins the terms of a sample text to it.
 */
export const analyzerVersion = "lookup-knowledge-text/1 (nfkc-lower, split-case, stop-en-zh, porter, cjk-words jieba-2.0.3)";
