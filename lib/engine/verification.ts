/**
 * Verification and anti-laundering (docs/design.md §4.2), decided once at assimilation through the caller's authorised view.
 *
 * effectiveTier = min(claimed tier, the source kind's cap, for a cited belief the strongest tier among its live
 * real support grounded in the caller's view); `model_assertion` if unverified. A cited Mutation or a discarded
 * (manipulative) Evidence item counts as unverified.
 *
 * Laundering (contributes 0, reason stored): the source is the citer itself (`self_citation`); the cited belief
 * reaches the citer through SUPPORTS citations of any length (`citation_cycle`); the cited belief has no live real
 * support that bottoms out in visible Evidence through live, visible beliefs, never through the citer
 * (`ungrounded_belief`). Every hop is one `resolver.resolve(id)` call, memoised per verification, so a hidden
 * hop behaves exactly like a missing one.
 */
import {
  EVIDENCE_KIND_TIER_CAP,
  isRealTier,
  maxTier,
  minTier,
  type ItemKind,
  type LaunderingReason,
  type Tier,
} from "./model";
import type { AuthorisedResolver, ResolvedBelief, ResolvedItem } from "./ports";

export interface SourceVerdict {
  verified: boolean;
  /** What the source resolved to in the caller's view; null when it did not resolve (or the entry is anonymous). */
  sourceKind: ItemKind | null;
  effectiveTier: Tier;
  launderingReason: LaunderingReason | null;
  /** The cited evidence's assessed ESS, else 1. */
  ess: number;
  /** The cited Evidence item is retracted: the entry is written with a `retracted` event in the same change-set. */
  sourceRetracted: boolean;
}

const UNVERIFIED: SourceVerdict = {
  verified: false,
  sourceKind: null,
  effectiveTier: "model_assertion",
  launderingReason: null,
  ess: 1,
  sourceRetracted: false,
};

/** Memoises one resolution per id for the duration of one assimilation (one lookup per id, per the no-oracle rule). */
export class ResolutionCache {
  private readonly cache = new Map<string, Promise<ResolvedItem | null>>();
  constructor(private readonly resolver: AuthorisedResolver) {}
  resolve(id: string): Promise<ResolvedItem | null> {
    let p = this.cache.get(id);
    if (p === undefined) {
      p = this.resolver.resolve(id);
      this.cache.set(id, p);
    }
    return p;
  }
  /** Ids looked up so far, in first-lookup order (tests compare these sequences for hidden vs missing ids). */
  lookedUp(): string[] {
    return [...this.cache.keys()];
  }
}

/**
 * Decide `verified`, `effectiveTier` and `launderingReason` for one entry of belief `citerId` citing `sourceId`
 * with claimed tier `claimed`. `sourceId` null is an anonymous model assertion.
 */
export async function verifySource(
  citerId: string,
  sourceId: string | null,
  claimed: Tier,
  resolver: AuthorisedResolver | ResolutionCache,
): Promise<SourceVerdict> {
  if (sourceId === null) return UNVERIFIED;
  if (sourceId === citerId) {
    return { ...UNVERIFIED, verified: true, sourceKind: "belief", launderingReason: "self_citation" };
  }
  const cache = resolver instanceof ResolutionCache ? resolver : new ResolutionCache(resolver);
  const item = await cache.resolve(sourceId);
  if (item === null) return UNVERIFIED;
  switch (item.kind) {
    case "mutation":
      return { ...UNVERIFIED, sourceKind: "mutation" };
    case "evidence": {
      const ess = item.ess === null ? 1 : Math.min(1, Math.max(0, item.ess));
      if (item.discarded) return { ...UNVERIFIED, sourceKind: "evidence", ess };
      return {
        verified: true,
        sourceKind: "evidence",
        effectiveTier: minTier(claimed, EVIDENCE_KIND_TIER_CAP[item.evidenceKind]),
        launderingReason: null,
        ess,
        sourceRetracted: item.retracted,
      };
    }
    case "belief": {
      const check = await checkBeliefCitation(citerId, item, cache);
      return {
        verified: true,
        sourceKind: "belief",
        effectiveTier: check.reason === null && check.tier !== null ? minTier(claimed, check.tier) : "model_assertion",
        launderingReason: check.reason,
        ess: 1,
        sourceRetracted: false,
      };
    }
  }
}

