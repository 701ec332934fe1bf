import { z } from "zod";

/** An option that takes a whole number from `min` to `max`; anything else is refused naming the range. */
export function integerFrom(min: number, max: number) {
  return z.custom<number>((value) => typeof value === "number" && Number.isInteger(value) && value >= min && value <= max, {
    error: `expected an integer from ${min} to ${max}`,
  });
}
