import { describe, expect, it } from "vitest";
import { compareQuantifiers, compareQuantities, locatedQuantities, normaliseQuantity, numericQuantities, writtenQuantity } from "./numeric-cues";
import { MONTH_DAYS } from "../parse/value-vocabulary";

describe("numericQuantities", () => {
  it("reads numbers with their unit, clock times and percentages", () => {
    expect(numericQuantities("The limit is 1,000 requests at 2 a.m. for 40% of users")).toEqual([
      { value: 120, unit: "time" },
      { value: 1000, unit: "request" },
      { value: 40, unit: "%" },
    ]);
    expect(numericQuantities("at 02:00 and 14:30")).toEqual([
      { value: 120, unit: "time" },
      { value: 870, unit: "time" },
    ]);
    // A point for the colon is a clock time only with a.m. / p.m.: "7.30 kg" stays a decimal.
    expect(numericQuantities("Tours at 10.15am and 2.45 p.m.")).toEqual([
      { value: 615, unit: "time" },
      { value: 885, unit: "time" },
    ]);
    expect(numericQuantities("The parcel weighs 7.30 kg")).toEqual([{ value: 7.3, unit: "kg" }]);
    expect(numericQuantities("3.2x faster")).toEqual([{ value: 3.2, unit: "x" }]);
  });

  it("reads number words with a unit; a year is a date, not a count", () => {
    expect(numericQuantities("five minutes, 2024 members")).toEqual([{ value: 5, unit: "minut" }, { value: 2024, unit: "member" }]);
    expect(numericQuantities("five minutes in 2024")).toEqual([{ value: 5, unit: "minut" }, { value: 2024, unit: "year_ce" }]);
    expect(numericQuantities("ninety days")).toEqual([{ value: 90, unit: "dai" }]);
  });

  it("reads frequencies as events per day", () => {
    const perDay = (t: string) => numericQuantities(t).find((q) => q.unit === "per_day")?.value;
    expect(perDay("The tank is refilled every six hours.")).toBe(4);
    expect(perDay("Pills are taken every eight hours.")).toBe(3);
    expect(perDay("Pills are taken three times a day.")).toBe(3);
    expect(perDay("The choir meets weekly.")).toBeCloseTo(1 / 7);
    expect(perDay("The choir meets twice a week.")).toBeCloseTo(2 / 7);
    expect(perDay("The annual fee is due.")).toBeUndefined();
  });

  it("reads ranges and approximations as intervals", () => {
    expect(numericQuantities("it took 9 to 11 minutes")).toEqual([{ value: 10, unit: "minut", spread: 1 }]);
    expect(numericQuantities("about ten minutes")).toEqual([{ value: 10, unit: "minut", spread: 1.5 }]);
  });

  it("keeps a bound stated before the number", () => {
    expect(numericQuantities("within five minutes, after 8 a.m., at noon")).toEqual([
      { value: 480, unit: "time", bound: ">" },
      { value: 720, unit: "time" },
      { value: 5, unit: "minut", bound: "<" },
    ]);
  });
});

describe("compareQuantities", () => {
  it("matches the same quantity in another notation", () => {
    const c = compareQuantities("a snapshot at 02:00 each day", "Backups run at 2 a.m.");
    expect(c.matches).toEqual([{ value: 120, unit: "time" }]);
    expect(c.conflicts).toEqual([]);
  });

  it("finds a conflicting value of the same unit", () => {
    const c = compareQuantities("the limit is 1000 requests per minute", "The limit is 100 requests per minute.");
    expect(c.conflicts).toHaveLength(1);
    expect(c.matches).toEqual([]);
  });

  it("checks a value against a bound and a bound against a bound", () => {
    expect(compareQuantities("the run ends around 4:30", "The job finishes before 6 a.m.").matches).toHaveLength(1);
    expect(compareQuantities("the run regularly ends after 8 a.m.", "The job finishes before 6 a.m.").conflicts).toHaveLength(1);
    expect(compareQuantities("it loads in 1.2 seconds", "It loads in under two seconds.").matches).toHaveLength(1);
    expect(compareQuantities("it loads in under 3 seconds", "It loads in under two seconds.")).toMatchObject({ matches: [], conflicts: [], sameDimension: 1 });
  });

  it("compares frequencies and durations across units", () => {
    expect(compareQuantities("The tank is refilled daily.", "The tank is refilled every six hours.").conflicts).toHaveLength(1);
    expect(compareQuantities("Take one every eight hours.", "Take one three times a day.").matches).toHaveLength(1);
    expect(compareQuantities("The crossing takes sixty minutes.", "The crossing takes one hour.").matches).toHaveLength(1);
    expect(compareQuantities("The crossing takes an hour and a quarter.", "The crossing takes 40 minutes.").conflicts).toHaveLength(1);
    expect(compareQuantities("The club allows 30 guests per night.", "The club allows 60 guests per night.").conflicts).toHaveLength(1);
  });

  it("compares the year a claim is dated", () => {
    expect(compareQuantities("The bridge opened in 1874.", "The bridge opened in 1869.").conflicts).toHaveLength(1);
  });

  it("ignores quantities of other units", () => {
    const c = compareQuantities("the job took 30 seconds", "The limit is 100 requests per minute.");
    expect(c).toMatchObject({ matches: [], conflicts: [], sameDimension: 0 });
  });

  it("reads hyphenated amounts and unit spellings, and takes a value within 5 % as a measurement, not a conflict", () => {
    expect(numericQuantities("a three-day course")).toEqual([{ value: 3, unit: "dai" }]);
    expect(numericQuantities("after twenty-five laps")).toEqual([{ value: 25, unit: "lap", bound: ">" }]);
    expect(compareQuantities("The van weighs 2 kg more.", "The parcel limit is 2000 grams.").sameDimension).toBe(1);
    expect(compareQuantities("The trail measured 9.8 km on the GPS.", "The trail is 10 kilometres long.")).toMatchObject({ conflicts: [], sameDimension: 1 });
    expect(compareQuantities("The trail measured 6 km on the GPS.", "The trail is 10 kilometres long.").conflicts).toHaveLength(1);
  });
});

