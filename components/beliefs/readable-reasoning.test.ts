import { describe, expect, it } from "vitest";
import { readableReasoning } from "./readable-reasoning";

describe("readableReasoning", () => {
  it("shows the words the stems came from", () => {
    const texts = ["We deploy daily from main.", "Deploys go out every day; daily checks pass."];
    expect(readableReasoning('Heuristic: the evidence shares "deploi", "daili", "main" with the belief.', texts)).toBe('Heuristic: the evidence shares "deploy", "daily", "main" with the belief.');
  });

  it("leaves unknown tokens and unquoted text alone", () => {
    expect(readableReasoning('shares "zzz" and deploi', ["We deploy."])).toBe('shares "zzz" and deploi');
  });
});
