import { describe, expect, it } from "vitest";
import { antonymConflicts, changeCues } from "./negation-cues";

describe("changeCues: change of state from the grammar of change", () => {
  it("reads adverbs of a new state, verbs of transition and new or amended frames", () => {
    expect(changeCues("The ferry no longer stops at the island.")).toContain("no longer");
    expect(changeCues("The library now opens at ten.")).toContain("now");
    expect(changeCues("The choir switched to Thursday rehearsals.")).toContain("switched");
    expect(changeCues("Ines stepped down as treasurer.")).toContain("stepped down");
    expect(changeCues("Under the revised statute the fee is 40 euros.")).toContain("revised statute");
    expect(changeCues("Fares are higher after last year's fare reform.")).toHaveLength(1);
  });

  it("does not read a hand-out, a turn-out or an errand as a change", () => {
    expect(changeCues("Maps were handed out at the gate.")).toEqual([]);
    expect(changeCues("The forecast turned out right and the crowd turned up early.")).toEqual([]);
    expect(changeCues("I dropped off two coats at the tailor on Friday.")).toEqual([]);
    expect(changeCues("Ridership dropped off after the fare rise.")).toContain("dropped");
    expect(changeCues("The coach dropped the early session.")).toContain("dropped");
    expect(changeCues("Mo handed over the keys in May.")).toContain("handed over");
  });

  it("does not read an onset, a plain report or a 'right now' as a change", () => {
    expect(changeCues("Crashes have piled up since Tuesday.")).toEqual([]);
    expect(changeCues("The choir rehearses on Thursday.")).toEqual([]);
    expect(changeCues("Call the clinic right now.")).toEqual([]);
  });
});

describe("antonymConflicts", () => {
  it("finds table antonyms and prefix negations", () => {
    expect(antonymConflicts("The package is insecure.", "The package is secure.")).toEqual(["secure/insecure"]);
    expect(antonymConflicts("The build is unstable.", "The build is stable.")).toContain("stable/unstable");
    expect(antonymConflicts("Backups are unavailable.", "Backups are available.")).toContain("available/unavailable");
  });

  it("finds nothing when the evidence repeats the belief word", () => {
    expect(antonymConflicts("Secure, not insecure.", "The package is secure.")).toEqual([]);
  });
});

describe("change frames and bounds", () => {
  it("reads a new, revised or amended frame after since / under as a change, whatever it is called", () => {
    expect(changeCues("Since the new timetable, the ferry leaves at noon.")).toContain("since the new timetable");
    expect(changeCues("Under the revised bylaws, members vote online.")).toContain("under the revised bylaws");
    expect(changeCues("Since Monday the ferry has been busy.")).toEqual([]);
  });

});