describe("compareQuantifiers", () => {
  it("finds a counterexample to a universal claim", () => {
    expect(compareQuantifiers("Not all deploys use main.", "All deploys use main.").counterexample).toBe(true);
  });

  it("finds a narrowing of a universal claim", () => {
    expect(compareQuantifiers("Deploys mostly use main.", "Every deploy uses main.")).toEqual({ counterexample: false, narrowing: true });
    expect(compareQuantifiers("Deploys mostly use main.", "Deploys usually use main.").narrowing).toBe(false);
  });
});

describe("quantities across wordings", () => {
  const q = (text: string) => numericQuantities(text).map((x) => normaliseQuantity(x));
  it("reads a unit after an article or a qualifier, ranges in words, and halves", () => {
    expect(q("The repair took a full fortnight.")).toEqual([{ value: 1209600, unit: "duration" }]);
    expect(q("Replies come within a month.")).toEqual([{ value: 2629746, unit: "duration", bound: "<" }]);
    expect(q("Orders ship in three or four weeks.")).toEqual([{ value: 3.5 * 604800, unit: "duration", spread: 0.5 * 604800 }]);
    expect(q("The audit takes two and a half hours.")).toEqual([{ value: 9000, unit: "duration" }]);
    expect(q("The trail is three hundred metres long.")).toEqual([{ value: 300, unit: "m:length" }]);
    // Five working days make a calendar week.
    expect(q("Refunds arrive within five working days.")).toEqual([{ value: 604800, unit: "duration", bound: "<" }]);
  });

  it("reads counted events per period, weekday routines and gaps between repeats as frequencies", () => {
    expect(numericQuantities("The gardener makes one visit a month.")).toEqual([{ value: 1 / MONTH_DAYS, unit: "per_day" }]);
    expect(numericQuantities("The choir sings on Tuesdays and Fridays.")).toEqual([{ value: 2 / 7, unit: "per_day" }]);
    expect(numericQuantities("The ferry sails at forty-minute intervals.")).toEqual([{ value: 36, unit: "per_day" }]);
    // Not an amount of time per day.
    expect(numericQuantities("She reads for 20 minutes a day.")[0]?.unit).not.toBe("per_day");
  });

  it("turns a bound around under a negator in the same clause, and reads 'after N days' as a point in time", () => {
    expect(numericQuantities("The queue never held more than forty jobs.")[0]?.bound).toBe("<");
    expect(numericQuantities("Not less than 3 people sign.")[0]?.bound).toBe(">");
    expect(numericQuantities("At least 3 people sign.")[0]?.bound).toBe(">");
    expect(numericQuantities("Drafts are purged after 30 days.")[0]?.bound).toBeUndefined();
  });

  it("tells a value inside a bound from one outside it, also across nouns", () => {
    expect(compareQuantities("The queue never held more than forty jobs.", "The queue holds at most 40 jobs.").withinBound).toBe(1);
    expect(compareQuantities("The parcel took a whole week.", "The courier delivers within three days.").outsideBound).toBe(1);
    const loose = compareQuantities("On launch day the farm ran 64 workers.", "The farm runs at most 16 machines.");
    expect(loose).toMatchObject({ looseConflicts: 1, looseOutsideBound: 1, conflicts: [] });
    expect(compareQuantities("On launch day the farm ran 12 workers.", "The farm runs at most 16 machines.").looseMatches).toBe(1);
  });

  it("treats calendar lengths as fuzzy and a period restated as a duration as a match", () => {
    expect(compareQuantities("Filters are swapped about every twelve weeks.", "Filters are changed every three months.").conflicts).toEqual([]);
    expect(compareQuantities("The nurse calls on a cycle of roughly forty days.", "The nurse calls every six weeks.").periodMatches).toBe(1);
  });

  it("marks a conflict whose value sits among none of the belief's words", () => {
    expect(compareQuantities("Uploads are split into chunks of 30 seconds.", "Backups are kept for 30 days.").unanchoredConflicts).toBe(1);
    expect(compareQuantities("Backups are kept for only 7 days now.", "Backups are kept for 30 days.").unanchoredConflicts).toBe(0);
  });
});

