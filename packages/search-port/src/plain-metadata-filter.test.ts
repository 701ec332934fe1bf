import { InvalidFilterError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { expectPlainMatchesSchema } from "./internal/test/plain-check-test-fixtures.js";
import { readPlainMetadataFilter } from "./plain-metadata-filter.js";
import { metadataFilterSchema, validateMetadataFilter } from "./validate-metadata-filter.js";

const readPlain = (filter: unknown) => readPlainMetadataFilter(filter);

describe("issue 36 item 5: a metadata filter read without zod", () => {
  it("issue 36 item 5: the plain checks read filters as the schema does (operators in its order) and accept nothing it refuses", () => {
    const filters = [
      { tenant: "acme" },
      { year: { $lt: 2030, $gte: 2020 }, rank: 3, public: true },
      { tags: { $nin: ["x"], $in: ["refund", 3, true] }, archived: { $exists: false }, status: { $ne: "draft", $eq: "live" } },
      { category: "billing", $or: [{ public: true }, { $and: [{ team: "support" }, { level: { $lte: 2, $gt: 0 } }] }], $and: [{ a: 1 }] },
    ];
    for (const filter of filters) expectPlainMatchesSchema(filter, readPlain, metadataFilterSchema());
  });

  it("issue 36 item 5: a filter is copied, not returned as given, by either path", () => {
    const filter = { tags: { $in: ["a"] }, $or: [{ b: 1 }] };
    const read = validateMetadataFilter(filter);
    expect(read).toEqual(filter);
    expect(read).not.toBe(filter);
    expect(read["tags"]).not.toBe(filter.tags);
    expect((read["tags"] as { $in: unknown[] }).$in).not.toBe(filter.tags.$in);
  });

  it("issue 36 item 5: what the plain checks leave to the schema is still refused with its message", () => {
    expect(readPlain({ tenant: undefined })).toBeUndefined();
    expect(() => validateMetadataFilter({ tenant: { $regex: "a" } })).toThrow(/\$regex/);
    expect(() => validateMetadataFilter({ $or: [] })).toThrow("$or needs a non-empty array of filters");
  });

  it("issue 36 item 5 (review): a filter or condition that inherits fields is left to the schema, which reads them, not read without them", () => {
    const inheritsTenant = Object.assign(Object.create({ tenant: "acme" }), { year: 2024 });
    const inheritsOperator = { status: Object.assign(Object.create({ $eq: "live" }), { $ne: "draft" }) };
    for (const filter of [inheritsTenant, inheritsOperator]) {
      expect(readPlain(filter)).toBeUndefined();
      expect(validateMetadataFilter(filter)).toEqual(metadataFilterSchema().parse(filter));
    }
    expect(validateMetadataFilter(inheritsTenant)).toEqual({ year: 2024, tenant: "acme" });
  });

  it("issue 36 item 5 (review): a list operand with holes is left to the schema, which refuses it, not read with undefined in it", () => {
    // biome-ignore lint/suspicious/noSparseArray: the hole is what is tested
    const holed = [, "a"];
    for (const filter of [{ tags: { $in: holed } }, { tags: { $nin: new Array(2) } }]) {
      expect(readPlain(filter)).toBeUndefined();
      expect(() => validateMetadataFilter(filter)).toThrow(InvalidFilterError);
    }
  });
});
