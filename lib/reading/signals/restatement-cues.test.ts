import { describe, expect, it } from "vitest";
import {
  agentSwap,
  allValues,
  boundAgainstEstimate,
  boundOnOneSide,
  converseWithSameSubject,
  countedNounSwap,
  directionClash,
  durationRoleClash,
  eventOrderFlip,
  exclusionClash,
  extraValues,
  focusMoved,
  inclusionClash,
  limitClash,
  modalClash,
  narrowingInsert,
  negatedBound,
  occasionAgainstHabit,
  onlyRestatedByNegation,
  participantSwap,
  phraseRolesSwapped,
  relationFlip,
  seasonOnOneSide,
  valueClash,
  valueOnOneSide,
  valuesAgree,
  voiceFlipWithSameSubject,
  weekdayOnOneSide,
} from "./restatement-cues";
import { structuralMismatch } from "../restatement";

describe("values beyond slot-values", () => {
  it("reads day parts, weekdays and 'each new' periods after 'every' as frequencies", () => {
    expect(extraValues("The ferry sails every evening.")).toContain("d1440");
    expect(valueClash("The ferry sails every evening.", "Each night the ferry departs.")).toBeNull();
    expect(valueClash("The ferry sails every evening.", "The ferry sails once a week.")).not.toBeNull();
    expect(extraValues("Each new month starts with a stock count.")).toContain("d43200");
    expect(valueClash("Choir practice is every Tuesday.", "Choir practice is every month.")).not.toBeNull();
  });

  it("counts occurrences in a period: 'two evenings a week' is every 3.5 days, like 'twice a week'", () => {
    expect(valueClash("The club meets twice a week.", "Members get together on two evenings each week.")).toBeNull();
    expect(valueClash("The club meets twice a week.", "Members get together on two evenings each month.")).not.toBeNull();
  });

  it("every other / second period doubles it", () => {
    expect(valueClash("The flat is inspected every other month.", "Every two months the flat is checked.")).toBeNull();
    expect(valueClash("The flat is inspected every other month.", "The flat is inspected every month.")).not.toBeNull();
  });

  it("measures compare in a base unit; the same number in another unit clashes", () => {
    expect(valueClash("The lake is 30 metres deep.", "The lake is 30 feet deep.")).not.toBeNull();
    expect(valueClash("The trail is 2 km long.", "The trail is two kilometres long.")).toBeNull();
    expect(valueClash("The trail is 2 km long.", "The trail is 2,000 metres long.")).toBeNull();
    expect(valueClash("Tickets cost twelve euros.", "A ticket is €12.")).toBeNull();
    expect(valueClash("Tickets cost twelve euros.", "Tickets cost twelve dollars.")).not.toBeNull();
  });

  it("fractions and ratios of a group are shares", () => {
    expect(valueClash("A quarter of the crew are volunteers.", "25% of the crew are volunteers.")).toBeNull();
    expect(valueClash("A quarter of the crew are volunteers.", "A third of the crew are volunteers.")).not.toBeNull();
    expect(allValues("One in four riders wears a helmet.")).toContain("p25");
    expect(valueClash("Most of the riders are amateurs.", "Only a handful of the riders are amateurs.")).not.toBeNull();
  });

  it("seasons are values; a year and an era, an ordinal and a duration are not in the same slot", () => {
    expect(valueClash("The creek floods every spring.", "The creek floods every autumn.")).not.toBeNull();
    expect(valueClash("The mill has been closed since 1962.", "The mill has been shut since the last decade of the old century.")).toBeNull();
    expect(valueClash("Grades come out in the first week after term ends.", "Grades come out within a week of term ending.")).toBeNull();
    // A year against another year still clashes, and a large count is not a year.
    expect(valueClash("The mill closed in 1962.", "The mill closed in 1972.")).not.toBeNull();
    expect(valueClash("The list has 1,500 names.", "The list has fifteen thousand names.")).not.toBeNull();
  });

  it("values agree when one side's values are all among the other's, and more than 'all' / 'some' is shared", () => {
    expect(valuesAgree("The clinic opens at 8 a.m.", "Patients are seen from eight in the morning.")).toBe(true);
    expect(valuesAgree("All members vote.", "Every member has a vote.")).toBe(false);
    expect(valuesAgree("The clinic opens at 8 a.m.", "The clinic opens at 9 a.m.")).toBe(false);
    expect(valuesAgree("The clinic opens early.", "The clinic opens at 8 a.m.")).toBe(false);
  });
});