describe("hours in words", () => {
  it("reads 'N in the morning' and 'N at night' as clock times", () => {
    expect(numericQuantities("The gates open at six in the morning and shut at eleven at night.")).toEqual([
      { value: 360, unit: "time" },
      { value: 1380, unit: "time" },
    ]);
  });
});

describe("names and shares", () => {
  it("reads no quantity from a digit inside a name, and a share of a group in words as a percentage", () => {
    expect(numericQuantities("The v3 client sends 20 requests.")).toEqual([{ value: 20, unit: "request" }]);
    const [share] = numericQuantities("Barely a third of the stations reported.");
    expect(share).toMatchObject({ unit: "%" });
    expect(share?.value).toBeCloseTo(100 / 3);
  });
});

describe("numericQuantities: review fixes", () => {
  const perDay = (t: string) => numericQuantities(t).filter((q) => q.unit === "per_day");

  it("reads a count per period from the whole number, not a digit inside it", () => {
    expect(numericQuantities("The gateway accepts 2,500 calls per hour.")).toEqual([{ value: 60000, unit: "per_day" }]);
    expect(perDay("The calf drinks 2.5 buckets a day.")).toEqual([{ value: 2.5, unit: "per_day" }]);
  });

  it("keeps an amount per period (a price, a size) as an amount, not a count of events", () => {
    expect(numericQuantities("The locker rents for 12 dollars a week.")).toEqual([{ value: 12, unit: "dollar" }]);
    expect(numericQuantities("The card allows 8 GB a month.")).toEqual([{ value: 8, unit: "gb" }]);
    expect(perDay("The mill ships four loads a week.")[0]?.value).toBeCloseTo(4 / 7);
  });

  it("reads a gap as a period only from the quantity's own unit word, and keeps its offset and spread", () => {
    const [tram] = locatedQuantities("Trams pass at 12-minute intervals.");
    expect(tram).toMatchObject({ unit: "per_day", value: 120, at: 14 });
    // The unit word of another quantity is followed by "apart"; the 3 days stay a duration.
    expect(numericQuantities("The fair lasts 3 days; the stalls stand two metres apart.")).toContainEqual({ value: 3, unit: "dai" });
    const [ranged] = locatedQuantities("Checks come 4 to 6 days apart.");
    expect(ranged?.unit).toBe("per_day");
    expect(ranged?.spread).toBeGreaterThan(0);
    expect(numericQuantities("Trains run 0 minutes apart.").every((q) => Number.isFinite(q.value))).toBe(true);
  });

  it("gives a rate phrase no extra duration of one period", () => {
    expect(numericQuantities("She walks 30 minutes a day.")).toEqual([{ value: 30, unit: "minut" }]);
    expect(numericQuantities("The hotline runs 18 hours a day, 6 days a week.")).toEqual([
      { value: 18, unit: "hour" },
      { value: 6, unit: "dai" },
    ]);
    expect(numericQuantities("The repair took a single day.")).toEqual([{ value: 1, unit: "dai" }]);
    expect(numericQuantities("The repair took a day.")).toEqual([{ value: 1, unit: "dai" }]);
  });

  it("reads plural weekdays as a routine only after an opener", () => {
    expect(perDay("Thursdays are busy at the bakery.")).toEqual([]);
    expect(perDay("The bakery opens late on Thursdays and Saturdays.")[0]?.value).toBeCloseTo(2 / 7);
  });

  it("does not read a part of a period as a share", () => {
    expect(numericQuantities("Rain fell mostly in the second half of the season.").filter((q) => q.unit === "%")).toEqual([]);
    expect(numericQuantities("Half of the orchards flooded.")).toContainEqual({ value: 50, unit: "%", spread: 2.5 });
  });

  it("reads hours at night as small hours or late evening", () => {
    expect(numericQuantities("The alarm went off at twelve at night.")).toEqual([{ value: 0, unit: "time" }]);
    expect(numericQuantities("The alarm went off at three at night.")).toEqual([{ value: 180, unit: "time" }]);
    expect(numericQuantities("The alarm went off at eleven at night.")).toEqual([{ value: 1380, unit: "time" }]);
  });
});

