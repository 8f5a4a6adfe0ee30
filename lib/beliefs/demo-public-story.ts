/**
 * The public demo scope's story: what a visitor with no membership reads when they open the demo's public scope. A
 * small security-research notebook about phishing-resistant sign-in, three beliefs with their evidence, one of them
 * disputed: the team's checklist, an audit and the vendor's guide accept SMS codes as a second factor, while its own incident log and a red-team
 * exercise and a relay test say they are not enough. Each entry is stated exactly (`match: "exact"`, evidence not assessed), so the
 * reader relates nothing the story did not write, and the clock is moved by hand so the history spans a few days.
 */
import type { IsoTime } from "@/lib/engine";
import type { BeliefServices, Caller } from "./belief-services";

export interface PublicStoryOptions {
  scopeSlug: string;
  /** Writes the notes (an owner or editor of the scope). */
  author: Caller;
  clock: { set(time: IsoTime): void };
  /** The first note's day, 00:00 UTC. */
  start: IsoTime;
}

export interface PublicStoryReport {
  beliefs: { passkeys: string; smsCodes: string; enrolment: string };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export async function seedPublicStory(services: BeliefServices, options: PublicStoryOptions): Promise<PublicStoryReport> {
  const { scopeSlug: scope, author, clock } = options;
  const base = Date.parse(options.start);
  const at = (day: number, hour: number, minute = 0) => clock.set(new Date(base + day * DAY + hour * HOUR + minute * 60_000).toISOString());
  const note = async (kind: "document" | "measurement", text: string) =>
    (await services.registerEvidence(author, scope, { kind, text, assess: false })).evidence.id;

  // Day 0: the red-team exercise that started the notebook.
  at(0, 9, 15);
  const exercise = await note(
    "document",
    "Red-team phishing exercise, spring round: a lookalike sign-in page was sent to 100 staff. None of the 40 who sign in with a passkey could hand over a usable credential; 11 of the 60 on password plus SMS code typed both into the fake page.",
  );
  const passkeys = await services.assimilate(author, scope, {
    match: "exact",
    claim: "Passkeys stop credential-phishing account takeovers for the staff who use them.",
    topic: "phishing-resistant sign-in",
    evidence: [{ sourceId: exercise, tier: "document", relation: "SUPPORTS", weight: 0.8, reasoning: "The exercise compared both groups against the same lookalike page." }],
  });

  // Day 1: the checklist that says SMS codes are fine.
  at(1, 11, 0);
  const checklist = await note(
    "document",
    "Internal access-control checklist, version 3: a one-time code sent by SMS satisfies the second-factor requirement for staff accounts.",
  );
  const sms = await services.assimilate(author, scope, {
    match: "exact",
    claim: "SMS one-time codes are an adequate second factor for staff accounts.",
    topic: "phishing-resistant sign-in",
    evidence: [{ sourceId: checklist, tier: "document", relation: "SUPPORTS", weight: 0.7, reasoning: "The team's own policy accepts it." }],
  });
  at(1, 15, 30);
  const audit = await note(
    "document",
    "Last year's external security audit report: staff accounts were found compliant, with SMS codes listed as the second factor in use.",
  );
  const guide = await note(
    "document",
    "Identity provider's administration guide: SMS, authenticator apps and passkeys are all listed as supported second factors for workforce accounts.",
  );
  await services.assimilate(author, scope, {
    beliefId: sms.belief.id,
    evidence: [
      { sourceId: audit, tier: "document", relation: "SUPPORTS", weight: 0.6 },
      { sourceId: guide, tier: "document", relation: "SUPPORTS", weight: 0.5 },
    ],
  });

  // Day 2: the help desk's numbers after the passkey pilot.
  at(2, 14, 30);
  const tickets = await note(
    "measurement",
    "Help-desk export: account-takeover tickets fell from 9 in the quarter before the passkey pilot to 1 in the quarter after it; the one remaining case was an account still on SMS codes.",
  );
  await services.assimilate(author, scope, { beliefId: passkeys.belief.id, evidence: [{ sourceId: tickets, tier: "measurement", relation: "SUPPORTS", weight: 0.7 }] });

  // Days 3–4: the disagreement. The exercise and the incident log rebut the checklist's claim.
  at(3, 10, 0);
  await services.assimilate(author, scope, {
    beliefId: sms.belief.id,
    evidence: [{ sourceId: exercise, tier: "document", relation: "REBUTS", weight: 0.8, reasoning: "A real-time relay page collected SMS codes as easily as passwords." }],
  });
  at(4, 16, 20);
  const simSwap = await note(
    "document",
    "Incident log: two staff phone numbers were ported to an attacker's SIM this year; in both cases the attacker received the sign-in codes for about an hour before anyone noticed.",
  );
  await services.assimilate(author, scope, { beliefId: sms.belief.id, evidence: [{ sourceId: simSwap, tier: "document", relation: "REBUTS", weight: 0.9 }] });
  at(4, 17, 5);
  const relay = await note(
    "measurement",
    "Relay test: a phishing kit that forwards codes in real time signed in to 7 of 10 test accounts protected by SMS codes, each within two minutes of the code being sent.",
  );
  await services.assimilate(author, scope, { beliefId: sms.belief.id, evidence: [{ sourceId: relay, tier: "measurement", relation: "REBUTS", weight: 0.9 }] });

  // Day 5: would people actually switch?
  at(5, 9, 40);
  const pilot = await note(
    "measurement",
    "Enrolment pilot: when sign-in offered to set up a passkey, 78 of 100 staff had one within three weeks; most of the rest were on shared kiosks.",
  );
  const enrolment = await services.assimilate(author, scope, {
    match: "exact",
    claim: "Most staff enrol a passkey within a month when sign-in prompts them to.",
    topic: "passkey rollout",
    evidence: [{ sourceId: pilot, tier: "measurement", relation: "SUPPORTS", weight: 0.75 }],
  });

  return { beliefs: { passkeys: passkeys.belief.id, smsCodes: sms.belief.id, enrolment: enrolment.belief.id } };
}