describe("bounds written as limits", () => {
  it("a limit is an upper bound, 'or more' a lower one", () => {
    expect(limitClash("The workshop is limited to twelve people.", "The workshop needs at least twelve people.")).toBe(12);
    expect(limitClash("The workshop is capped at twelve people.", "The workshop runs with twelve people or more.")).toBe(12);
    expect(limitClash("The workshop is limited to twelve people.", "No more than twelve people can join the workshop.")).toBeNull();
  });
});

describe("roles, direction, modality, exclusion, narrowing, relation anchors", () => {
  it("finds two phrases trading places around the same verb, but not a passive restatement", () => {
    expect(phraseRolesSwapped("The night nurse reports to the ward manager.", "The ward manager reports to the night nurse.")).toBe("report");
    expect(phraseRolesSwapped("The head chef trains the new cooks.", "New cooks are trained by the head chef.")).toBeNull();
    expect(phraseRolesSwapped("The head chef trains the new cooks.", "The head chef trains the new cooks every week.")).toBeNull();
  });

  it("a converse verb keeps the relation only when the ends swap", () => {
    expect(converseWithSameSubject("Ravi sold his bike to Lena.", "Ravi bought his bike from Lena.")).toBe("sold/bought");
    expect(converseWithSameSubject("Ravi sold his bike to Lena.", "Lena bought Ravi's bike from him.")).toBeNull();
  });

  it("the same thing moving the other way is a different claim; the same direction in other words is not", () => {
    expect(directionClash("Rents in the district rose last year.", "Last year renting in the district got cheaper.")).not.toBeNull();
    expect(directionClash("Rents in the district rose last year.", "Last year rents in the district went up.")).toBeNull();
    expect(directionClash("The orchard produced twice as many apples.", "The orchard's apple harvest halved.")).not.toBeNull();
    expect(directionClash("The orchard produced twice as many apples.", "Apple yield in the orchard doubled.")).toBeNull();
  });

  it("an obligation, a recommendation and a permission are three claims", () => {
    expect(modalClash("Helmets are required on the wall.", "Helmets are recommended on the wall.")).toBe(true);
    expect(modalClash("Guests must register at the desk.", "Guests may register at the desk if they wish.")).toBe(true);
    expect(modalClash("Guests must register at the desk.", "Every guest has to register at the desk.")).toBe(false);
    // Negated modals are left to the negation check.
    expect(modalClash("Guests must not smoke.", "Guests can smoke on the terrace.")).toBe(false);
  });

  it("a word excluded on one side and named as it is on the other", () => {
    expect(exclusionClash("Refunds are approved by someone other than the cashier.", "The cashier approves refunds.")).toBe("cashier");
    expect(exclusionClash("Parcels go to the depot, not the shop.", "Parcels are delivered to the shop.")).toBe("shop");
    expect(exclusionClash("Parcels go to the depot, not the shop.", "Parcels are delivered to the depot rather than the shop.")).toBeNull();
  });

  it("a weekday or a word added on one side only narrows the claim", () => {
    expect(weekdayOnOneSide("The garden is watered every morning.", "The garden is watered every Sunday morning.")).toBe(true);
    expect(weekdayOnOneSide("The garden is watered on weekends.", "The garden is watered on Saturdays and Sundays.")).toBe(false);
    expect(narrowingInsert("Members can use the sauna.", "Only members can use the sauna.")).toBe("only");
    expect(narrowingInsert("All staff get a parking space.", "All senior staff get a parking space.")).toBe("senior");
    expect(narrowingInsert("The pier is open at night.", "The pier is still open at night.")).toBeNull();
    expect(narrowingInsert("The pier is open at night.", "At night the pier is open.")).toBeNull();
  });

  it("the same anchor on the other side of a relation", () => {
    expect(relationFlip("The form is signed before the interview.", "The form is signed after the interview.")).toBe("before/after interview");
    expect(relationFlip("The shop closes before the museum.", "The museum closes after the shop.")).toBeNull();
  });
});

