import { describe, expect, it } from "vitest";
import { stemWord } from "./stem-word.js";

describe("stemWord", () => {
  it("Porter-stems words of ASCII letters so inflections meet", () => {
    expect(stemWord("processing")).toBe(stemWord("processed"));
    expect(stemWord("policies")).toBe(stemWord("policy"));
    expect(stemWord("webhooks")).toBe("webhook");
  });

  it("leaves words with digits or other scripts alone", () => {
    expect(stemWord("v20s")).toBe("v20s");
    expect(stemWord("straßen")).toBe("straßen");
  });
});
