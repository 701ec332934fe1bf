/**
 * The English stop words of every stage: articles, pronouns, auxiliaries, prepositions and
 * conjunctions, plus the words questions are made of ("how", "what", "does", "please"): a
 * corpus rarely contains them, and an unseen query term counts fully against the lexical
 * index's calibrated score, so a question phrased as a question would otherwise score lower
 * than the same words as a statement. Lower case; words are compared after normalisation.
 */
export const englishStopWords: ReadonlySet<string> = new Set(
  (
    "a about after all also am an and any are as at be because been before being between both but by " +
    "can cannot could did do does doing done during each for from further get got had has have having he her " +
    "here hers him his how i if in into is it its itself just let may me more most must my myself now of off on one " +
    "once only onto or other our ours out over own please s same shall she should so some such t tell " +
    "than that the their theirs them then there these they this those through to too under until us " +
    "use using very via was way we were what whatever when where whether which while who whom whose why will with " +
    "within without would yet you your yours"
  ).split(" "),
);

/**
 * The Chinese stop words of every stage: function characters (的, 了, 是, ...), question words
 * and sentence particles (如何, 什么, 吗, ...) and pronouns (我们, 这个, ...). A term that is one
 * of them says nothing about a topic; a longer word that contains one is kept.
 */
export const chineseStopWords: ReadonlySet<string> = new Set(
  (
    "的 了 是 在 和 与 或 及 等 把 被 之 也 就 都 而 吗 呢 吧 啊 着 过 么 请 " +
    "为什么 怎么样 什么 怎么 怎样 如何 哪些 哪个 哪里 是否 能否 可否 请问 可以 " +
    "我们 你们 他们 这个 那个 一个 没有 的话"
  ).split(" "),
);

/**
 * The Chinese stop words at which a run of CJK characters is cut before it becomes bigrams,
 * so that 限流插件如何配置 gives 限流 流插 插件 | 配置, not the bigrams 件如 and 何配 that
 * straddle 如何. Only words that hardly occur inside other words are listed, longest first.
 */
export const chineseQuestionWords: readonly string[] = [
  "为什么",
  "怎么样",
  "什么",
  "怎么",
  "怎样",
  "如何",
  "哪些",
  "哪个",
  "哪里",
  "是否",
  "能否",
  "可否",
  "请问",
  "吗",
  "呢",
  "吧",
];

/** Whether a normalised word is a stop word of English or Chinese. */
export function isStopWord(word: string): boolean {
  return englishStopWords.has(word) || chineseStopWords.has(word);
}