describe("calendar lengths said two ways", () => {
  it("'a month and a half' is one length, close enough to six weeks; eleven months are not a year", () => {
    expect(allValues("The survey takes a month and a half.")).toEqual(new Set(["d64800"]));
    expect(valueClash("The survey takes six weeks.", "The survey takes a month and a half.")).toBeNull();
    expect(valueClash("The survey takes seven weeks.", "The survey takes a month and a half.")).not.toBeNull();
    expect(valueClash("The lease runs eleven months.", "The lease runs a year.")).not.toBeNull();
  });
});

describe("restatements the cues leave alone", () => {
  it("a conditional permission is an obligation; a passive keeps a converse verb's ends; an approximation narrows nothing", () => {
    expect(modalClash("Children may enter only with an adult.", "Children must be accompanied by an adult.")).toBe(false);
    expect(modalClash("Dogs are welcome if kept on a lead.", "Dogs must be kept on a lead.")).toBe(false);
    expect(modalClash("Guests may bring a pet if they wish.", "Guests must bring a pet.")).toBe(true);
    expect(converseWithSameSubject("Ravi sold his bike to Lena.", "Ravi's bike was bought by Lena.")).toBeNull();
    expect(narrowingInsert("The gym opens at six.", "The gym opens at six sharp.")).toBeNull();
    expect(valueClash("Nine in ten customers pay by card.", "90% of customers pay by card.")).toBeNull();
    expect(valueClash("Meetings are held every other Tuesday.", "Every second Tuesday there is a meeting.")).toBeNull();
  });
});

describe("cues that must not fire on ordinary restatements (review findings)", () => {
  it("reads a comparison and its converse as one claim ('later than' / 'earlier than')", () => {
    expect(relationFlip("Shops open later than banks.", "Banks open earlier than shops.")).toBeNull();
    expect(relationFlip("Invoices are sent before delivery.", "Invoices are sent after delivery.")).not.toBeNull();
  });

  it("keeps a passive without its agent out of the converse check, and matches converse verbs as whole words", () => {
    expect(converseWithSameSubject("Students learn Spanish from a native speaker.", "Students are taught Spanish by a native speaker.")).toBeNull();
    expect(converseWithSameSubject("Students learn Spanish in the evenings.", "Students are taught Spanish in the evenings.")).toBeNull();
    expect(converseWithSameSubject("The owner learned the trade from her uncle.", "The owner taught the trade to her uncle.")).not.toBeNull();
    expect(converseWithSameSubject("Tenants pay the landlord monthly.", "Tenants owe the landlord a monthly payment.")).toBeNull();
  });

  it("does not read the month May as a permission", () => {
    expect(modalClash("The festival is held in May and tickets must be booked early.", "Tickets must be booked early for the festival held in May.")).toBe(false);
    expect(modalClash("Visitors may park on the verge.", "Visitors must park on the verge.")).toBe(true);
  });
});