interface BeliefCheck {
  reason: LaunderingReason | null;
  /** Strongest tier among the cited belief's grounded live real support; null when it has none. */
  tier: Tier | null;
}

/**
 * Iterative walks from the cited belief `root` (explicit stacks; no recursion, so chains of any length are fine).
 * 1. Cycle: follow every SUPPORTS citation of a live, visible belief; reaching `citerId` is a cycle.
 * 2. Grounding: among the visible live beliefs reachable over *real* SUPPORTS citations (never through the citer),
 *    a belief is grounded when it has a real support from visible, unretracted, non-discarded Evidence, or from a
 *    grounded belief (least fixed point, propagated backwards over the explored edges).
 */
async function checkBeliefCitation(citerId: string, root: ResolvedBelief, cache: ResolutionCache): Promise<BeliefCheck> {
  if (!root.live) return { reason: "ungrounded_belief", tier: null };

  // 1. Cycle back to the citer.
  const seen = new Set<string>([root.id]);
  const stack: ResolvedBelief[] = [root];
  const beliefs = new Map<string, ResolvedBelief>([[root.id, root]]);
  while (stack.length > 0) {
    const b = stack.pop() as ResolvedBelief;
    for (const ref of b.supports) {
      if (ref.sourceKind !== "belief") continue;
      if (ref.sourceId === citerId) return { reason: "citation_cycle", tier: null };
      if (seen.has(ref.sourceId)) continue;
      seen.add(ref.sourceId);
      const next = await cache.resolve(ref.sourceId);
      if (next === null || next.kind !== "belief" || !next.live) continue;
      beliefs.set(next.id, next);
      stack.push(next);
    }
  }

  // 2. Grounding over real support edges among the explored beliefs.
  const grounded = new Set<string>();
  const dependents = new Map<string, string[]>();
  const queue: string[] = [];
  for (const b of beliefs.values()) {
    for (const ref of b.supports) {
      if (!isRealTier(ref.effectiveTier)) continue;
      if (ref.sourceKind === "evidence") {
        if (grounded.has(b.id)) continue;
        const ev = await cache.resolve(ref.sourceId);
        if (ev !== null && ev.kind === "evidence" && !ev.retracted && !ev.discarded) {
          grounded.add(b.id);
          queue.push(b.id);
        }
      } else if (ref.sourceKind === "belief" && beliefs.has(ref.sourceId)) {
        const list = dependents.get(ref.sourceId) ?? [];
        list.push(b.id);
        dependents.set(ref.sourceId, list);
      }
    }
  }
  while (queue.length > 0) {
    const id = queue.pop() as string;
    for (const dep of dependents.get(id) ?? []) {
      if (grounded.has(dep)) continue;
      grounded.add(dep);
      queue.push(dep);
    }
  }
  if (!grounded.has(root.id)) return { reason: "ungrounded_belief", tier: null };

  // Strongest tier among the root's real supports that are grounded in this view.
  let tier: Tier | null = null;
  for (const ref of root.supports) {
    if (!isRealTier(ref.effectiveTier)) continue;
    let ok = false;
    if (ref.sourceKind === "evidence") {
      const ev = await cache.resolve(ref.sourceId);
      ok = ev !== null && ev.kind === "evidence" && !ev.retracted && !ev.discarded;
    } else if (ref.sourceKind === "belief") ok = grounded.has(ref.sourceId);
    if (ok) tier = tier === null ? ref.effectiveTier : maxTier(tier, ref.effectiveTier);
  }
  return { reason: null, tier };
}
