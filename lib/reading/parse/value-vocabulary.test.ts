import { describe, expect, it } from "vitest";
import { stemWord } from "./tokenize";
import {
  boundSide,
  FRACTION_OF_UNIT,
  fractionOfUnitMinutes,
  CALENDAR_DAYS,
  CALENDAR_MINUTES,
  CALENDAR_NEAR_TOLERANCE,
  CALENDAR_SAME_TOLERANCE,
  COUNT_ADVERBS,
  currencyAfterAmount,
  currencyOf,
  FREQUENCY_ADVERBS,
  fractionShare,
  hourOfDay,
  LOWER_BOUND_PHRASES,
  MONTH_ABBREVIATIONS,
  MONTH_DAYS,
  MONTH_OR_ABBREVIATION_ALT,
  MONTHS,
  numberFromWord,
  phraseAlternation,
  season,
  TIME_UNITS,
  toBase,
  unitOf,
  unitOfStem,
  UPPER_BOUND_PHRASES,
} from "./value-vocabulary";

describe("value vocabulary: numbers and fractions", () => {
  it("reads digits, thousands separators, decimal commas and written-out numbers", () => {
    expect(numberFromWord("1,250")).toBe(1250);
    expect(numberFromWord("3.75")).toBe(3.75);
    expect(numberFromWord("2,5", [], true)).toBe(2.5);
    expect(numberFromWord("seventeen")).toBe(17);
    expect(numberFromWord("sixty-two")).toBe(62);
    expect(numberFromWord("twice")).toBeUndefined();
    expect(numberFromWord("twice", [COUNT_ADVERBS])).toBe(2);
    expect(numberFromWord("v8")).toBeUndefined();
  });
  it("reads fractions in words as shares in percent", () => {
    expect(fractionShare("half")).toBe(50);
    expect(fractionShare("a fifth")).toBe(20);
    expect(fractionShare("two thirds")).toBeCloseTo(66.67, 2);
    expect(fractionShare("three quarters")).toBe(75);
    expect(fractionShare("one tenth")).toBe(10);
    expect(fractionShare("a thirds")).toBeUndefined();
    expect(fractionShare("five quarters")).toBeUndefined();
  });

  it("reads a fraction of one time unit as a length in minutes", () => {
    const phrases = [..."rinse for a third of a minute, then rest for three quarters of an hour".matchAll(new RegExp(FRACTION_OF_UNIT, "g"))];
    expect(phrases.map((m) => m.slice(1))).toEqual([["a third", "minute"], ["three quarters", "hour"]]);
    expect(fractionOfUnitMinutes("three quarters", "hour")).toBe(45);
    expect(fractionOfUnitMinutes("half", "day")).toBe(720);
    expect(fractionOfUnitMinutes("a third", "minute")).toBeCloseTo(1 / 3, 6);
    expect(fractionOfUnitMinutes("a quarter", "parsec")).toBeUndefined();
  });
});

describe("value vocabulary: bounds", () => {
  it("tells the side of each bound phrase, and matches the longest first", () => {
    expect(boundSide("no more than")).toBe("upper");
    expect(boundSide("up to")).toBe("upper");
    expect(boundSide("under")).toBe("upper");
    expect(boundSide("capped at")).toBe("upper");
    expect(boundSide("at least")).toBe("lower");
    expect(boundSide("upwards of")).toBe("lower");
    expect(boundSide("no later than")).toBe("upper");
    expect(boundSide("after")).toBe("lower");
    expect(boundSide("around")).toBeUndefined();
    const re = new RegExp(`\\b(${phraseAlternation([...UPPER_BOUND_PHRASES, ...LOWER_BOUND_PHRASES])})\\s+\\d`);
    expect(re.exec("seats for no fewer than 40 guests")?.[1]).toBe("no fewer than");
    expect(re.exec("a queue of not more than 6 cars")?.[1]).toBe("not more than");
  });
});