describe("a claim about the same thing that is another claim", () => {
  it("reads a value left behind on one side when the values do not agree", () => {
    expect(valueOnOneSide("The bakery bakes rye bread three times a week.", "The bakery sells its rye bread at the market.")).not.toBeNull();
    expect(valueOnOneSide("The bakery bakes rye bread three times a week.", "Rye bread comes out of the bakery's oven thrice weekly.")).toBeNull();
    expect(valueOnOneSide("The bakery bakes rye bread.", "The bakery sells its rye bread at the market.")).toBeNull();
    // "all" / "some" are said of nearly anything: left behind, they are no evidence.
    expect(valueOnOneSide("All the bakery's loaves are baked before dawn.", "The bakery's loaves are baked before dawn.")).toBeNull();
  });

  it("reads a working week as five working days", () => {
    expect([...allValues("Repairs are finished within one working week.")]).toEqual([...allValues("Repairs are finished within five working days.")]);
    expect(valueClash("Repairs are finished within two business weeks.", "Repairs are finished within ten business days.")).toBeNull();
    expect(valueClash("Repairs are finished within one working week.", "Repairs are finished within seven working days.")).not.toBeNull();
  });

  it("finds a participant replaced around the same verb when one side is in the passive", () => {
    expect(participantSwap("The gardeners prune every hedge in March.", "Every hedge is pruned in March by the volunteers.")).toEqual(["gardeners", "volunteers"]);
    expect(participantSwap("The gardeners prune every hedge in March.", "Every hedge is pruned in March by the gardeners.")).toBeNull();
    // A paraphrase turns the sentence round with another verb: the verb is the odd word out, not a participant.
    expect(participantSwap("Lena runs the allotment society.", "The allotment society is chaired by Lena.")).toBeNull();
    // Both sides active: the same-order check (`substitution`) reads those.
    expect(participantSwap("The gardeners prune every hedge.", "The volunteers prune every hedge.")).toBeNull();
  });
});

describe("notations read as one value", () => {
  it("reads 'every hour and a half', 'three quarters of an hour' and 'half eleven' as one length or one time", () => {
    expect([...allValues("The tram runs every hour and a half.")]).toEqual(["d90"]);
    expect(valueClash("The tram runs every hour and a half.", "A tram comes by every 90 minutes.")).toBeNull();
    expect(valueClash("The tram runs every hour and a half.", "A tram comes by every 60 minutes.")).not.toBeNull();
    expect([...allValues("The climb takes three quarters of an hour.")]).toEqual(["d45"]);
    expect(valuesAgree("The climb takes three quarters of an hour.", "You reach the top in 45 minutes.")).toBe(true);
    expect([...allValues("The bar closes at half eleven.")]).toEqual(["t690"]);
    expect(valuesAgree("The bar closes at half eleven.", "Last orders at the bar are at 11:30.")).toBe(true);
    // Half of a group is still a share, and a number after it a number.
    expect(allValues("Half of the rowers left at eleven.")).toEqual(new Set(["p50", "n11"]));
  });

  it("reads N things in a period as one every period / N, beside the count and the period", () => {
    expect(valuesAgree("A tram stops here every 12 minutes.", "Five trams an hour stop here.")).toBe(true);
    expect(valueClash("A tram stops here every 12 minutes.", "Six trams an hour stop here.")).not.toBeNull();
    expect(allValues("The press prints 300 sheets per minute.")).toContain("d0.00333");
    expect(allValues("The press prints five sheets every second.")).toContain("d0.00333");
    // The count and the period stay: "weekly output of 200 chairs" still agrees with "200 chairs a week".
    expect(valuesAgree("The workshop makes 200 chairs a week.", "The workshop's weekly output is 200 chairs.")).toBe(true);
    // Measures and money are amounts, not events.
    expect([...allValues("The nurse works 36 hours a week.")]).not.toContain("d280");
    expect(valuesAgree("The locker costs 12 pounds a month.", "The locker is 12 pounds monthly.")).toBe(true);
  });

  it("reads an age as a number of years and 'no one' as nobody", () => {
    expect([...allValues("Drivers must be at least 21 years old.")]).toEqual(["n21"]);
    expect([...allValues("No one under 21 may drive the van.")]).toEqual(["n21"]);
    expect(valueClash("The youngest player is a 16-year-old.", "The youngest player is 17 years old.")).not.toBeNull();
  });

  it("leaves quantifiers out of the values a restatement must carry over", () => {
    expect(valueOnOneSide("The bus is usually a few minutes late.", "The bus tends to run behind its timetable.")).toBeNull();
    expect(valueOnOneSide("The bus is late twice a week.", "The bus tends to run behind its timetable.")).not.toBeNull();
  });
});

