/**
 * Read services (viewer): everything is anchored on the URL's scope through the caller's view; stored beliefs are
 * reported as stored, "as of" reads are replayed from the history up to that time.
 */
import {
  HYBRID_ANSWER_FLOOR,
  closestWords,
  eventTime,
  wordCheckPlan,
  rankByRelevance,
  type Belief,
  type BeliefRecord,
  type EngineParams,
  type MutationRecord,
  type ScopeView,
  type Standing,
  type StandingBelief,
  isLiveStatus,
  replayWithStanding,
  standingOfHead,
  openReadings,
} from "@/lib/engine";
import { recall as recallAnswer, type RecallCandidate } from "@/lib/engine/recall";
import { checkReplay, derivedFields, replay } from "@/lib/engine/replay";
import type { GraphEdge, GraphSlice, ScopeExport } from "@/lib/graph/graph-store";
import { entryEdgeSource } from "@/lib/graph/graph-store";
import { LEXICAL_CANDIDATES_MIN } from "@/lib/retrieval/hybrid-search";
import {
  getBeliefInputSchema,
  getEvidenceInputSchema,
  getMutationInputSchema,
  graphExpandInputSchema,
  graphInputSchema,
  graphOverviewInputSchema,
  listBeliefsInputSchema,
  listMutationsInputSchema,
  recallInputSchema,
  replayCheckInputSchema,
  retrieveInputSchema,
} from "./belief-schemas";
import { itemNotFoundError } from "@/lib/errors/belief-service-error";
import type { BeliefDetail, BeliefServices, ReplayCheckResult, ScopeOverview } from "./belief-services";
import type { CallerContext } from "./caller-context";
import type { ServiceKit } from "./service-kit";
import { parseServiceInput } from "@/lib/errors/belief-service-error";

type ReadServices = Pick<
  BeliefServices,
  | "retrieve"
  | "recall"
  | "getBelief"
  | "listBeliefs"
  | "getEvidence"
  | "listMutations"
  | "getMutation"
  | "overview"
  | "graph"
  | "graphOverview"
  | "graphExpand"
  | "replayCheck"
>;

/**
 * Candidates (best by relevance × credence over the whole matching domain) read for recall, as belief rows: the engine
 * keeps the top k (≤ 50) after following SUPERSEDES chains, so more would only cost round trips.
 */
const MAX_RECALL_CANDIDATES = 50;
/**
 * The best lexical candidates today's recall starts from (hybrid-search's `lexicalPool` would take 100 for its 50):
 * with the real model on text written by others (research/measure-candidate-pools.ts, mode recall, 300 questions),
 * its 50 from 50 are 99.6 % of its 50 from 100 and its top 10 the same, in the same order, for every question, for
 * 17 % fewer rows and 13 % less CPU a ranking.
 */
const RECALL_LEXICAL_POOL = LEXICAL_CANDIDATES_MIN;
/**
 * An `asOf` search or recall: the candidates (best by relevance × today's credence, ended beliefs included) that are
 * replayed to that time and ranked again by their credence then. Relevance does not change with time; a belief whose
 * credence was much higher then than now can only be missed when more than this many rank above it today.
 */
const AS_OF_CANDIDATES = 200;
/** Home beliefs whose cross-scope citations the whole-scope graph resolves into reference nodes. */
const MAX_REFERENCE_CITERS = 500;

/** Recall's word checks per question at most (`closestWordsOf`): one model run each, ~3 ms of CPU. */
const WORD_CHECKS = 8;

