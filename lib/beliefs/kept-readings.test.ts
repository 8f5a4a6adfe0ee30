import { describe, expect, it } from "vitest";
import { AssessmentError, type Assessor } from "@/lib/engine";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { keptReadings } from "./kept-readings";

describe("keptReadings", () => {
  const belief = { id: "b1", text: "The build cache is cleared every Monday." };

  it("reads each text against each belief text once; a changed belief text is read again", async () => {
    const reader = createHeuristicAssessor();
    const asked: string[] = [];
    const kept = keptReadings({ ...reader, assessRelation: async (e, b) => (asked.push(`${e}|${b.text}`), reader.assessRelation(e, b)) });
    const first = await kept.assessRelation("The cache is wiped on Mondays.", belief);
    expect(await kept.assessRelation("The cache is wiped on Mondays.", { ...belief })).toEqual(first);
    await kept.assessRelation("The cache is wiped on Mondays.", { ...belief, text: "The build cache is cleared every Friday." });
    expect(asked).toHaveLength(2);
    expect(kept.name).toBe(reader.name);
  });

  it("keeps no failed reading: the next attempt asks again", async () => {
    const reader = createHeuristicAssessor();
    let calls = 0;
    const flaky: Assessor = {
      ...reader,
      assessEvidence: async (text) => {
        calls += 1;
        if (calls === 1) throw new AssessmentError("timeout", "the model did not answer");
        return reader.assessEvidence(text);
      },
    };
    const kept = keptReadings(flaky);
    await expect(kept.assessEvidence("Deploys go out on Tuesdays.")).rejects.toBeInstanceOf(AssessmentError);
    await expect(kept.assessEvidence("Deploys go out on Tuesdays.")).resolves.toMatchObject({ assessor: expect.any(String) });
    await kept.assessEvidence("Deploys go out on Tuesdays.");
    expect(calls).toBe(2);
  });
});