describe("a negated bound points the other way", () => {
  it("'nobody under 21' bounds 21 from below, as 'at least 21' does", () => {
    expect(negatedBound("No one under 21 may drive the van.", 21)).toBe(true);
    expect(negatedBound("Drivers must be at least 21.", 21)).toBe(false);
    expect(negatedBound("The tank never holds more than 40 litres.", 40)).toBe(true);
    expect(structuralMismatch("Drivers of the van must be at least 21.", "No one under 21 may drive the van.")).toBeNull();
    expect(structuralMismatch("The tank holds at most 40 litres.", "The tank never holds more than 40 litres.")).toBeNull();
    // Both negated, or neither: the bounds still point opposite ways.
    expect(structuralMismatch("Drivers of the van must be under 21.", "No one under 21 may drive the van.")).not.toBeNull();
    expect(structuralMismatch("The tank holds at most 40 litres.", "The tank holds at least 40 litres.")).toMatch(/bounded from opposite sides/);
  });
});

describe("the passive with the same subject reverses the roles", () => {
  it("reads 'A coaches B' / 'A is coached by B' as a reversal, and the ordinary passive as none", () => {
    expect(voiceFlipWithSameSubject("Priya coaches the junior sprinters.", "Priya is coached by the junior sprinters.")).toBe("coach");
    expect(voiceFlipWithSameSubject("Priya coaches the junior sprinters.", "The junior sprinters are coached by Priya.")).toBeNull();
    expect(voiceFlipWithSameSubject("Priya coaches the junior sprinters.", "Priya coaches the senior sprinters.")).toBeNull();
    expect(structuralMismatch("Priya coaches the junior sprinters.", "Priya is coached by the junior sprinters.")).toMatch(/passive/);
  });
});

describe("a bound on one side only narrows the claim", () => {
  it("'on bookings over 200 dollars' against 'on every booking' is a narrower claim; the same bound said twice is not", () => {
    expect(boundOnOneSide("The hotel waives the deposit on bookings over 200 dollars.", "The hotel waives the deposit on every booking.")).toBe("c:usd:200");
    expect(structuralMismatch("The hotel waives the deposit on bookings over 200 dollars.", "The hotel waives the deposit on every booking.")).toMatch(/bound/);
    expect(boundOnOneSide("The hotel waives the deposit on bookings over 200 dollars.", "Bookings above 200 dollars need no deposit.")).toBeNull();
    // A value left behind that is not the bounded number is no bound ("at once" is not the limit of ten).
    expect(boundOnOneSide("No more than ten people may use the hoist at once.", "The hoist carries at most ten people.")).toBeNull();
    expect(boundOnOneSide("The freezer runs at 20 degrees below zero.", "The freezer runs at minus 20 °C.")).toBeNull();
  });
});

describe("'only X' said as 'X; nobody else'", () => {
  it("does not read the 'nobody else' as a one-sided negation", () => {
    expect(onlyRestatedByNegation("Only the treasurer can sign cheques.", "The treasurer signs the cheques and no one else may.")).toBe(true);
    expect(structuralMismatch("Only the treasurer can sign cheques.", "The treasurer signs the cheques and no one else may.")).toBeNull();
    expect(onlyRestatedByNegation("Only the treasurer can sign cheques.", "The treasurer cannot sign cheques.")).toBe(false);
    expect(structuralMismatch("The treasurer can sign cheques.", "The treasurer cannot sign cheques.")).not.toBeNull();
  });
});

