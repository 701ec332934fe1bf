/**
 * English function words left out of the lexical index and of queries. Besides articles,
 * pronouns, auxiliaries and prepositions it holds the words questions are made of ("how",
 * "what", "does", "please"): a corpus rarely contains them, and an unseen query term counts
 * fully against the calibrated score (see `bm25-scorer.ts`), so a question phrased as a
 * question would otherwise score lower than the same words as a statement.
 */
export const englishStopWords: ReadonlySet<string> = new Set(
  (
    "a about am an and any are as at be been being but by can could did do does doing done " +
    "for from had has have having he her here hers him his how i if in into is it its itself " +
    "let me my myself of on onto or our ours please s shall she should so some such t tell than " +
    "that the their theirs them then there these they this those through to too us was we were " +
    "what whatever when where whether which while who whom whose why will with would you your yours"
  ).split(" "),
);

/**
 * Chinese function characters left out when they stand alone as a term (a run of one
 * character). Longer runs that contain them are kept.
 */
export const chineseStopWords: ReadonlySet<string> = new Set(
  "的 了 是 在 和 与 或 及 等 把 被 之 也 就 都 而 吗 呢 吧 啊 着 过 么 请".split(" "),
);

/**
 * Question words and sentence particles at which a run of Chinese characters is cut before
 * it becomes bigrams, so that "限流插件如何配置" gives 限流 流插 插件 | 配置, not the
 * bigrams 件如 and 何配 that straddle them. They carry no topic, and bigrams across them
 * are seldom in any index, so they would count against the calibrated score as unseen
 * terms. Only words that hardly occur inside other words are listed.
 */
export const chineseQuestionWords: readonly string[] = [
  "为什么", "怎么样", "什么", "怎么", "怎样", "如何", "哪些", "哪个", "哪里", "是否", "能否", "可否", "请问", "吗", "呢", "吧",
];
