import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { numeralize } from "@/lib/reading/parse/slot-values";
import { anchorsRestatingAt, boundClash, clausesOf, FRAME_REST_MIN, OTHER_PREDICATE_CEILING, OTHER_PREDICATE_MAX, SAME_SUBJECT_MIN, sharedFrame, denegate, NEGATED_ON_ONE_SIDE, NEGATION_GAIN_MIN, negationGain, oneWordSwap, piecewise, readsAsRestatement, RESTATEMENT_ANCHORS, RESTATES, type RestatementReading, restatementReading, restatementScore, SHIPPED_LIMITS, slotClash, slotValues, structuralMismatch, substitution, swappedRoles } from "./restatement";

/** The restatement similarity of two statements' vectors: the one decision, `restatementScore`, of their reading. */
const restatementSimilarity = (...args: Parameters<typeof restatementReading>) => restatementScore(restatementReading(...args));

const unit = (...xs: number[]) => {
  const n = Math.hypot(...xs);
  return Float32Array.from(xs.map((x) => x / n));
};

describe("restatement similarity", () => {
  it("calibration is monotone, maps [0, 1] onto [0, 1] and keeps the anchors (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: -1, max: 1, noNaN: true }), fc.double({ min: -1, max: 1, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(piecewise(lo, RESTATEMENT_ANCHORS)).toBeLessThanOrEqual(piecewise(hi, RESTATEMENT_ANCHORS) + 1e-12);
      }),
    );
    for (const [x, y] of RESTATEMENT_ANCHORS) expect(piecewise(x, RESTATEMENT_ANCHORS)).toBeCloseTo(y, 12);
  });

  it("splits a two-part statement into clauses, and leaves a one-part one whole", () => {
    expect(clausesOf("Lunch is served at noon; the cafe closes at three in the afternoon.")).toEqual(["Lunch is served at noon", "the cafe closes at three in the afternoon"]);
    expect(clausesOf("The cafe closes at three.")).toEqual([]);
  });

  it("normalises pinned values across units, and finds clashes only when each side pins its own", () => {
    expect([...slotValues("ships within two days")]).toEqual([...slotValues("ships in under 48 hours")]);
    expect(slotValues("kept for a month")).toEqual(slotValues("kept for 30 days"));
    expect(slotValues("the tram leaves at 9.45pm")).toEqual(slotValues("the tram leaves at 21:45"));
    expect(slotValues("the tour takes three quarters of an hour")).toEqual(slotValues("the tour takes 45 minutes"));
    expect(slotClash("The tour takes a quarter of an hour.", "The tour takes three quarters of an hour.")).toBe(true);
    expect(slotClash("The job runs hourly.", "The job runs daily.")).toBe(true);
    expect(slotClash("Port 8443 is open.", "Port 9090 is open.")).toBe(true);
    expect(slotClash("The job runs nightly at 1 am.", "The job runs at one.")).toBe(false);
    expect(slotClash("The lunch break is long.", "The lunch break lasts 45 minutes.")).toBe(false);
  });

  it("a value clash keeps a near-identical pair below the restatement threshold; identical texts are 1", () => {
    const v = unit(1, 0.02, 0);
    const a = { text: "The report is due in 10 days.", whole: v, clauses: [] };
    const b = { text: "The report is due in 20 days.", whole: v, clauses: [] };
    expect(restatementSimilarity(a, b)).toBeLessThan(0.9);
    expect(restatementSimilarity(a, { ...a })).toBe(1);
  });

  it("a claim restating one clause of a two-clause statement counts as a restatement of it", () => {
    const x = unit(1, 0, 0);
    const y = unit(0, 1, 0);
    const whole = unit(1, 1, 0);
    const belief = { text: "A holds; B holds too.", whole, clauses: [x, y] };
    const claim = { text: "A holds.", whole: x, clauses: [] };
    expect(restatementSimilarity(belief, claim)).toBe(1);
  });
});