describe("three words added on one side narrow the claim", () => {
  it("reads 'takes two hours' / 'takes two hours longer at night' as narrower; a loose insert stays a restatement", () => {
    expect(narrowingInsert("The drive takes two hours.", "The drive takes two hours longer at night.")).toBe("longer at night");
    expect(narrowingInsert("The drive takes two hours.", "The drive takes roughly two hours.")).toBeNull();
    expect(narrowingInsert("The drive takes two hours.", "The drive takes two hours or so.")).toBeNull();
  });
});

describe("one fact moved in a look-alike sentence", () => {
  it("reads a focus word moved to another phrase", () => {
    expect(focusMoved("Only trained divers may enter the wreck.", "Trained divers may enter only the wreck.")).toBe("only");
    expect(focusMoved("The cafe takes cash only on Sundays.", "The cafe takes only cash on Sundays.")).toBe("only");
    expect(focusMoved("Only trained divers may enter the wreck.", "Only trained divers may enter the wreck.")).toBeNull();
    expect(focusMoved("Only trained divers may enter the wreck.", "Nobody but trained divers may go into the wreck.")).toBeNull();
    expect(structuralMismatch("Only trained divers may enter the wreck.", "Trained divers may enter only the wreck.")).toMatch(/restricts/);
  });

  it("reads the same number counting another noun named on both sides", () => {
    expect(countedNounSwap("Each tutor marks three essays.", "Each essay is marked by three tutors.")).not.toBeNull();
    expect(countedNounSwap("The farm keeps 40 goats.", "The farm keeps 40 animals, goats among them.")).not.toBeNull();
    // Another noun named on one side only is a rewording; the same noun is no swap; a share or a date counts nothing.
    expect(countedNounSwap("The farm keeps 40 goats.", "There are 40 goats on the farm.")).toBeNull();
    expect(countedNounSwap("The hall seats 300 guests.", "The hall has room for 300 visitors.")).toBeNull();
    expect(countedNounSwap("Fees rose 5% in the spring term.", "In the spring term fees went up by 5% overall.")).toBeNull();
    expect(countedNounSwap("The fair opens on 3 May.", "The fair opens May 3rd.")).toBeNull();
  });

  it("reads one length as a limit on one side and a span on the other", () => {
    expect(durationRoleClash("Bread is sliced within an hour of baking.", "Bread is left for an hour after baking.")).toBe(60);
    expect(durationRoleClash("Claims are paid within 30 days.", "Claims are settled in under thirty days.")).toBeNull();
    expect(durationRoleClash("The dough rests for two hours.", "Let the dough rest for 2 hours.")).toBeNull();
  });

  it("reads a bound against an estimate of the same number", () => {
    expect(boundAgainstEstimate("The lift carries up to 12 people.", "The lift usually carries about 12 people.")).toBe(12);
    expect(boundAgainstEstimate("The lift carries up to 12 people.", "The lift holds at most twelve people.")).toBeNull();
    expect(boundAgainstEstimate("The lift carries about 12 people.", "Roughly twelve people fit in the lift.")).toBeNull();
  });
});

