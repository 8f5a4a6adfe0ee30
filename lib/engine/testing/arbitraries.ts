/**
 * fast-check generators of belief histories, shared by the engine's property suites.
 */
import fc from "fast-check";
import { EPOCH, makeEntry, minutesAfter } from "../history-builder";
import { LAUNDERING_REASONS, RELATIONS, TIERS, type EvidenceEntry, type LaunderingReason, type Relation, type Tier } from "../model";

export interface EntrySpec {
  source: string | null;
  relation: Relation;
  tier: Tier;
  verified: boolean;
  weight: number;
  ess: number;
  laundering: LaunderingReason | null;
  actor: string;
  newChangeSet: boolean;
  minutes: number;
}

export const arbTier: fc.Arbitrary<Tier> = fc.constantFrom(...TIERS);
export const arbRelation: fc.Arbitrary<Relation> = fc.constantFrom(...RELATIONS);
export const arbUnit: fc.Arbitrary<number> = fc.double({ min: 0, max: 1, noNaN: true });

export function arbEntrySpec(
  overrides: { verified?: fc.Arbitrary<boolean>; tier?: fc.Arbitrary<Tier>; laundering?: fc.Arbitrary<LaunderingReason | null> } = {},
): fc.Arbitrary<EntrySpec> {
  return fc.record({
    source: fc.option(fc.constantFrom("s0", "s1", "s2", "s3", "s4", "s5", "s6", "s7"), { freq: 5 }),
    relation: arbRelation,
    tier: overrides.tier ?? arbTier,
    verified: overrides.verified ?? fc.boolean(),
    weight: arbUnit,
    ess: arbUnit,
    laundering: overrides.laundering ?? fc.option(fc.constantFrom(...LAUNDERING_REASONS), { freq: 6 }),
    actor: fc.constantFrom("alice", "bob", "carol"),
    newChangeSet: fc.boolean(),
    minutes: fc.integer({ min: 0, max: 30 }),
  });
}

/** Turn specs into entries: consecutive specs share a change-set (and its time and actor) unless `newChangeSet`. */
export function buildEntries(specs: readonly EntrySpec[], firstSeq = 1, start = EPOCH): EvidenceEntry[] {
  const out: EvidenceEntry[] = [];
  let cs = 0;
  let minutes = 0;
  let actor = specs[0]?.actor ?? "alice";
  specs.forEach((s, i) => {
    if (i === 0 || s.newChangeSet) {
      cs++;
      minutes += s.minutes;
      actor = s.actor;
    }
    out.push(
      makeEntry({
        seq: firstSeq + i,
        sourceId: s.verified && s.source === null ? `own-${firstSeq + i}` : s.source,
        sourceKind: s.verified ? "evidence" : null,
        relation: s.relation,
        tier: s.tier,
        verified: s.verified,
        effectiveTier: s.verified ? s.tier : "model_assertion",
        weight: s.weight,
        ess: s.ess,
        launderingReason: s.laundering,
        actor,
        time: minutesAfter(minutes, start),
        changeSet: `cs${firstSeq}-${cs}`,
      }),
    );
  });
  return out;
}

export const arbHistory = (max = 30): fc.Arbitrary<EvidenceEntry[]> =>
  fc.array(arbEntrySpec(), { minLength: 0, maxLength: max }).map((specs) => buildEntries(specs));
