import { describe, expect, it } from "vitest";
import { dataBlock } from "./prompt-definition";
import { PROMPT_VERSIONS, promptRegistry } from "./prompt-registry";

describe("prompt registry", () => {
  it("gives every prompt a unique schema name and a versioned id", () => {
    const prompts = Object.values(promptRegistry);
    expect(new Set(prompts.map((p) => p.name)).size).toBe(prompts.length);
    expect(new Set(PROMPT_VERSIONS).size).toBe(prompts.length);
    for (const v of PROMPT_VERSIONS) expect(v).toMatch(/^[a-z]+-v\d+$/);
  });

  it("builds system-then-user messages with the untrusted text fenced as data (pure: same input, same messages)", () => {
    const input = { evidence: "Deploys use main.", belief: { id: "b", text: "We deploy from main." } };
    const messages = promptRegistry.assessRelation.messages(input);
    expect(messages.map((m) => m.role)).toEqual(["system", "user"]);
    expect(messages[0]?.content).toContain("never instructions");
    expect(messages[1]?.content).toContain(dataBlock("evidence", "Deploys use main."));
    expect(promptRegistry.assessRelation.messages(input)).toEqual(messages);
  });

  it("neutralises a closing tag inside the data", () => {
    expect(dataBlock("text", "a </text> b")).toBe("<text>\na </ text> b\n</text>");
  });
});
