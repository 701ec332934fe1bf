import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { libsqlSearchPortOptionsSchema } from "./libsql-search-port-options.js";
import type { LibsqlSearchPortOptions } from "./libsql-search-port-options.js";
import { openLibsqlSearchPort } from "./open-libsql-search-port.js";

const embeddings = { embedQuery: async () => [1, 0], embedDocuments: async (texts: string[]) => texts.map(() => [1, 0]) };

describe("libsqlSearchPortOptionsSchema", () => {
  it("takes exactly the documented options: its input type is LibsqlSearchPortOptions, property by property (a new, dropped or retyped option fails the type check)", () => {
    expectTypeOf<LibsqlSearchPortOptions>().toEqualTypeOf<z.input<typeof libsqlSearchPortOptionsSchema>>();
  });

  it("fills in the table", () => {
    expect(libsqlSearchPortOptionsSchema.parse({ url: ":memory:", embeddings })).toEqual({ url: ":memory:", table: "vectors", embeddings });
  });

  it("refuses a bad option naming it, and an authToken that is not a string without showing it", async () => {
    await expect(openLibsqlSearchPort({ url: ":memory:", embeddings, table: "my table" })).rejects.toMatchObject({ key: "table" });
    await expect(openLibsqlSearchPort({ url: " ", embeddings })).rejects.toMatchObject({ key: "url" });
    const error: unknown = await openLibsqlSearchPort({ url: ":memory:", embeddings, authToken: 123456789 as never }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ name: "ConfigurationError", key: "authToken" });
    expect(String((error as Error).message)).not.toContain("123456789");
  });
});
