import { describe, expect, it } from "vitest";
import { contextCues, contextTags, refersBack } from "./context-cues";

const kinds = (text: string) => contextCues(text).map((c) => c.kind);

describe("contextCues", () => {
  it("finds restrictive scopes and names them", () => {
    expect(contextCues("That only holds for the internal tools repository.")[0]).toMatchObject({ strong: true });
    expect(contextTags("That only holds for the internal tools repository.")).toContain("internal tools repository");
    expect(kinds("The benefit appears mainly in small teams.")).toContain("restrictive");
  });

  it("finds exemptions and populations that were not studied", () => {
    expect(kinds("Enterprise plans are exempt from this limit.")).toContain("exception");
    expect(kinds("Older adults were not studied.")).toContain("not_studied");
  });

  it("finds subgroups: for team X, in the X repo, for the Tokyo office", () => {
    expect(contextTags("This is the rule for team Phoenix.")).toContain("team phoenix");
    expect(contextTags("Deploys differ in the production repo.")).toContain("production repo");
    expect(contextTags("For the Tokyo office the backups run later.")).toContain("tokyo office");
  });

  it("does not read 'in the office' or a study description as a scope", () => {
    expect(contextCues("Engineers in the office merged more.")).toEqual([]);
    expect(contextCues("In a twelve-week trial, runners improved.")).toEqual([]);
    expect(contextCues("For example, deploys use main.")).toEqual([]);
  });

  it("finds scopes that hold for a part, and groups narrowed by a postmodifier", () => {
    expect(kinds("Weekend opening applies only during the summer months.")).toContain("holds_for");
    expect(contextTags("The fee is waived for members over seventy.")).toContain("members over seventy");
    expect(kinds("Glass bottles are the exception.")).toContain("exception");
  });

  it("does not read a scope inside a comparison's baseline", () => {
    expect(contextCues("Cyclists commuted faster than drivers in the city centre.")).toEqual([]);
  });

  it("finds a leading scope phrase and conditional strength", () => {
    expect(kinds("In regions where power comes from coal, the advantage shrinks.")).toContain("leading_scope");
    expect(kinds("The effect is weaker when demand is driven by supply shocks.")).toContain("conditional_strength");
    expect(kinds("Its dashboard is a separate application.")).toContain("separate_part");
  });

  it("marks dates and time zones as weak cues", () => {
    const cues = contextCues("Times are in UTC as of March 2024.");
    expect(cues.map((c) => [c.kind, c.strong])).toEqual([
      ["frame_of_reference", false],
      ["date", false],
    ]);
  });
});

describe("refersBack", () => {
  it("recognises a text that points back at the claim", () => {
    expect(refersBack("It only applies to admins.")).toBe(true);
    expect(refersBack("The effect was measured in adults.")).toBe(true);
    expect(refersBack("Enterprise plans are exempt from this limit.")).toBe(true);
    expect(refersBack("The cafeteria serves soup.")).toBe(false);
  });
});

describe("scope frames and verbs of restriction", () => {
  it("reads a verb of restriction with the scope it names", () => {
    expect(contextCues("Parking is reserved for electric vehicles.")[0]).toMatchObject({ kind: "restrictive", tag: "electric vehicles", strong: true });
  });

  it("reads a leading condition as a scope, strong with a comma and weak without", () => {
    expect(contextCues("When the river is high, the ferry stops.").find((c) => c.kind === "leading_scope")).toMatchObject({ scope: "river is high", strong: true });
    expect(contextCues("On rainy days the ferry stops.").find((c) => c.kind === "leading_scope")).toMatchObject({ scope: "rainy days", strong: false });
  });

  it("does not read an observer's report, an event order, an instance or a span as a scope", () => {
    expect(kinds("When we checked, the ferry had stopped.")).not.toContain("leading_scope");
    expect(kinds("After the storm passed, the ferry stopped.")).not.toContain("leading_scope");
    expect(kinds("On a calm day the ferry crossed in ten minutes.")).not.toContain("leading_scope");
    expect(kinds("In a week, the ferry will stop.")).not.toContain("leading_scope");
  });

  it("dates bound a claim only with until / as of, not when they date an observation", () => {
    expect(kinds("The ferry ran until March 2020.")).toContain("date");
    expect(kinds("We took the ferry in March.")).not.toContain("date");
  });
});

describe("a subject narrowed to a subset", () => {
  it("reads a relative clause, a participle or a postmodifier before the verb", () => {
    expect(kinds("Members who joined before spring pay half.")).toContain("restricted_subject");
    expect(kinds("Parcels sent by sea take longer.")).toContain("restricted_subject");
    expect(kinds("Tenants with pets need a larger deposit.")).toContain("restricted_subject");
  });
  it("does not read a plain clause or a passive main verb as one", () => {
    expect(kinds("The report is printed on Fridays.")).not.toContain("restricted_subject");
    expect(kinds("Our builds always pass.")).not.toContain("restricted_subject");
  });
  it("reads 'holds at' and an 'Over …' frame as scopes", () => {
    expect(kinds("The rule holds at the head office; branches set their own.")).toContain("holds_for");
    expect(kinds("Over the winter holidays the gym opens late.")).toContain("leading_scope");
  });
});
