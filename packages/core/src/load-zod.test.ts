import { describe, expect, it } from "vitest";
import { loadZod, schemaOnDemand } from "./load-zod.js";

describe("schemaOnDemand", () => {
  it("issue 36 item 5: builds the schema at its first use, once, with zod", () => {
    let builds = 0;
    const schema = schemaOnDemand((z) => {
      builds += 1;
      return z.number().int();
    });
    expect(builds).toBe(0);
    expect(schema().safeParse(3).success).toBe(true);
    expect(schema().safeParse(1.5).success).toBe(false);
    expect(builds).toBe(1);
    expect(loadZod()).toBe(loadZod());
  });
});