describe("structural checks for a restatement (numbers, negation, quantifiers, substitutions must agree)", () => {
  it("reads values across notations: frequencies, times of day, shares", () => {
    expect(slotValues("The scan runs every hour.")).toEqual(slotValues("The scan runs hourly."));
    expect(slotClash("The ferry leaves at 18:30.", "The ferry leaves at half past six in the evening.")).toBe(false);
    expect(slotClash("The ferry leaves at 18:30.", "The ferry leaves at 19:30.")).toBe(true);
    expect(slotClash("Half of the tickets are sold online.", "50% of the tickets are sold online.")).toBe(false);
    expect(slotClash("All of the tickets are sold online.", "Some of the tickets are sold online.")).toBe(true);
    expect(slotClash("The pump is serviced twice a year.", "The pump is serviced two times each year.")).toBe(false);
  });

  it("finds the swapped word in an otherwise identical frame, and not in a reordered paraphrase", () => {
    expect(substitution("The ferry is inspected by the harbour pilot.", "The ferry is steered by the harbour pilot.")).toEqual(["inspected", "steered"]);
    expect(substitution("The harbour pilot inspects the ferry.", "The ferry is inspected by the harbour pilot.")).toBeNull();
    expect(substitution("The ferry leaves from pier 3.", "The ferry still leaves from pier 3.")).toBeNull();
    expect(substitution("The ferry leaves after 30 days.", "The ferry leaves after a month.")).toBeNull();
  });

  it("names why two alike sentences differ, or nothing when they agree", () => {
    expect(structuralMismatch("Dogs are allowed on the ferry.", "Dogs are not allowed on the ferry.")).toMatch(/negated/);
    expect(structuralMismatch("Dogs are never allowed on deck.", "No dog is ever allowed on deck.")).toBeNull();
    expect(structuralMismatch("The café is open on Sundays.", "The café is closed on Sundays.")).toMatch(/antonym/);
    expect(structuralMismatch("The ferry runs hourly.", "The ferry runs daily.")).toMatch(/values/);
    expect(structuralMismatch("Old tickets are dropped after a year.", "Tickets older than a year get removed.")).toBeNull();
  });
});

describe("oneWordSwap", () => {
  it("finds one replaced word of any kind in an otherwise identical sentence", () => {
    expect(oneWordSwap("The heater is turned up at night.", "The heater is turned down at night.")).toEqual(["up", "down"]);
    expect(oneWordSwap("Tickets go on sale before the launch.", "Tickets go on sale after the launch.")).toEqual(["before", "after"]);
    expect(structuralMismatch("Tickets go on sale before the launch.", "Tickets go on sale after the launch.")).not.toBeNull();
  });
  it("ignores word forms, rewordings and short texts", () => {
    expect(oneWordSwap("The gate closes at dusk.", "The gate closed at dusk.")).toBeNull();
    expect(oneWordSwap("The gate closes at dusk.", "At dusk the gate is shut.")).toBeNull();
    expect(oneWordSwap("Gate shut.", "Gate open.")).toBeNull();
  });
});

describe("calendar lengths and counted frequencies", () => {
  it("four weeks are a month, twelve months or 52 weeks a year; other lengths stay as written", () => {
    expect(slotClash("The lease is reviewed every four weeks.", "The lease is reviewed monthly.")).toBe(false);
    expect(slotClash("The guarantee lasts 24 months.", "The guarantee lasts two years.")).toBe(false);
    expect(slotClash("Members renew every 52 weeks.", "Members renew once a year.")).toBe(false);
    expect(slotClash("The trial lasts three weeks.", "The trial lasts a month.")).toBe(true);
    expect(slotClash("The guarantee lasts 18 months.", "The guarantee lasts two years.")).toBe(true);
  });

  it("a counted frequency pins its period: 'four times an hour' is 'every 15 minutes', 'twice daily' is 'every 12 hours'", () => {
    expect(slotClash("The buoy reports its position four times an hour.", "The buoy reports its position every 15 minutes.")).toBe(false);
    expect(slotClash("The kettle is descaled twice daily.", "The kettle is descaled every 12 hours.")).toBe(false);
    expect(slotClash("The lambs are fed three times a day.", "The lambs are fed every eight hours.")).toBe(false);
    // The count and unit still read as before: two a day is still not two a week, nor three a day.
    expect(slotClash("The kettle is descaled twice daily.", "There are two descaling runs each day.")).toBe(false);
    expect(slotClash("The kettle is descaled twice a day.", "The kettle is descaled twice a week.")).toBe(true);
    expect(slotClash("The kettle is descaled twice a day.", "The kettle is descaled three times a day.")).toBe(true);
  });
});

