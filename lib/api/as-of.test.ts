import { describe, expect, it } from "vitest";
import { z } from "zod";
import { asOfFromQuery } from "./as-of";

const at = (value?: string) => asOfFromQuery(new URL(`http://x/api/v1/scopes/s/graph${value === undefined ? "" : `?asOf=${encodeURIComponent(value)}`}`));

describe("asOf query parameter", () => {
  it("accepts ISO dates and date-times and normalises them to UTC", () => {
    expect(at()).toBeUndefined();
    expect(at(" ")).toBeUndefined();
    expect(at("2026-11-29")).toBe("2026-11-29T00:00:00.000Z");
    expect(at("2026-11-29T10:00:00Z")).toBe("2026-11-29T10:00:00.000Z");
    expect(at("2026-11-29T10:00:00+02:00")).toBe("2026-11-29T08:00:00.000Z");
  });

  it("refuses what Date.parse would let through to the database, as a 422 field error on asOf", () => {
    for (const bad of ["0", ",QVLu?6Z!7", "yesterday", "2026-13-01", "2026-11-29T25:00:00Z", "1e9"]) {
      let error: unknown;
      try {
        at(bad);
      } catch (e) {
        error = e;
      }
      expect(error, bad).toBeInstanceOf(z.ZodError);
      expect((error as z.ZodError).issues[0]?.path).toEqual(["asOf"]);
    }
  });
});
