import { z } from "zod";
import { describe, expect, it } from "vitest";
import { lockOwnerOf } from "./lock-owner.js";

// The schema the owner file was read with before (issue 36 item 6 replaced it with plain checks).
const formerSchema = z.object({ pid: z.number().int().positive(), hostname: z.string(), acquiredAt: z.string() });

const owner = { pid: 4242, hostname: "build-1", acquiredAt: "2026-12-07T15:00:00.000Z" };
const values: unknown[] = [
  owner,
  { ...owner, extra: true },
  { ...owner, pid: 1 },
  { ...owner, pid: 0 },
  { ...owner, pid: -3 },
  { ...owner, pid: 1.5 },
  { ...owner, pid: Number.MAX_SAFE_INTEGER + 2 },
  { ...owner, pid: Number.NaN },
  { ...owner, pid: "4242" },
  { ...owner, hostname: 7 },
  { ...owner, hostname: "" },
  { ...owner, acquiredAt: null },
  { pid: 4242, hostname: "build-1" },
  {},
  [],
  null,
  "owner",
  42,
];

describe("lockOwnerOf", () => {
  it.each(values)("issue 36 item 6: %o reads as the former schema read it", (value) => {
    const parsed = formerSchema.safeParse(value);
    expect(lockOwnerOf(value)).toEqual(parsed.success ? parsed.data : undefined);
  });
});