describe("values in other notations", () => {
  it("reads half a unit, clock phrases, scaled amounts, compound numbers and fractions of a group as one value", () => {
    expect(valueClash("A refund takes half a minute to process.", "Processing a refund takes 30 seconds.")).toBeNull();
    expect(valueClash("A refund takes half a minute to process.", "Processing a refund takes 40 seconds.")).not.toBeNull();
    expect(valueClash("The museum shuts at ten to eight in the evening.", "The museum shuts at 19:50.")).toBeNull();
    expect(valueClash("The museum shuts at ten to eight in the evening.", "The museum shuts at 20:50.")).not.toBeNull();
    expect(valueClash("The kitchen stops serving at five past midnight.", "At 00:05 the kitchen stops serving.")).toBeNull();
    expect(valueClash("The grant is worth $2 million.", "The grant is worth two million dollars.")).toBeNull();
    expect(valueClash("The grant is worth $2 million.", "The grant is worth two thousand dollars.")).not.toBeNull();
    expect(valueClash("The raffle raised two thousand five hundred pounds.", "The raffle raised £2,500.")).toBeNull();
    expect(valueClash("A three-quarters majority is needed to dissolve the club.", "Dissolving the club needs three quarters of the members.")).toBeNull();
    expect(valueClash("A three-quarters majority is needed to dissolve the club.", "Dissolving the club needs half of the members.")).not.toBeNull();
  });

  it("does not read a range or a count as a time of day", () => {
    const times = (t: string) => [...allValues(t)].filter((v) => /^t\d/.test(v));
    expect(times("Ten to fifteen people attend the class.")).toEqual([]);
    expect(times("Proof the dough at 4 to 6 °C.")).toEqual([]);
  });
});

describe("time of year and occasion", () => {
  it("reads a season on one side only as a narrower claim", () => {
    expect(seasonOnOneSide("The boiler runs all year.", "The boiler runs through the winter.")).toBe("winter");
    expect(seasonOnOneSide("The boiler runs in winter.", "In the cold season the boiler is on from December to March.")).toBeNull();
    expect(seasonOnOneSide("The boiler runs in winter.", "Every winter the boiler is switched on.")).toBeNull();
    // "falls" is a verb, not autumn.
    expect(seasonOnOneSide("The deposit is due on the 5th.", "The deposit falls due on the 5th.")).toBeNull();
  });

  it("reads one occasion against a habit over the same period", () => {
    expect(occasionAgainstHabit("The lake freezes over most winters.", "The lake froze over last winter.")).toBe("winter");
    expect(occasionAgainstHabit("The choir sings every Sunday.", "The choir sang last Sunday.")).toBe("sunday");
    expect(occasionAgainstHabit("The lake froze over last winter.", "Last winter the lake was frozen.")).toBeNull();
  });
});

describe("two events in the other order", () => {
  it("reads cause and effect, or earlier and later, trading places", () => {
    expect(eventOrderFlip("The bridge was closed because the river flooded.", "The river flooded after the bridge was closed.")).toBe(true);
    expect(eventOrderFlip("The band played before the speeches started.", "The band played after the speeches started.")).toBe(true);
    // The same order said another way, and a purpose ("so that") are no flip.
    expect(eventOrderFlip("The bridge was closed because the river flooded.", "Because the river flooded, the bridge was shut.")).toBe(false);
    expect(eventOrderFlip("The river flooded, so the bridge was closed.", "The bridge was closed because the river flooded.")).toBe(false);
    expect(eventOrderFlip("The match was moved after the pitch froze.", "The match was moved so that the pitch could recover.")).toBe(false);
  });
});

describe("inside or outside an amount", () => {
  it("reads the same thing included on one side and extra on the other", () => {
    expect(inclusionClash("The tour costs €80 including lunch.", "The tour costs €80, lunch extra.")).toBe("lunch");
    expect(inclusionClash("The room is £70 a night, breakfast included.", "The room is £70 a night plus breakfast.")).toBe("breakfast");
    expect(inclusionClash("The tour costs €80 including lunch.", "Lunch is included in the €80 tour price.")).toBeNull();
    expect(inclusionClash("The tour costs €80 excluding lunch.", "Lunch is not included in the €80 tour price.")).toBeNull();
  });
});

describe("another participant doing the same thing", () => {
  it("reads the agent of the same verb changed, both named on both sides", () => {
    expect(agentSwap("Marta checks every invoice from the sales team.", "Every invoice Marta sends is checked by the sales team.")).toBe("check");
    expect(agentSwap("The wardens lock every gate.", "Every gate is locked by the wardens.")).toBeNull();
    expect(agentSwap("Marta checks every invoice from the sales team.", "Every sales-team invoice is checked by Marta.")).toBeNull();
  });
});