describe("a one-sided negation is weighed by what the sentence says without it", () => {
  it("takes negations out, word by word", () => {
    expect(denegate("The gate cannot be opened and nobody has a key.")).toBe("The gate can be opened and somebody has a key.");
    expect(denegate("Pets don't ride without a ticket; no dogs on Sundays.")).toBe("Pets do ride with a ticket; dogs on Sundays.");
    expect(denegate("It is never late.")).toBe("It is late.");
  });

  it("the negation separates the two when taking it out brings them much closer, not when it barely moves them", () => {
    const other = { text: "The gate is locked at night.", whole: unit(1, 0, 0), clauses: [] };
    const negated = { text: "The gate is not left open at night.", whole: unit(1, 0.5, 0), clauses: [] };
    const base = 1 / Math.hypot(1, 0.5);
    // Without the "not" the sentence becomes the other one: the negation is the difference.
    expect(negationGain(other, negated, { b: unit(1, 0.01, 0) })).toBeGreaterThanOrEqual(NEGATION_GAIN_MIN);
    // Without it the sentence moves no closer: the negation is part of the wording ("not left open" = "locked").
    expect(negationGain(other, negated, { b: unit(1, 0.5 + 0.01, 0) })).toBeLessThan(NEGATION_GAIN_MIN);
    expect(1 - base).toBeGreaterThan(NEGATION_GAIN_MIN);
    // No negation-free vectors: no gain is read, and the structural reading stands (below).
    expect(negationGain(other, negated, undefined)).toBeUndefined();
    expect(structuralMismatch(other.text, negated.text)).toBe(NEGATED_ON_ONE_SIDE);
    const close = { ...negated, whole: unit(1, 0.05, 0) };
    expect(restatementSimilarity(other, close)).toBeLessThan(0.9);
    expect(restatementSimilarity(other, close, { b: unit(1, 0.05, 0) })).toBeGreaterThanOrEqual(0.9);
  });
});

describe("numbers in words, bounds and swapped roles", () => {
  it("reads written-out numerals as one number, and never adds numbers that English only lists", () => {
    const n = (t: string) => numeralize(t.split(" ")).join(" ");
    expect(n("six hundred and forty seats")).toBe("640 seats");
    expect(n("three and a half metres")).toBe("3.5 metres");
    expect(n("a dozen eggs")).toBe("12 eggs");
    expect(n("thirty two pages")).toBe("32 pages");
    expect(n("9 thousand runners")).toBe("9000 runners");
    expect(n("between three and nine")).toBe("between three and nine");
    expect(n("between 3 and 9")).toBe("between 3 and 9");
    expect(slotClash("The hall seats 640.", "The hall has room for six hundred and forty.")).toBe(false);
    expect(slotClash("The hall seats 640.", "The hall has room for six hundred.")).toBe(true);
    expect(slotClash("Keep it between 4 and 6 degrees.", "Keep it at 4 to 6 °C.")).toBe(false);
  });

  it("twice a year is every six months", () => {
    expect(slotClash("The boiler is serviced twice a year.", "The boiler is serviced every six months.")).toBe(false);
    expect(slotClash("The boiler is serviced three times a year.", "The boiler is serviced every four months.")).toBe(false);
    expect(slotClash("The boiler is serviced twice a year.", "The boiler is serviced every three months.")).toBe(true);
  });

  it("the same number bounded from opposite sides is a different claim", () => {
    expect(boundClash("No more than six guests per table.", "At least six guests per table.")).toBe(6);
    expect(boundClash("Loads of up to 40 kilos.", "Loads over 40 kilos.")).toBe(40);
    expect(boundClash("No more than six guests per table.", "Tables hold at most six guests.")).toBeNull();
    expect(structuralMismatch("Groups of no more than twelve may enter.", "Groups of at least twelve may enter.")).toMatch(/bounded from opposite sides/);
  });

  it("two words trading places swap the roles", () => {
    expect(swappedRoles("Lena coaches Omar on Fridays.", "Omar coaches Lena on Fridays.")).toEqual(["lena", "omar"]);
    expect(swappedRoles("The plan covers glasses but not lenses.", "The plan covers lenses but not glasses.")).toEqual(["glasses", "lenses"]);
    expect(swappedRoles("On Fridays Lena coaches Omar.", "Lena coaches Omar on Fridays.")).toBeNull();
    // Two pairs trading places at once, and a reordering that is no trade.
    expect(swappedRoles("Mix the flour into the butter, never the butter into the flour.", "Mix the butter into the flour, never the flour into the butter.")).toEqual(["flour", "butter"]);
    expect(swappedRoles("Lena coaches Omar and Omar thanks Lena.", "Omar coaches Lena and Lena thanks Omar.")).toEqual(["lena", "omar"]);
    expect(swappedRoles("In June the club hosts the regatta.", "The club hosts the regatta in June.")).toBeNull();
    // The swap is read before the negation: both sides negate, but not the same thing.
    expect(structuralMismatch("The plan covers glasses but not lenses.", "The plan covers lenses but not glasses.")).toMatch(/swap places/);
  });
});