export function readServices(kit: ServiceKit): ReadServices {
  const { store, assessor } = kit.config;

  async function paramsOf(ctx: CallerContext, belief: Belief): Promise<EngineParams> {
    return (await kit.params.byParamsVersion(ctx.scope.id, belief.paramsVersion)) ?? ctx.params.params;
  }

  /**
   * Beliefs with their standings (recall's `loadStandings`): from their fold checkpoints in one read, without the
   * histories (`beliefStandings`); a belief whose checkpoint cannot give it (missing, stale, of an older format, or
   * made with other parameters) is loaded whole and replayed.
   */
  async function standingsOf(view: ScopeView, ids: readonly string[], params: EngineParams): Promise<{ belief: StandingBelief; standing: Standing }[]> {
    const heads = await store.beliefStandings(view, ids);
    const out: { belief: StandingBelief; standing: Standing }[] = [];
    const whole: string[] = [];
    for (const id of ids) {
      const head = heads.get(id);
      if (!head) continue;
      const standing = standingOfHead(head, params);
      if (standing) out.push({ belief: head.belief, standing });
      else whole.push(id);
    }
    if (whole.length === 0) return out;
    for (const r of await store.loadBeliefs(view, whole)) out.push({ belief: r.belief, standing: replayWithStanding(r.history, params).standing });
    return out;
  }

  /**
   * `closestWords` of the question and each candidate relevant by meaning only just (`wordCheckOf`; over the question's
   * words the candidate does not contain): recall's test of whether it is about the question at all. Undefined when
   * the embedder has no word vectors. Each checked text costs one model run (a stored belief's word vectors are not
   * kept), so at most WORD_CHECKS of them, the closest by cosine, are checked; the others in that band are left out of
   * the answer (-1: no close word), as a check would most often have left them.
   */
  async function closestWordsOf(question: string, beliefs: readonly { id: string; text: string }[], semantic: ReadonlyMap<string, number>): Promise<Map<string, number> | undefined> {
    const embedder = kit.matcher?.embedder;
    if (embedder?.words === undefined) return undefined;
    const { check, unchecked, checks } = wordCheckPlan(question, beliefs, (b) => semantic.get(b.id) ?? 0, WORD_CHECKS);
    if (check.length === 0) return new Map();
    const [asked = [], ...texts] = await embedder.words([question, ...check.map((b) => b.text)]);
    const closest = new Map(check.map((b, i) => [b.id, closestWords(asked, texts[i] ?? [], checks.get(b.id)?.shared)]));
    for (const b of unchecked) closest.set(b.id, -1);
    return closest;
  }

  return {
    async retrieve(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(retrieveInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      if (input.asOf !== undefined) {
        const { ranked } = await kit.rank(ctx.view, input.q, { k: AS_OF_CANDIDATES, scope: ctx.scope.id, includeEnded: true });
        const past = await beliefsAsOf(ctx, ranked.map((r) => r.candidate.id), input.asOf);
        const scored = ranked.flatMap((r) => {
          const belief = past.beliefs.get(r.candidate.id);
          return belief ? [{ belief, relevance: r.relevance }] : [];
        });
        return rankByRelevance(scored, { k: input.k, minCredence: input.minCredence, includeEnded: input.includeEnded, asOf: input.asOf });
      }
      // The whole candidate domain is ranked on slim rows (the engine's filters and formula), then the top k read as
      // belief rows: a search answers beliefs, not their histories, so none is loaded.
      const { ranked } = await kit.rank(ctx.view, input.q, {
        k: input.k,
        minCredence: input.minCredence,
        scope: ctx.scope.id,
        includeEnded: input.includeEnded,
      });
      const ids = ranked.map((r) => r.candidate.id);
      const beliefs = new Map((ids.length === 0 ? [] : await store.listBeliefs(ctx.view, { ids, liveOnly: false })).map((b) => [b.id, b]));
      return ranked.flatMap((r) => {
        const belief = beliefs.get(r.candidate.id);
        return belief ? [{ belief, relevance: r.relevance, score: r.score }] : [];
      });
    },

    async recall(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(recallInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      const params = ctx.params.params;
      const asOf = input.asOf;
      // Rank the whole domain once (ended beliefs included: their chains lead to live ends), keep the best. As of a
      // time: the histories up to then (the engine replays them), so the answer is what was believed then.
      const { ranked, semantic } = await kit.rank(
        ctx.view,
        input.q,
        asOf ? { k: AS_OF_CANDIDATES, includeEnded: true, scope: ctx.scope.id } : { k: MAX_RECALL_CANDIDATES, lexicalCandidates: RECALL_LEXICAL_POOL, includeEnded: true, scope: ctx.scope.id },
      );
      const cut = asOf ? { asOf } : {};
      const ids = ranked.map((r) => r.candidate.id);
      // Today's recall ranks the candidates on their gists (text, stored credence and status) and loads the beliefs that
      // answer only, whole; as of a time, every candidate is replayed to it.
      const candidates: readonly RecallCandidate[] = asOf
        ? await store.loadBeliefs(ctx.view, ids, cut)
        : await store.beliefGists(ctx.view, ids).then(({ gists }) => {
            const byId = new Map(gists.map((g) => [g.id, g]));
            return ids.flatMap((id) => {
              const belief = byId.get(id);
              return belief ? [{ belief }] : [];
            });
          });
      const closest = semantic ? await closestWordsOf(input.q, candidates.map((c) => c.belief), semantic) : undefined;
      return recallAnswer(
        {
          question: input.q,
          candidates,
          load: (id) => store.loadBelief(ctx.view, id, cut),
          loadRecords: (beliefIds) => store.loadBeliefs(ctx.view, beliefIds, cut),
          ...(asOf ? {} : { loadStandings: (beliefIds: readonly string[]) => standingsOf(ctx.view, beliefIds, params) }),
          assessor,
          k: input.k,
          evidenceText: async (id) => (await store.loadEvidence(ctx.view, id))?.text ?? null,
          ...(semantic ? { semantic, minRelevance: HYBRID_ANSWER_FLOOR } : {}),
          ...(closest ? { closestWords: closest } : {}),
        },
        params,
      );
    },

    async getBelief(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(getBeliefInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      const record = await store.loadBelief(ctx.view, input.beliefId, input.asOf ? { asOf: input.asOf } : {});
      if (!record) throw itemNotFoundError("belief", input.beliefId, "beliefId");
      return detailOf(ctx, record, input.asOf ?? null);
    },

    async listBeliefs(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(listBeliefsInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      const beliefs = await store.listBeliefs(ctx.view, {
        liveOnly: input.liveOnly,
        topic: input.topic,
        reviewState: input.reviewState,
        afterId: input.afterId,
        limit: input.status ? undefined : input.limit,
      });
      return input.status ? beliefs.filter((b) => b.status === input.status).slice(0, input.limit) : beliefs;
    },

    async getEvidence(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(getEvidenceInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      const evidence = await store.loadEvidence(ctx.view, input.evidenceId);
      if (!evidence) throw itemNotFoundError("evidence", input.evidenceId, "evidenceId");
      return evidence;
    },

    async listMutations(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(listMutationsInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      return store.listMutations(ctx.view, input);
    },

    async getMutation(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(getMutationInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      const id = input.mutationId;
      const mutation = await store.getMutation(ctx.view, id);
      if (!mutation) throw itemNotFoundError("mutation", id, "mutationId");
      return mutation;
    },

    async overview(caller, scopeSlug) {
      const ctx = await kit.context(caller, scopeSlug, "read");
      const [beliefs, counts, freezes, params] = await Promise.all([
        store.listBeliefs(ctx.view, { liveOnly: false }),
        store.countMutations(ctx.view),
        store.listTopicFreezes(ctx.view, { frozenOnly: true }),
        ctx.params,
      ]);
      const byStatus: Record<Belief["status"], number> = { provisional: 0, supported: 0, canonical: 0, disputed: 0, superseded: 0, retired: 0, contracted: 0 };
      let live = 0;
      let tensionSum = 0;
      for (const b of beliefs) {
        byStatus[b.status] += 1;
        if (isLiveStatus(b.status)) {
          live += 1;
          tensionSum += b.tension;
        }
      }
      const overview: ScopeOverview = {
        scope: ctx.scope.slug,
        beliefs: beliefs.length,
        live,
        byStatus,
        meanTension: live === 0 ? 0 : tensionSum / live,
        pendingReview: counts.pending_review,
        frozenTopics: freezes.length,
        paramsVersion: params.paramsVersion,
      };
      return overview;
    },

    async graph(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(graphInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      if (input.nodeId) {
        const slice = await store.neighbourhood(ctx.view, input.nodeId, { depth: input.depth, maxNodes: input.maxNodes, asOf: input.asOf });
        return input.asOf ? await replaySliceAsOf(ctx, slice, input.asOf) : slice;
      }
      const data = await store.exportScope(ctx.view, input.asOf ? { asOf: input.asOf } : {});
      const slice = sliceOfExport(data, input.asOf ? await asOfParams(ctx, data.beliefs, input.asOf) : null);
      return withReferences(ctx, data, slice, input.asOf);
    },

    async graphOverview(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(graphOverviewInputSchema, rawInput ?? {});
      const ctx = await kit.context(caller, scopeSlug, "read");
      const map = await store.graphOverview(ctx.view, { notable: input.notable });
      return { scope: ctx.scope.slug, beliefs: map.topics.reduce((sum, t) => sum + t.beliefs, 0), ...map };
    },

    async graphExpand(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(graphExpandInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      if (input.belief !== undefined) {
        const slice = await store.neighbourhood(ctx.view, input.belief, { depth: input.depth, maxNodes: input.maxNodes });
        return { ...slice, next: null };
      }
      // One more than the page tells whether another follows.
      const found = await store.listBeliefs(ctx.view, { liveOnly: false, topic: input.topic, afterId: input.afterId, limit: input.limit + 1 });
      const beliefs = found.slice(0, input.limit);
      const edges = await store.beliefLinks(ctx.view, beliefs.map((b) => b.id));
      return { beliefs, evidence: [], mutations: [], edges, next: found.length > input.limit ? (beliefs.at(-1)?.id ?? null) : null };
    },

    async replayCheck(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(replayCheckInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      const ids = input.beliefId ? [input.beliefId] : (await store.listBeliefs(ctx.view, { liveOnly: false })).map((b) => b.id);
      const result: { checked: number; mismatches: ReplayCheckResult["mismatches"][number][] } = { checked: 0, mismatches: [] };
      for (let i = 0; i < ids.length; i += 200) {
        const records = await store.loadBeliefs(ctx.view, ids.slice(i, i + 200));
        for (const { belief, history } of records) {
          result.checked += 1;
          const params = await kit.params.byParamsVersion(ctx.scope.id, belief.paramsVersion);
          if (!params) {
            result.mismatches.push({ beliefId: belief.id, mismatches: [{ field: "paramsVersion", stored: belief.paramsVersion, replayed: null }] });
            continue;
          }
          const check = checkReplay(belief, history, params);
          if (!check.ok) result.mismatches.push({ beliefId: belief.id, mismatches: check.mismatches });
        }
      }
      if (input.beliefId && result.checked === 0) throw itemNotFoundError("belief", input.beliefId, "beliefId");
      return { scope: ctx.scope.slug, checked: result.checked, ok: result.mismatches.length === 0, mismatches: result.mismatches };
    },
  };

  async function detailOf(ctx: CallerContext, record: BeliefRecord, asOf: string | null): Promise<BeliefDetail> {
    const params = await paramsOf(ctx, record.belief);
    const state = replay(record.history, params, { timeline: true, ...(asOf ? { asOf } : {}) });
    const belief: Belief = asOf ? { ...record.belief, ...derivedFields(state) } : record.belief;
    const mutations: readonly MutationRecord[] = await store.listMutations(ctx.view, { beliefId: belief.id, newestFirst: true, ...(asOf ? { asOf } : {}) });
    const supersedes: Belief[] = [];
    const seen = new Set<string>([belief.id]);
    let next = belief.supersedesId;
    while (next && !seen.has(next) && supersedes.length < 100) {
      seen.add(next);
      const older = await store.loadBelief(ctx.view, next, asOf ? { asOf } : {});
      if (!older) break;
      supersedes.push(older.belief);
      next = older.belief.supersedesId;
    }
    let supersededBy: Belief | null = null;
    for (let i = record.history.length - 1; i >= 0; i--) {
      const item = record.history[i];
      // A reinstatement after the supersession undid it: no successor to show.
      if (item?.type === "reinstated") break;
      if (item?.type === "superseded" && item.byBeliefId) {
        supersededBy = (await store.loadBelief(ctx.view, item.byBeliefId, asOf ? { asOf } : {}))?.belief ?? null;
        break;
      }
    }
    const openLinks = openReadings(record.history, asOf ?? undefined);
    return { belief, history: record.history, entries: state.entries, timeline: state.timeline, mutations, supersedes, supersededBy, asOf, openReadings: openLinks };
  }

  /**
   * Items of other scopes that home beliefs cite and the caller may resolve (granted or public), as reference nodes
   * with their entry edges (docs/design.md §5: the URL's scope only, plus cited items shown as references). Each citing belief's
   * one-hop neighbourhood comes from the store, which filters every node through the view.
   */
  async function withReferences(ctx: CallerContext, data: ScopeExport, slice: GraphSlice, asOf: string | undefined): Promise<GraphSlice> {
    const local = new Set<string>([...slice.beliefs.map((b) => b.id), ...slice.evidence.map((e) => e.id), ...slice.mutations.map((m) => m.id)]);
    const citing = data.beliefs
      .filter(({ history }) => history.some((i) => i.type === "entry" && i.sourceKind !== null && i.sourceId !== null && !local.has(i.sourceId)))
      .map((r) => r.belief.id)
      .slice(0, MAX_REFERENCE_CITERS);
    if (citing.length === 0) return slice;
    const beliefs = [...slice.beliefs];
    const evidence = [...slice.evidence];
    const edges = [...slice.edges];
    const added = new Set<string>();
    for (const id of citing) {
      const hood = await store.neighbourhood(ctx.view, id, { depth: 1, ...(asOf ? { asOf } : {}) });
      const isReference = (node: { id: string; scope: string }) => node.scope !== ctx.scope.id && !local.has(node.id) && !added.has(node.id);
      for (const b of hood.beliefs) {
        if (!isReference(b)) continue;
        added.add(b.id);
        beliefs.push(b);
      }
      for (const e of hood.evidence) {
        if (!isReference(e)) continue;
        added.add(e.id);
        evidence.push(e);
      }
      for (const e of hood.edges) if (e.to === id && added.has(e.from)) edges.push(e);
    }
    return { ...slice, beliefs, evidence, edges };
  }

  async function asOfParams(ctx: CallerContext, records: readonly BeliefRecord[], asOf: string): Promise<Map<string, Belief>> {
    const out = new Map<string, Belief>();
    for (const r of records) {
      const state = replay(r.history, await paramsOf(ctx, r.belief), { asOf });
      out.set(r.belief.id, { ...r.belief, ...derivedFields(state) });
    }
    return out;
  }

  /**
   * The `asOf` machinery of every read (belief, graph, search, recall): the beliefs among `ids` that existed then (the
   * store cuts histories and beliefs by event time), each replayed to that time.
   */
  async function beliefsAsOf(ctx: CallerContext, ids: readonly string[], asOf: string): Promise<{ records: readonly BeliefRecord[]; beliefs: Map<string, Belief> }> {
    const records = await store.loadBeliefs(ctx.view, ids, { asOf });
    return { records, beliefs: await asOfParams(ctx, records, asOf) };
  }

  async function replaySliceAsOf(ctx: CallerContext, slice: GraphSlice, asOf: string): Promise<GraphSlice> {
    const ids = slice.beliefs.filter((b) => b.scope === ctx.scope.id).map((b) => b.id);
    const { beliefs: replayed } = await beliefsAsOf(ctx, ids, asOf);
    return { ...slice, beliefs: slice.beliefs.map((b) => replayed.get(b.id) ?? b) };
  }
}

/** The whole scope as a graph: entry edges rebuilt from histories (live = not retracted or stripped). */
export function sliceOfExport(data: ScopeExport, replayed: ReadonlyMap<string, Belief> | null): GraphSlice {
  const nodeIds = new Set<string>([...data.beliefs.map((b) => b.belief.id), ...data.evidence.map((e) => e.id), ...data.mutations.map((m) => m.id)]);
  const edges: GraphEdge[] = [];
  for (const { belief, history } of data.beliefs) {
    const removed = new Set<number>();
    for (const item of history) if (item.type === "retracted" || item.type === "stripped") removed.add(item.targetSeq);
    for (const item of history) {
      if (item.type !== "entry") continue;
      const from = entryEdgeSource(belief.scope, item.sourceId, item.sourceKind);
      if (from === null || !nodeIds.has(from)) continue;
      edges.push({ kind: item.relation, from, to: belief.id, beliefId: belief.id, seq: item.seq, live: !removed.has(item.seq), time: eventTime(item), changeSet: item.changeSet });
    }
  }
  for (const e of data.edges) {
    if (!nodeIds.has(e.from) || !nodeIds.has(e.to)) continue;
    edges.push({ kind: e.kind, from: e.from, to: e.to, beliefId: null, seq: null, live: true, time: e.time, changeSet: e.changeSet });
  }
  return {
    beliefs: data.beliefs.map((b) => replayed?.get(b.belief.id) ?? b.belief),
    evidence: data.evidence,
    mutations: data.mutations,
    edges,
  };
}