describe("value vocabulary: units", () => {
  it("reads '£20', '20 pounds' and 'GBP 20' as one amount", () => {
    const symbol = toBase(20, "£");
    expect(symbol).toEqual({ value: 20, dimension: "money:GBP" });
    expect(toBase(20, "pounds")).toEqual(symbol);
    expect(toBase(20, "GBP")).toEqual(symbol);
    expect(toBase(2000, "pence")).toEqual(symbol);
    expect(currencyOf("€")).toBe("money:EUR");
    expect(currencyAfterAmount("a fee of £20 or GBP 25, or €3.50")).toBe("a fee of  20 gbp  or  25 gbp , or  3.50 eur ");
    expect(currencyAfterAmount("the usd20 line")).toBe("the usd20 line");
  });
  it("converts measures to one base unit per dimension", () => {
    expect(toBase(1.5, "kg")).toEqual(toBase(1500, "g"));
    expect(toBase(2, "kilometres")?.value).toBe(toBase(2000, "metres")?.value);
    expect(toBase(3, "feet")?.value).toBeCloseTo(toBase(1, "yard")?.value ?? 0, 9);
    expect(toBase(12, "inches")?.dimension).toBe("length");
    expect(toBase(250, "ml")).toEqual(toBase(0.25, "litres"));
    expect(toBase(2, "GB")).toEqual(toBase(2000, "megabytes"));
    expect(toBase(40, "percent")).toEqual({ value: 40, dimension: "%" });
    expect(toBase(90, "minutes")).toEqual(toBase(1.5, "hours"));
    expect(toBase(3, "apples")).toBeUndefined();
  });
  it("finds a unit by its stem as well as its spelling, with no stem naming two units", () => {
    expect(unitOfStem(stemWord("kilometres"))).toEqual(unitOf("km"));
    expect(unitOfStem(stemWord("pence"))).toEqual({ dimension: "money:GBP", factor: 0.01 });
    expect(unitOfStem(stemWord("days"))?.factor).toBe(86_400);
    const words = ["metres", "meters", "kilograms", "litres", "liters", "gallons", "calories", "euros", "dollars", "bytes", "watts", "degrees"];
    for (const w of words) expect(unitOfStem(stemWord(w))).toEqual(unitOf(w));
    for (const w of Object.keys(TIME_UNITS)) expect(unitOfStem(stemWord(w))?.dimension).toBe("duration");
  });
});

describe("value vocabulary: calendar", () => {
  it("gives 'twice a day' the period of 'every 12 hours', and a month its measured and its coded length", () => {
    const day = (CALENDAR_DAYS[FREQUENCY_ADVERBS.daily as string] as number) * 86_400;
    expect(day / 2).toBe(12 * (TIME_UNITS.hour as number));
    expect(MONTH_DAYS).toBeCloseTo(30.44, 2);
    expect(12 * MONTH_DAYS).toBeCloseTo(CALENDAR_DAYS.year as number, 9);
    expect(TIME_UNITS.month).toBeCloseTo(MONTH_DAYS * 86_400, 6);
    expect(CALENDAR_MINUTES.month).toBe(30 * 1440);
    expect(CALENDAR_MINUTES.week).toBe((CALENDAR_DAYS.week as number) * 1440);
    expect(FREQUENCY_ADVERBS.monthly).toBe("month");
  });
  it("takes weeks said as months as one coded length for a restatement, and keeps eleven months from a year", () => {
    const within = (tolerance: number) => (a: number, b: number) => Math.abs(a - b) <= tolerance * Math.max(a, b);
    const month = CALENDAR_MINUTES.month as number;
    const week = CALENDAR_MINUTES.week as number;
    const same = within(CALENDAR_SAME_TOLERANCE);
    expect(same(6 * week, 1.5 * month)).toBe(true);
    expect(same(7 * week, 1.5 * month)).toBe(false);
    expect(same(11 * month, CALENDAR_MINUTES.year as number)).toBe(false);
    const near = within(CALENDAR_NEAR_TOLERANCE);
    expect(near(28, MONTH_DAYS)).toBe(true);
    expect(near(84, 3 * MONTH_DAYS)).toBe(true);
    expect(near(5 * MONTH_DAYS, 6 * MONTH_DAYS)).toBe(false);
  });
  it("reads seasons in one spelling and hours with a part of the day", () => {
    expect(season("fall")).toBe("autumn");
    expect(season("Winters")).toBe("winter");
    expect(season("noon")).toBeUndefined();
    expect(hourOfDay(7, "morning")).toBe(7);
    expect(hourOfDay(12, "am")).toBe(0);
    expect(hourOfDay(10, "pm")).toBe(22);
    expect(hourOfDay(2, "night")).toBe(2);
    expect(hourOfDay(11, "night")).toBe(23);
    expect(hourOfDay(13, "evening")).toBeUndefined();
  });
});

describe("value vocabulary: month names", () => {
  it("reads a month by its name or its usual abbreviation, the whole word only", () => {
    const month = new RegExp(`^(?:${MONTH_OR_ABBREVIATION_ALT})$`, "i");
    for (const m of ["January", "Jan", "Sept", "sep", "September", "jun", "May"]) expect(month.test(m)).toBe(true);
    for (const w of ["janu", "septe", "ma", "decade"]) expect(month.test(w)).toBe(false);
    expect(Object.values(MONTH_ABBREVIATIONS).every((m) => MONTHS.includes(m))).toBe(true);
  });
});