describe("two different claims on one topic are not merged; agreeing values lower the bar", () => {
  it("names why same-topic near-misses differ", () => {
    expect(structuralMismatch("The sailing club meets every evening.", "The sailing club meets once a week.")).toMatch(/values/);
    expect(structuralMismatch("The hut is snowed in until May.", "The hut can be reached from March.")).toMatch(/month/);
    expect(structuralMismatch("The hut opens in late May.", "At the end of May the hut opens.")).toBeNull();
    expect(structuralMismatch("The pond is 12 metres deep.", "The pond is twelve feet deep.")).toMatch(/values/);
    expect(structuralMismatch("The tour is limited to ten guests.", "The tour needs at least ten guests.")).toMatch(/bounded/);
    expect(structuralMismatch("The junior editor reports to the copy chief.", "The copy chief reports to the junior editor.")).toMatch(/swap places/);
    expect(structuralMismatch("Mara lent the ladder to Theo.", "Mara borrowed the ladder from Theo.")).toMatch(/converse/);
    expect(structuralMismatch("Fares on the coastal line rose this spring.", "This spring the coastal line got cheaper.")).toMatch(/other way/);
    expect(structuralMismatch("Lab coats are required in the studio.", "Lab coats are optional in the studio.")).toMatch(/obligation/);
    expect(structuralMismatch("Invoices are signed by someone other than the treasurer.", "The treasurer signs the invoices.")).toMatch(/excluded/);
    expect(structuralMismatch("The market opens at seven every morning.", "The market opens at seven every Friday morning.")).not.toBeNull();
    expect(structuralMismatch("The samples are logged before the inspection.", "The samples are logged after the inspection.")).not.toBeNull();
  });

  it("leaves restatements of the same kinds alone", () => {
    expect(structuralMismatch("The sailing club meets every evening.", "Each night the sailing club gets together.")).toBeNull();
    expect(structuralMismatch("The pond is 12 metres deep.", "The pond reaches a depth of twelve metres.")).toBeNull();
    expect(structuralMismatch("The tour is limited to ten guests.", "No more than ten guests can join the tour.")).toBeNull();
    expect(structuralMismatch("Mara lent the ladder to Theo.", "Theo borrowed the ladder from Mara.")).toBeNull();
    expect(structuralMismatch("Fares on the coastal line rose this spring.", "This spring, coastal line fares increased.")).toBeNull();
  });

  it("with no mismatch and agreeing values a lower cosine restates; without them, or with a mismatch, it does not", () => {
    const v = (c: number) => ({ x: unit(1, 0, 0), y: unit(c, Math.sqrt(1 - c * c), 0) });
    const { x, y } = v(0.55);
    const agree = restatementSimilarity({ text: "The clinic opens at 8 a.m.", whole: x, clauses: [] }, { text: "Patients are seen from eight in the morning.", whole: y, clauses: [] });
    const plain = restatementSimilarity({ text: "The clinic opens early.", whole: x, clauses: [] }, { text: "Patients are seen from the start of the day.", whole: y, clauses: [] });
    const clash = restatementSimilarity({ text: "The clinic opens at 8 a.m.", whole: x, clauses: [] }, { text: "Patients are seen from nine in the morning.", whole: y, clauses: [] });
    expect(agree).toBeGreaterThanOrEqual(0.9);
    expect(plain).toBeLessThan(0.9);
    expect(clash).toBeLessThan(0.9);
  });
});

