import { describe, expect, it } from "vitest";
import { antonymConflicts, changeCues, continuityCues, effectDirection, equalityAgainstComparison, negationCues } from "./negation-cues";

describe("negationCues", () => {
  it("finds explicit negators, contractions included", () => {
    expect(negationCues("Pushing to main never ships anything.").negations).toEqual(["never"]);
    expect(negationCues("The job didn't run.").negations).toEqual(["didnt"]);
  });

  it("ignores idioms that do not negate", () => {
    expect(negationCues("It is not only fast but cheap, no doubt.").negations).toEqual([]);
  });

  it("finds implicit reversals", () => {
    expect(negationCues("The swelling was unchanged after the cream.").reversals).toContain("unchanged");
    expect(negationCues("The discount disappeared in spring.").reversals).toContain("disappeared");
  });
});

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

  it("reads continuity separately", () => {
    expect(continuityCues("The ferry still stops at the island.")).toEqual(["still"]);
  });
});

describe("effectDirection", () => {
  it("reads increases and decreases", () => {
    expect(effectDirection("Conversion increased.")).toBeGreaterThan(0);
    expect(effectDirection("Engineers merged 18% fewer pull requests.")).toBeLessThan(0);
  });

  it("reads a from-to pair of numbers", () => {
    expect(effectDirection("Median load went from 1.8 s to 0.6 s.")).toBeLessThan(0);
    expect(effectDirection("Signups went from 10 to 30 a day.")).toBeGreaterThan(0);
  });

  it("flips on a negative-valence noun unless it is remedied", () => {
    expect(effectDirection("The audit found a higher rate of unpatched vulnerabilities.")).toBeLessThan(0);
    expect(effectDirection("They patched vulnerabilities faster.")).toBeGreaterThan(0);
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

  it("does not read 'up to' as a direction of effect", () => {
    expect(effectDirection("The ferry carries up to forty cars.")).toBe(0);
  });
});

describe("equalityAgainstComparison: the evidence finds equal what the belief says differs", () => {
  it("reads an equality of the compared sides against a comparison", () => {
    expect(equalityAgainstComparison("In our trial both glues held exactly the same weight.", "Epoxy holds more weight than wood glue.")).toBe("the same");
    expect(equalityAgainstComparison("The two routes took equally long on every run.", "The coast road is quicker than the motorway.")).toBe("equally");
    expect(equalityAgainstComparison("The cheap kettle boiled just as fast as the expensive one.", "Expensive kettles boil water faster than cheap ones.")).toBe("just as");
  });

  it("stays silent without a comparison in the belief, or when the belief itself states an equality", () => {
    expect(equalityAgainstComparison("Both glues held the same weight.", "Epoxy sets in five minutes.")).toBeNull();
    expect(equalityAgainstComparison("Both glues held the same weight.", "Epoxy holds the same weight as wood glue, no more.")).toBeNull();
    expect(equalityAgainstComparison("Epoxy held twice the weight in our trial.", "Epoxy holds more weight than wood glue.")).toBeNull();
  });
});
