/**
 * Assimilate (editor): evidence entries for one belief, named by id or by its claim. A claim whose normalised text
 * matches a live belief writes to it; with `matchRestatement` a claim that surely restates a live belief reinforces
 * it, and one that only may (the write policy, `restatementPolicy`) becomes a new belief linked to that one as a
 * possible duplicate, for a reviewer to decide; otherwise a new belief is created in the topic the text is closest to. With `relate`, the claim is also read against
 * the scope's most similar other live beliefs, as ingest reads a text: each one it supports, rebuts or qualifies gets
 * the claim's cited sources as entries of that relation (weight × the reader's strength), so a changed value competes
 * with the belief it changes. One change-set; a lost optimistic-concurrency race reloads and runs again (`kit.retry`),
 * so concurrent writers never lose an update.
 */
import { isLiveStatus, mergeChangeSets, type Belief, type BeliefGist, type BeliefRecord, type ChangeSet, type Tier } from "@/lib/engine";
import { assimilate as assimilateEvidence, assimilateOnCheckpoint, type BeliefHead, type NewBeliefSpec } from "@/lib/engine/assimilate";
import { possibleDuplicateItem, type RestatementChoice } from "@/lib/engine/readings";
import { assignTopic, beliefKey } from "@/lib/engine/topic";
import { ResolutionCache } from "@/lib/engine/verification";
import { assimilateInputSchema } from "./belief-schemas";
import { itemNotFoundError, parseServiceInput } from "@/lib/errors/belief-service-error";
import { restatementPolicy } from "@/lib/reading/merge-policy";
import type { AssimilateRelation, AssimilateResult, BeliefChange, BeliefServices } from "./belief-services";
import type { CallerContext } from "./caller-context";
import { eventTimeOfWrite } from "./observed-at";
import { beliefChange, notLiveError, type ServiceKit } from "./service-kit";
import { keptReadings } from "./kept-readings";

/**
 * Histories up to this many items come with the belief when a write loads it (one round trip; the full replay of a
 * few thousand items costs a few milliseconds); longer ones stay in the store and the write folds onto the checkpoint.
 * `BeliefServicesConfig.headHistoryLimit` overrides it.
 */
const HEAD_HISTORY_LIMIT = 2000;

/** How many ranked candidates (best first) a restatement, a topic and the related beliefs are looked for among. */
const RESTATEMENT_CANDIDATES = 20;
/**
 * The best lexical candidates the ranking of those starts from (lib/retrieval/hybrid-search.ts; its default for 20 is
 * 100). Measured with the real model on text written by others (research/measure-candidate-pools.ts, 16 340 public
 * sentences as beliefs, 300 questions): the 20 found from 50 are 99.9 % those found from 100 — the set is what counts
 * here, as the candidates are read back ordered by id — while the rows read per ranking fall 948 → 839 and its CPU
 * 45.5 → 39.6 ms (PGlite, in process); a vector pool of 100 as well would lose 1.3 %.
 */
const RESTATEMENT_LEXICAL_POOL = 50;

/** What assimilate writes, once the caller's input is parsed (harvest builds the same request for each claim). */
export interface AssimilateRequest {
  claim?: { text: string; quantity?: { value: number; unit: string } };
  beliefId?: string;
  topic?: string;
  contextTags?: readonly string[];
  /**
   * A claim without a same-key belief reinforces the live belief it surely restates, instead of creating one, and is
   * linked as a possible duplicate to one it only may restate (`restatementPolicy`).
   */
  matchRestatement?: boolean;
  /** The claim's cited sources also bear on the other live beliefs the reader relates the claim to (module comment). */
  relate?: boolean;
  /** When the evidence was true or seen (ISO-8601 UTC); default the recorded time. */
  observedAt?: string;
  evidence: readonly { sourceId: string | null; tier: Tier; relation: "SUPPORTS" | "REBUTS" | "CONTEXTUALIZES"; weight: number; reasoning: string | null; assessor: string }[];
}