describe("two statements in one frame are judged by the parts they do not share", () => {
  it("finds the unshared parts when three or more words frame them, each part with two content words", () => {
    expect(sharedFrame("The night train stops at every station.", "The night train is run by a private firm.")).toEqual(["stops at every station", "is run by a private firm"]);
    expect(sharedFrame("The night train stops at every station.", "Every station is a stop for the night train.")).toBeNull();
    // A short rewording of one phrase is not read apart: a phrase's embedding reads it poorly.
    expect(sharedFrame("The course takes no more than twelve students.", "The course is capped at twelve students.")).toBeNull();
  });

  it("unshared parts that say different things make the pair no restatement", () => {
    const x = unit(1, 0, 0);
    const y = unit(0.8, 0.6, 0);
    const a = { text: "The night train stops at every station.", whole: x, clauses: [] };
    const b = { text: "The night train is run by a private firm.", whole: y, clauses: [] };
    expect(restatementSimilarity(a, b, undefined, null)).toBeGreaterThanOrEqual(0.9);
    expect(restatementSimilarity(a, b, undefined, null, FRAME_REST_MIN - 0.1)).toBeLessThan(0.9);
    expect(restatementSimilarity(a, b, undefined, null, FRAME_REST_MIN + 0.1)).toBeGreaterThanOrEqual(0.9);
  });
});

describe("the same subject with another claim is no restatement", () => {
  const pair = (c: number, a: string, b: string) => ({ a: { text: a, whole: unit(1, 0, 0), clauses: [] }, b: { text: b, whole: unit(c, Math.sqrt(1 - c * c), 0), clauses: [] } });

  it("a value left on one side needs a higher cosine than a pair without values", () => {
    const left = pair(0.66, "The ferry crosses the bay four times a day.", "Bicycles travel free on the bay ferry.");
    const plain = pair(0.66, "The ferry crosses the bay.", "Bicycles travel free on the bay ferry.");
    expect(restatementSimilarity(left.a, left.b)).toBeLessThan(0.9);
    expect(restatementSimilarity(plain.a, plain.b)).toBeGreaterThanOrEqual(0.9);
    // The "same subject" band is the plain one: the pair still reads as one topic.
    expect(restatementSimilarity(left.a, left.b)).toBeGreaterThanOrEqual(0.7);
    const restated = pair(0.95, "The ferry crosses the bay four times a day.", "Four times daily the ferry goes across the bay.");
    expect(restatementSimilarity(restated.a, restated.b)).toBeGreaterThanOrEqual(0.9);
  });

  it("alike subjects with unrelated predicates stay below 'restates' and within 'same subject'", () => {
    const { a, b } = pair(0.9, "The ferry crosses the bay every hour.", "The ferry is painted blue every spring.");
    const other = { subject: SAME_SUBJECT_MIN + 0.1, predicate: OTHER_PREDICATE_MAX - 0.1 };
    expect(restatementSimilarity(a, b, undefined, null)).toBeGreaterThanOrEqual(0.9);
    expect(restatementSimilarity(a, b, undefined, null, undefined, other)).toBe(OTHER_PREDICATE_CEILING);
    expect(restatementSimilarity(a, b, undefined, null, undefined, other)).toBeGreaterThanOrEqual(0.7);
    // Unlike subjects (a reordered paraphrase) or related predicates: the whole-sentence reading stands.
    expect(restatementSimilarity(a, b, undefined, null, undefined, { subject: SAME_SUBJECT_MIN - 0.1, predicate: 0 })).toBeGreaterThanOrEqual(0.9);
    expect(restatementSimilarity(a, b, undefined, null, undefined, { subject: 1, predicate: OTHER_PREDICATE_MAX + 0.1 })).toBeGreaterThanOrEqual(0.9);
  });
});

