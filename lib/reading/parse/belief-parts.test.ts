import { describe, expect, it } from "vitest";
import { beliefParts } from "./belief-parts";

describe("belief parts", () => {
  it("splits at the first auxiliary or modal after the first word", () => {
    expect(beliefParts("The night buses on the coast road are cancelled in storms.")).toEqual({ subject: "The night buses on the coast road", predicate: "are cancelled in storms" });
    expect(beliefParts("Visitors to the tower may bring small umbrellas.")).toEqual({ subject: "Visitors to the tower", predicate: "may bring small umbrellas" });
  });

  it("else at the first word that reads as an inflected verb, else at the middle", () => {
    expect(beliefParts("The village bakery sells rye loaves on Fridays.")).toEqual({ subject: "The village bakery", predicate: "sells rye loaves on Fridays" });
    expect(beliefParts("Night trains run late.")).toEqual({ subject: "Night trains", predicate: "run late" });
    expect(beliefParts("Too short")).toBeNull();
  });
});
