/**
 * Characters that stress the analyser: ASCII of every kind (case changes, digits, the
 * `+ # _ - .` it treats specially, sentence punctuation, line breaks), letters with case
 * outside ASCII (Latin, Greek, Cyrillic, titlecase `ǅ`, `İ` whose lower case is longer,
 * Deseret `𐐀` outside the BMP), marks, full-width and compatibility forms NFKC folds
 * (`Ａ`, `ﬁ`, `①`, half-width katakana, mathematical `𝐀`), CJK of every script (with the
 * iteration and prolonged-sound marks, and a Han character outside the BMP), stop words,
 * invisible and control characters, lone surrogates, and emoji.
 */
const pieces = [
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
  ..."+#_-.!?;:,/\\'\"()[]{}<>@$%^&*=|~` \t\n\r",
  ..."éÉßẞçÇøØåÅæÆœŒıİǅǄǆΣσςΑαЖжЯя",
  "\u0301",
  "\u0308",
  "e\u0301",
  ..."ＡＢｃｄ１２ﬁﬂ①Ⅻｶｷｬｯｼｭﾞ",
  "𝐀",
  "𝐛",
  "𐐀",
  "𐐨",
  "𠀀",
  ..."的了是如何什么配置限流插件分布式集群数据库读写分离々〆ーひらがなカタカナ한국어정책",
  "。",
  "，",
  "\u200b",
  "\u200d",
  "\ufeff",
  "\u0000",
  "\u007f",
  "\u0085",
  "\ud800",
  "\udc00",
  "😀",
  "👍🏽",
  " the ",
  " how ",
  " getUserName ",
  " HTTPServer ",
  " X509Certificate ",
  " C++ ",
  " c# ",
  " rate_limit ",
  " node.js ",
  " IL-6 ",
  " TNF-alpha ",
  " policies ",
  " running ",
];

/** A small seeded generator (mulberry32), so every run checks the same strings. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * `count` strings of up to `maximumPieces` pieces each, drawn from `pieces` above, with now
 * and then a long run of one letter (over the 64-character word limit) or of random code
 * units (anything UTF-16 can hold).
 */
export function hostileStrings(count: number, maximumPieces: number, seed = 36): string[] {
  const random = seeded(seed);
  const strings: string[] = [];
  for (let index = 0; index < count; index += 1) {
    let text = "";
    const length = Math.floor(random() * maximumPieces);
    for (let piece = 0; piece < length; piece += 1) {
      const draw = random();
      if (draw < 0.01) text += "aB".repeat(20 + Math.floor(random() * 30));
      else if (draw < 0.03) text += String.fromCharCode(Math.floor(random() * 0x10000));
      else text += pieces[Math.floor(random() * pieces.length)];
    }
    strings.push(text);
  }
  return strings;
}
