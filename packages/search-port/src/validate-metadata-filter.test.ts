import { InvalidFilterError } from "@lookup-knowledge/core";
import { describe, expect, it } from "vitest";
import { validateMetadataFilter } from "./validate-metadata-filter.js";

function failure(input: unknown): InvalidFilterError {
  try {
    validateMetadataFilter(input);
  } catch (error) {
    if (InvalidFilterError.isInstance(error)) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be refused`);
}

describe("validateMetadataFilter", () => {
  it("accepts every operator, bare values and nested $and/$or", () => {
    const filter = {
      tenant: "acme",
      category: { $eq: "billing" },
      status: { $ne: "draft" },
      year: { $gte: 2020, $lt: 2030 },
      rank: { $gt: 0, $lte: 10 },
      tags: { $in: ["refund", 3, true] },
      region: { $nin: ["eu"] },
      archived: { $exists: false },
      $or: [{ public: true }, { $and: [{ team: "support" }, { level: { $lte: 2 } }] }],
      $and: [{ language: { $in: ["en", "ja"] } }],
    };
    expect(validateMetadataFilter(filter)).toEqual(filter);
  });

  it("accepts an empty filter", () => {
    expect(validateMetadataFilter({})).toEqual({});
  });

  it("returns a copy the caller cannot change afterwards", () => {
    const input = { tenant: { $in: ["acme"] } };
    const parsed = validateMetadataFilter(input);
    input.tenant.$in.push("intruder");
    expect(parsed).toEqual({ tenant: { $in: ["acme"] } });
  });

  it.each([
    [null, "(root)", /must be an object/],
    ["tenant=acme", "(root)", /must be an object/],
    [[{ tenant: "acme" }], "(root)", /must be an object/],
    [{ tenant: { $regex: "ac.*" } }, "tenant.$regex", /unknown operator "\$regex"/],
    [{ tenant: { $in: "acme" } }, "tenant.$in", /\$in needs an array/],
    [{ tenant: { $nin: 3 } }, "tenant.$nin", /\$nin needs an array/],
    [{ tenant: { $in: ["a", "b", null] } }, "tenant.$in[2]", /expected a string, a finite number or a boolean/],
    [{ year: { $gt: "2020" } }, "year.$gt", /\$gt needs a finite number/],
    [{ year: { $lte: Number.NaN } }, "year.$lte", /\$lte needs a finite number/],
    [{ year: Number.POSITIVE_INFINITY }, "year", /finite number/],
    [{ archived: { $exists: "yes" } }, "archived.$exists", /\$exists needs true or false/],
    [{ $where: "1 == 1" }, "$where", /field names may not start with "\$"/],
    [{ $or: [{ a: 1 }, "b"] }, "$or[1]", /must be an object/],
    [{ $or: [] }, "$or", /\$or needs a non-empty array of filters/],
    [{ $and: { a: 1 } }, "$and", /\$and needs a non-empty array of filters/],
    [{ $or: [{ $and: [{ team: { $eq: { name: "x" } } }] }] }, "$or[0].$and[0].team.$eq", /expected a string/],
    [{ tenant: {} }, "tenant", /needs at least one operator/],
    [{ tenant: undefined }, "tenant", /expected a string/],
    [{ tenant: ["a", "b"] }, "tenant", /use \{ \$in/],
    [{ author: { name: "x" } }, "author.name", /nested fields are not supported/],
    [{ "": "x" }, '""', /may not be empty/],
  ])("refuses %j at %s", (input, path, reason) => {
    const error = failure(input);
    expect(error.code).toBe("invalid_filter");
    expect(error.path).toBe(path);
    expect(error.message).toContain(`at ${path}:`);
    expect(error.message).toMatch(reason);
  });
});
