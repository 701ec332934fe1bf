// Issue 36 item 5: every lookup reads its port's hits; zod's modules and a schema's first parse
// cost more than a short process's search. A plainly valid hit is read here to the values
// `normalizeHits`'s schema gives; anything else goes to the schema, which reads it or refuses
// it with its reason (normalize-hits.test.ts holds the two side by side).

/** The fields of a hit as `normalizeHits` reads them. */
export interface ReadHit {
  id: string | undefined;
  content: string;
  score: number | undefined;
  answerability: { score: number; model: string; signals: Record<string, number> } | undefined;
  metadata: Record<string, unknown>;
}

const modelName = /^[\w.@-]{1,80}$/;
const signalName = /^[A-Za-z][A-Za-z0-9_]{0,39}$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * An object the schema's `z.record` reads as it is: a plain object (a class instance is not
 * a record to zod) without symbol keys (zod refuses them as keys), and no own `__proto__`.
 */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value) || Object.hasOwn(value, "__proto__")) return false;
  const prototype = Object.getPrototypeOf(value);
  return (prototype === Object.prototype || prototype === null) && Object.getOwnPropertySymbols(value).length === 0;
}

function readAnswerability(value: Record<string, unknown>, maxSignals: number): ReadHit["answerability"] | null {
  const { score, model, signals } = value;
  if (typeof score !== "number" || !(score >= 0 && score <= 1)) return null;
  if (typeof model !== "string" || !modelName.test(model)) return null;
  if (!isPlainRecord(signals)) return null;
  const entries = Object.entries(signals);
  if (entries.length > maxSignals) return null;
  for (const [name, weight] of entries) if (!signalName.test(name) || typeof weight !== "number" || !Number.isFinite(weight)) return null;
  return { score, model, signals: Object.fromEntries(entries) as Record<string, number> };
}

/**
 * A hit's fields when it is plainly valid (content a non-blank string, score absent or in
 * 0..1, metadata a plain object, a judgement absent or well formed), else null: the schema reads it.
 */
export function readPlainHit(hit: unknown, readId: (value: unknown) => string | undefined, maxSignals: number): ReadHit | null {
  if (!isPlainObject(hit)) return null;
  const { content, score, answerability, metadata } = hit;
  if (typeof content !== "string" || content.trim() === "") return null;
  if (score !== undefined && !(typeof score === "number" && score >= 0 && score <= 1)) return null;
  if (!isPlainRecord(metadata)) return null;
  let judgement: ReadHit["answerability"];
  if (answerability !== undefined) {
    if (!isPlainObject(answerability)) return null;
    const read = readAnswerability(answerability, maxSignals);
    if (read === null) return null;
    judgement = read;
  }
  return { id: readId(hit["id"]), content, score, answerability: judgement, metadata: { ...metadata } };
}