export function assimilateService(kit: ServiceKit): Pick<BeliefServices, "assimilate"> {
  return {
    async assimilate(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(assimilateInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const relate = input.match === "relate";
      return assimilateRequest(kit, ctx, {
        matchRestatement: relate,
        relate,
        claim: input.claim === undefined ? undefined : typeof input.claim === "string" ? { text: input.claim } : input.claim,
        beliefId: input.beliefId,
        topic: input.topic,
        contextTags: input.contextTags,
        observedAt: input.observedAt,
        evidence: input.evidence.map((e) => ({
          sourceId: e.sourceId ?? null,
          tier: e.tier,
          relation: e.relation ?? (e.direction === "-" ? "REBUTS" : "SUPPORTS"),
          weight: e.weight,
          reasoning: e.reasoning ?? null,
          assessor: "caller",
        })),
      });
    },
  };
}

/**
 * Writes `request` in the caller's scope as one change-set, retried on a lost race. The request's readings (restatement
 * similarity, topic, the related beliefs' relations) are kept across its attempts (./kept-readings): a retry asks the
 * reader again only about beliefs whose text changed.
 */
export async function assimilateRequest(service: ServiceKit, ctx: CallerContext, request: AssimilateRequest): Promise<AssimilateResult> {
  const kit: ServiceKit = { ...service, config: { ...service.config, assessor: keptReadings(service.config.assessor) } };
  const { store, assessor, clock } = kit.config;
  const historyLimit = kit.config.headHistoryLimit ?? HEAD_HISTORY_LIMIT;
  const params = ctx.params.params;
  return kit.retry(ctx.scope.id, async () => {
    const now = clock.now();
    const observedAt = eventTimeOfWrite(request.observedAt, now);
    const changeSetId = kit.newId("changeset");
    // The claim's nearest live beliefs, ranked once and read as gists: restatement, topic and relation choose
    // among the same candidates, and only the beliefs the change-set writes are read with their histories.
    const nearest = request.claim ? nearestBeliefs(kit, ctx, request.claim.text) : () => Promise.resolve({ candidates: [], keyMatch: null });
    const candidates = async () => (await nearest()).candidates;
    let target: { existing: BeliefRecord } | { create: NewBeliefSpec; possibleDuplicate?: ReturnType<typeof possibleDuplicateItem> } | { head: BeliefHead };
    let found: AssimilateResult["match"] = null;
    let possibleDuplicate: AssimilateResult["possibleDuplicate"] = null;
    // The checkpoint rows a fold needs: those of the sources this write cites (a long history's fold reads no others).
    const headOptions = { historyLimit, checkpointSources: request.evidence.flatMap((e) => (e.sourceId === null ? [] : [e.sourceId])) };
    if (request.beliefId !== undefined) {
      const head = await store.loadBeliefHead(ctx.view, request.beliefId, headOptions);
      if (!head) throw itemNotFoundError("belief", request.beliefId, "beliefId");
      if (!isLiveStatus(head.belief.status)) throw notLiveError(request.beliefId, head.belief.status);
      target = targetOf(head);
      found = "id";
    } else {
      const claim = request.claim as NonNullable<AssimilateRequest["claim"]>;
      const key = beliefKey(claim.text);
      // With `relate` the candidates are read in any case: the same-key match comes in their statement.
      const match = request.relate ? (await nearest()).keyMatch : (await store.listBeliefs(ctx.view, { key, liveOnly: true, limit: 1 }))[0];
      const head = match ? await store.loadBeliefHead(ctx.view, match.id, headOptions) : null;
      const choice = head || !request.matchRestatement ? null : await restatementOf(kit, ctx, await candidates(), claim.text);
      const twinHead = choice?.action === "merge" ? await store.loadBeliefHead(ctx.view, choice.id, headOptions) : null;
      if (head) {
        target = targetOf(head);
        found = "key";
      } else if (twinHead) {
        target = targetOf(twinHead);
        found = "restatement";
      } else {
        // Topic by similarity needs only the candidates' texts and topics.
        const related = request.topic ? [] : await candidates();
        const topic = await assignTopic(
          {
            text: claim.text,
            requested: request.topic ?? null,
            liveBeliefs: related.map((b) => ({ id: b.id, text: b.text, topic: b.topic })),
            similarity: (a, b) => assessor.similarity(a, b),
          },
          params,
        );
        const id = kit.newId("belief");
        const other = choice?.action === "possible_duplicate" ? (await candidates()).find((b) => b.id === choice.id) : undefined;
        target = {
          create: { id, scope: ctx.scope.id, topic: topic.topic, text: claim.text, key, quantity: claim.quantity ?? null, contextTags: request.contextTags ?? [] },
        };
        if (other && choice?.action === "possible_duplicate") {
          // Kept apart, not sure: the new belief carries the link a reviewer decides (the "needs a reader" queue).
          target.possibleDuplicate = possibleDuplicateItem({ other, similarity: choice.similarity, reason: choice.reason, assessor: assessor.name, time: now, observedAt, actor: ctx.actor, changeSet: changeSetId });
          possibleDuplicate = { beliefId: id, otherBeliefId: other.id, score: choice.similarity };
        }
      }
    }
    // One resolution per cited source, shared by the claim's entries and those its related beliefs receive.
    const base = { evidence: request.evidence, resolver: new ResolutionCache(store.resolverFor(ctx.view)), params, time: now, observedAt, actor: ctx.actor, changeSetId };
    const targetId = "create" in target ? target.create.id : "head" in target ? target.head.belief.id : target.existing.belief.id;
    const related = request.relate && request.claim ? await relateClaim(kit, ctx, request.claim.text, await candidates(), targetId, request.evidence, base) : NOTHING_RELATED;
    const withRelated = (changeSet: ChangeSet) => (related.changeSet ? mergeChangeSets(changeSet, related.changeSet) : changeSet);
    const extra = { match: found, relations: related.relations, cascade: related.changes, possibleDuplicate };
    if ("head" in target) {
      // A long history: fold the new entries onto the stored checkpoint, or (no usable checkpoint, or an item that
      // rewrites an earlier entry) load the history and replay it, which stores a checkpoint for the next write.
      const folded = await assimilateOnCheckpoint({ ...base, head: target.head });
      if (!("fallback" in folded)) {
        await store.apply(withRelated(folded.changeSet));
        const lastSeq = folded.write.append.items.reduce((m, it) => Math.max(m, it.seq), target.head.lastSeq);
        // The answer carries the history (the API's contract): read after the commit, up to this write's last item.
        const stored = await store.loadBelief(ctx.view, folded.write.belief.id);
        const history = (stored?.history ?? []).filter((it) => it.seq <= lastSeq);
        return { belief: folded.write.belief, history, created: false, entries: folded.entries, changeSetId, ...extra };
      }
      const record = await store.loadBelief(ctx.view, target.head.belief.id);
      if (!record) throw itemNotFoundError("belief", target.head.belief.id, "beliefId");
      // Read again: it may have been superseded or retired since the head was checked.
      if (!isLiveStatus(record.belief.status)) throw notLiveError(record.belief.id, record.belief.status);
      target = { existing: record };
    }
    const result = await assimilateEvidence({ ...base, target });
    await store.apply(withRelated(result.changeSet));
    return { belief: result.write.record.belief, history: result.write.record.history, created: result.write.before === null, entries: result.entries, changeSetId, ...extra };
  });
}

const NOTHING_RELATED: { changeSet: ChangeSet | null; relations: AssimilateRelation[]; changes: BeliefChange[] } = { changeSet: null, relations: [], changes: [] };

/**
 * The claim read against the scope's other live beliefs, as ingest reads each claim of a text: the `relatedTopK` most
 * similar ones (similarity ≥ `relatedSimilarity`, the same restatement measure as the twin check) get the reader's
 * relation; each one that the claim supports, rebuts or qualifies receives an entry per source the caller cited in
 * support of the claim (same tier, weight × the reader's strength). Anonymous assertions and the caller's own
 * rebuttals are not carried over. Nothing is written here: the change-set joins the claim's own.
 */
async function relateClaim(
  kit: ServiceKit,
  ctx: CallerContext,
  claimText: string,
  candidates: readonly BeliefGist[],
  targetId: string,
  evidence: AssimilateRequest["evidence"],
  base: { resolver: ResolutionCache; params: CallerContext["params"]["params"]; time: string; observedAt: string; actor: string; changeSetId: string },
): Promise<typeof NOTHING_RELATED> {
  const cited = evidence.filter((e) => e.sourceId !== null && e.relation === "SUPPORTS");
  if (cited.length === 0) return NOTHING_RELATED;
  const { store, assessor } = kit.config;
  const params = base.params;
  const others = candidates.filter((b) => b.id !== targetId && isLiveStatus(b.status));
  const scored: { belief: BeliefGist; similarity: number }[] = [];
  for (const belief of others) scored.push({ belief, similarity: await assessor.similarity(claimText, belief.text) });
  const nearest = scored
    .filter((s) => s.similarity >= params.relatedSimilarity)
    .sort((a, b) => b.similarity - a.similarity || (a.belief.id < b.belief.id ? -1 : 1))
    .slice(0, params.relatedTopK);
  const read: { belief: BeliefGist; reading: Omit<AssimilateRelation, "beliefId" | "text">; sources: typeof cited }[] = [];
  for (const { belief: b, similarity } of nearest) {
    const reading = await assessor.assessRelation(claimText, { id: b.id, text: b.text, contextTags: b.contextTags });
    if (reading.relation === "UNRELATED" || reading.relation === "UNDECIDED") continue;
    const strength = Math.min(1, Math.max(0, Number.isFinite(reading.strength) ? reading.strength : 0));
    // A belief never cites itself: a source that is the related belief stays out.
    const sources = cited.filter((e) => e.sourceId !== b.id);
    if (strength <= 0 || sources.length === 0) continue;
    read.push({ belief: b, reading: { relation: reading.relation, strength, similarity, reasoning: reading.reasoning, assessor: reading.assessor }, sources });
  }
  if (read.length === 0) return NOTHING_RELATED;
  // Only the beliefs that receive entries are written: each folded onto its checkpoint (the heads read in one round trip,
  // with the rows of the cited sources, no history), read with its history only when the fold cannot take the entries
  // (one round trip for those). One that stopped being live since it was ranked is left alone.
  const entriesFor = ({ reading, sources }: (typeof read)[number]) =>
    sources.map((e) => ({ sourceId: e.sourceId, tier: e.tier, relation: reading.relation, weight: e.weight * reading.strength, reasoning: reading.reasoning, assessor: reading.assessor }));
  const checkpointSources = [...new Set(cited.flatMap((e) => (e.sourceId === null ? [] : [e.sourceId])))];
  const heads = await store.loadBeliefHeads(ctx.view, read.map((r) => r.belief.id), { historyLimit: 0, checkpointSources });
  const written = new Map<string, { before: Belief; changeSet: ChangeSet; after: Belief }>();
  const unfolded: string[] = [];
  for (const r of read) {
    const head = heads.get(r.belief.id);
    if (!head || !isLiveStatus(head.belief.status)) continue;
    const folded = await assimilateOnCheckpoint({ ...base, head, evidence: entriesFor(r) });
    if ("fallback" in folded) unfolded.push(r.belief.id);
    else written.set(r.belief.id, { before: head.belief, changeSet: folded.changeSet, after: folded.write.belief });
  }
  const records = unfolded.length === 0 ? new Map<string, BeliefRecord>() : new Map((await store.loadBeliefs(ctx.view, unfolded)).map((r) => [r.belief.id, r]));
  for (const r of read) {
    const record = records.get(r.belief.id);
    if (!record || !isLiveStatus(record.belief.status)) continue;
    const whole = await assimilateEvidence({ ...base, target: { existing: record }, evidence: entriesFor(r) });
    written.set(r.belief.id, { before: record.belief, changeSet: whole.changeSet, after: whole.write.record.belief });
  }
  let changeSet: ChangeSet | null = null;
  const relations: AssimilateRelation[] = [];
  const changes: BeliefChange[] = [];
  for (const { belief: b, reading } of read) {
    const w = written.get(b.id);
    if (!w) continue;
    changeSet = changeSet === null ? w.changeSet : mergeChangeSets(changeSet, w.changeSet);
    relations.push({ beliefId: b.id, text: b.text, ...reading });
    changes.push(beliefChange(w.before, w.after, false));
  }
  return { changeSet, relations, changes };
}

/** The write target for a loaded head: the record when its history came with it, else the head itself. */
function targetOf(head: BeliefHead): { existing: BeliefRecord } | { head: BeliefHead } {
  return head.history !== null ? { existing: { belief: head.belief, history: head.history } } : { head };
}

/**
 * What the write policy (`restatementPolicy`) makes of `text` and the live beliefs of the home scope among
 * `candidates` (ordered by id, so ties go to the lowest id): the belief it surely restates (merge), the one it may
 * duplicate (kept apart and linked), or null.
 */
async function restatementOf(kit: ServiceKit, ctx: CallerContext, candidates: readonly BeliefGist[], text: string): Promise<RestatementChoice> {
  const scored: { id: string; text: string; similarity: number }[] = [];
  for (const b of candidates) {
    if (!isLiveStatus(b.status)) continue;
    scored.push({ id: b.id, text: b.text, similarity: await kit.config.assessor.similarity(text, b.text) });
  }
  return restatementPolicy(text, scored, ctx.params.params);
}

/**
 * The `RESTATEMENT_CANDIDATES` beliefs of the home scope ranked nearest `text`, as gists ordered by id, and the live
 * home-scope belief with the text's key (`beliefKey`), read in the same statement; ranked and read on the first call
 * only. Every check among them reads a candidate's text, topic, tags and status; the beliefs the change-set writes are
 * read again, whole.
 */
function nearestBeliefs(kit: ServiceKit, ctx: CallerContext, text: string): () => Promise<{ candidates: readonly BeliefGist[]; keyMatch: BeliefGist | null }> {
  let found: Promise<{ candidates: readonly BeliefGist[]; keyMatch: BeliefGist | null }> | null = null;
  const key = beliefKey(text);
  return () =>
    (found ??= (async () => {
      const { ranked } = await kit.rank(ctx.view, text, { k: RESTATEMENT_CANDIDATES, lexicalCandidates: RESTATEMENT_LEXICAL_POOL, scope: ctx.scope.id });
      const { gists, keyMatch } = await kit.config.store.beliefGists(ctx.view, ranked.map((r) => r.candidate.id), { orLiveKey: key });
      const candidates = [...gists].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      // Restatement and topic compare the claim with each candidate: their stored vectors spare embedding their texts.
      kit.primeVectors(ctx.view, candidates);
      return { candidates, keyMatch };
    })());
}