describe("a statement of two clauses restates a one-clause statement only through one of its clauses", () => {
  const at = (c: number) => unit(c, Math.sqrt(1 - c * c), 0);
  const single = { text: "The library lends e-readers to its members.", whole: unit(1, 0, 0), clauses: [] };

  it("a close whole without a close clause stays at 'same subject'", () => {
    const qualified = { text: "E-readers are lent to adult members; children borrow them only with a parent.", whole: at(0.8), clauses: [at(0.5), at(0.3)] };
    const similarity = restatementSimilarity(single, qualified, undefined, null);
    expect(similarity).toBeLessThan(0.9);
    expect(similarity).toBeGreaterThanOrEqual(0.7);
    expect(restatementSimilarity(qualified, single, undefined, null)).toBe(similarity);
  });

  it("a clause that restates the other side carries the pair", () => {
    const restating = { text: "Members can borrow e-readers from the library; the loan lasts three weeks.", whole: at(0.7), clauses: [at(0.9), at(0.2)] };
    expect(restatementSimilarity(single, restating, undefined, null)).toBeGreaterThanOrEqual(0.9);
  });
});

describe("one decision: a reading and the limits give the similarity", () => {
  const at = (c: number) => unit(c, Math.sqrt(1 - c * c), 0);
  const reading = (cosine: number, extra: Partial<RestatementReading> = {}): RestatementReading => ({ identical: false, cosine, mismatch: null, values: "plain", ...extra });

  it("a pair whose values agree is read with the agreeing anchors, and restates exactly when its score reaches RESTATES", () => {
    const a = { text: "The pool opens at 7 a.m.", whole: unit(1, 0, 0), clauses: [] };
    const b = { text: "Swimmers are let in from seven in the morning.", whole: at(0.6), clauses: [] };
    const r = restatementReading(a, b);
    expect(r.values).toBe("agree");
    expect(readsAsRestatement(r)).toBe(restatementScore(r) >= RESTATES);
  });

  it("the shipped limits keep the shipped anchors; moved limits keep the map increasing", () => {
    expect(anchorsRestatingAt(RESTATEMENT_ANCHORS, SHIPPED_LIMITS.plain)).toBe(RESTATEMENT_ANCHORS);
    for (const limit of [0.42, 0.54, 0.6, 0.72, 0.8]) {
      const anchors = anchorsRestatingAt(RESTATEMENT_ANCHORS, limit);
      for (let i = 1; i < anchors.length; i++) {
        expect((anchors[i] as readonly [number, number])[0]).toBeGreaterThan((anchors[i - 1] as readonly [number, number])[0]);
        expect((anchors[i] as readonly [number, number])[1]).toBeGreaterThan((anchors[i - 1] as readonly [number, number])[1]);
      }
    }
  });

  it("under any limits a plain reading restates exactly from its limit on (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.35, max: 0.95, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (limit, cosine) => {
        fc.pre(Math.abs(cosine - limit) > 1e-9);
        const limits = { ...SHIPPED_LIMITS, plain: limit, agree: limit, unmatched: limit };
        for (const values of ["plain", "agree", "unmatched"] as const) expect(readsAsRestatement(reading(cosine, { values }), limits)).toBe(cosine > limit);
      }),
    );
  });

  it("the frame and negation limits decide those signals; a clash or another predicate never restates", () => {
    expect(readsAsRestatement(reading(0.9, { frameRest: 0.3 }), { ...SHIPPED_LIMITS, frame: 0.25 })).toBe(true);
    expect(readsAsRestatement(reading(0.9, { frameRest: 0.3 }), { ...SHIPPED_LIMITS, frame: 0.35 })).toBe(false);
    const negated = reading(0.9, { mismatch: NEGATED_ON_ONE_SIDE, negationGain: 0.04 });
    expect(readsAsRestatement(negated, { ...SHIPPED_LIMITS, negation: 0.05 })).toBe(true);
    expect(readsAsRestatement(negated, { ...SHIPPED_LIMITS, negation: 0.03 })).toBe(false);
    expect(restatementScore(reading(0.99, { mismatch: "values differ" }))).toBeLessThan(RESTATES);
    expect(restatementScore(reading(0.99, { parts: { subject: 0.9, predicate: 0.1 } }))).toBe(OTHER_PREDICATE_CEILING);
    expect(restatementScore(reading(0.2, { identical: true }))).toBe(1);
  });
});