describe("compareQuantities: anchoring on a long text", () => {
  it("finds the words near a conflicting value in a long text, and only those", () => {
    const filler = "The committee reviewed the report and agreed the agenda. ".repeat(200);
    const anchored = compareQuantities(`${filler}The dough rests for 15 minutes before baking. ${filler}`, "The dough rests for 40 minutes.");
    expect(anchored.conflicts).toHaveLength(1);
    expect(anchored.unanchoredConflicts).toBe(0);
    // The belief's words are in the text, but far from the value.
    const far = compareQuantities(`The dough is good. ${filler}The committee met for 15 minutes. ${filler}`, "The dough rests for 40 minutes.");
    expect(far.conflicts).toHaveLength(1);
    expect(far.unanchoredConflicts).toBe(1);
  });
});

describe("one unit table (./value-vocabulary)", () => {
  const q = (text: string) => numericQuantities(text).map((x) => normaliseQuantity(x));
  it("reads an amount with a currency symbol, code or name as one amount", () => {
    expect(q("The ticket costs £20.")).toEqual([{ value: 20, unit: "m:money:GBP" }]);
    expect(q("The ticket costs 20 pounds.")).toEqual([{ value: 20, unit: "m:money:GBP" }]);
    expect(q("The ticket costs GBP 20.")).toEqual([{ value: 20, unit: "m:money:GBP" }]);
    expect(compareQuantities("Entry is 20 pounds at the gate.", "Entry costs £20.").matches).toHaveLength(1);
    expect(compareQuantities("Entry is 35 pounds at the gate.", "Entry costs £20.").typedConflicts).toBe(1);
  });
  it("converts measures to their base unit and keeps a price per period an amount", () => {
    expect(compareQuantities("The bag weighs 1500 g.", "The bag weighs 1.5 kg.").matches).toHaveLength(1);
    expect(compareQuantities("The jug holds 750 ml.", "The jug holds 2 litres.").typedConflicts).toBe(1);
    expect(numericQuantities("The plan is $5 extra per month.").some((x) => x.unit === "per_day")).toBe(false);
    expect(numericQuantities("We use 3 gallons a day.").some((x) => x.unit === "per_day")).toBe(false);
  });
  it("reads the bound phrases of the one vocabulary", () => {
    expect(numericQuantities("Uploads are capped at 10 files.")).toEqual([{ value: 10, unit: "file", bound: "<" }]);
    expect(numericQuantities("Bring upwards of 30 chairs.")).toEqual([{ value: 30, unit: "chair", bound: ">" }]);
  });
});

describe("a fraction of a time unit", () => {
  const q = (text: string) => numericQuantities(text).map((x) => normaliseQuantity(x));
  it("reads 'a quarter of an hour' as 15 minutes, not as quarters nor as a share", () => {
    expect(q("The kettle switches itself off after a quarter of an hour.")).toEqual([{ value: 900, unit: "duration" }]);
    expect(q("The glaze sets within three quarters of an hour.")).toEqual([{ value: 2700, unit: "duration", bound: "<" }]);
    expect(compareQuantities("The lamp dims after a quarter of an hour.", "The lamp dims after 15 minutes.").conflicts).toHaveLength(0);
    // A share of a group stays a share.
    const share = q("A third of the tenants cycle to work.");
    expect(share.map((x) => x.unit)).toEqual(["%"]);
    expect(share[0]?.value).toBeCloseTo(100 / 3);
  });
});

describe("writtenQuantity: a conflict quoted in the words each text used", () => {
  const conflictOf = (evidence: string, belief: string) => {
    const c = compareQuantities(evidence, belief).conflicts[0];
    return c ? [writtenQuantity(evidence, c.evidence), writtenQuantity(belief, c.belief)] : null;
  };

  it("quotes each side as written, not in the normalised unit", () => {
    expect(conflictOf("The crawler was throttled at 30 pages per minute.", "The crawler fetches 90 pages per minute.")).toEqual(["30 pages per minute", "90 pages per minute"]);
    expect(conflictOf("The job actually runs every eight hours.", "The cleanup job runs daily.")).toEqual(["every eight hours", "daily"]);
  });

  it("keeps a thousands separator and stops at the next phrase", () => {
    expect(conflictOf("Each shard holds 2,500 documents on average.", "Each shard holds 250 documents at most times.")).toEqual(["2,500 documents", "250 documents"]);
  });

  it("without an offset, words the value in the largest unit that keeps it at least one", () => {
    expect(writtenQuantity("", { value: 72_000, unit: "per_day" })).toBe("50 per minute");
    expect(writtenQuantity("", { value: 7_200, unit: "duration" })).toBe("2 hours");
    expect(writtenQuantity("", { value: 0.5, unit: "per_day" })).toBe("3.5 per week");
    expect(writtenQuantity("", { value: 12, unit: "request" })).toBe("12 request");
  });
});
