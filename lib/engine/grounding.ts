/**
 * Grounding propagation and retraction (docs/design.md §4.2): a system-level maintenance traversal across scopes.
 *
 * A belief is *grounded* when it is live and holds a live real support that bottoms out in Evidence: directly, or
 * through a citation of a grounded belief (least fixed point, so a citation cycle whose root evidence is gone is
 * ungrounded as a whole). When beliefs change (retraction, contraction, supersession, retirement), every belief
 * reachable from them over citations that is not grounded by evidence is explored; those left ungrounded get a
 * `stripped` event on every live, non-laundered entry citing them, which in turn is what makes their citers lose
 * support. Stripping is permanent: regaining support does not restore old citations.
 *
 * Everything is iterative (explicit queues and stacks): a 10 000-long chain or a dense 1 000-node cycle uses no
 * call-stack depth. A dry run computes exactly the same result; the engine never writes either way.
 */
import type { ChangeSet } from "./change-set";
import { changeSetOf, writeBelief, type BeliefWrite, type UnsequencedItem } from "./assimilate";
import type { BeliefRecord, BeliefStatus, EvidenceEntry, IsoTime } from "./model";
import type { EngineParams } from "./params";
import type { CitationIndex, CitationRef } from "./ports";
import { isGrounded, isLive, replay, type ReplayState } from "./replay";

export interface CascadeContext {
  index: CitationIndex;
  /** The parameters a belief's replay uses, by its recorded `paramsVersion`. */
  paramsFor: (paramsVersion: string) => EngineParams;
  /** From the server's clock. */
  time: IsoTime;
  actor: string;
  changeSetId: string;
}

export interface CascadeOptions {
  /** Compute and report without the intent to write (the result is identical; `dryRun` is echoed). */
  dryRun?: boolean;
}

export interface TouchedBelief {
  beliefId: string;
  scope: string;
  retractedSeqs: number[];
  strippedSeqs: number[];
  groundedBefore: boolean;
  groundedAfter: boolean;
  credenceBefore: number;
  credenceAfter: number;
  statusBefore: BeliefStatus;
  statusAfter: BeliefStatus;
}

export interface CascadeResult {
  dryRun: boolean;
  changeSet: ChangeSet;
  /** Every belief that receives events, in first-touch order. */
  touched: TouchedBelief[];
  /** Beliefs the traversal reached that end without grounding (their citing entries were stripped), in reach order. */
  ungrounded: string[];
  writes: BeliefWrite[];
}

interface Work {
  base: BeliefRecord;
  items: UnsequencedItem[];
  removed: Set<number>;
  entries: Map<number, EvidenceEntry>;
  retractedSeqs: number[];
  strippedSeqs: number[];
  before: ReplayState;
  params: EngineParams;
}

class CascadeState {
  readonly work = new Map<string, Work>();
  readonly order: string[] = [];
  constructor(readonly ctx: CascadeContext) {}

  async get(beliefId: string, given?: BeliefRecord): Promise<Work | null> {
    const existing = this.work.get(beliefId);
    if (existing) return existing;
    const base = given ?? (await this.ctx.index.load(beliefId));
    if (!base) return null;
    const params = this.ctx.paramsFor(base.belief.paramsVersion);
    const removed = new Set<number>();
    const entries = new Map<number, EvidenceEntry>();
    for (const it of base.history) {
      if (it.type === "retracted" || it.type === "stripped") removed.add(it.targetSeq);
      else if (it.type === "entry") entries.set(it.seq, it);
    }
    const w: Work = { base, items: [], removed, entries, retractedSeqs: [], strippedSeqs: [], before: replay(base.history, params), params };
    this.work.set(beliefId, w);
    this.order.push(beliefId);
    return w;
  }

  /** The belief's history with this cascade's pending events, replayed. */
  current(w: Work): ReplayState {
    if (w.items.length === 0) return w.before;
    let seq = w.base.history.reduce((m, it) => Math.max(m, it.seq), 0);
    const pending = w.items.map((it) => ({ ...it, seq: ++seq }));
    return replay([...w.base.history, ...pending], w.params);
  }

  /**
   * Whether an entry can receive a cascade event: live, and its source resolved at assimilation. Entries whose source
   * did not resolve in the citer's view cite a placeholder, never the item itself, so they get no events (§4.2).
   */
  isLiveEntry(w: Work, seq: number): { live: boolean; laundered: boolean } {
    if (w.removed.has(seq)) return { live: false, laundered: false };
    const entry = w.entries.get(seq);
    if (!entry || entry.sourceKind === null) return { live: false, laundered: false };
    return { live: true, laundered: entry.launderingReason !== null };
  }
}

/**
 * Retract a source (docs/design.md §4.2): a `retracted` event on every live entry citing `sourceId`, then grounding
 * propagation. Authorisation (editor of the source's own scope; 403 vs not-found) is the service's job before this.
 * The change-set also marks the Evidence item retracted (a store ignores the mark when `sourceId` is not Evidence).
 * State after retract(s) equals the replay of each history with s's entries removed.
 */
export async function retract(sourceId: string, ctx: CascadeContext, options: CascadeOptions = {}): Promise<CascadeResult> {
  const state = new CascadeState(ctx);
  const refs = await ctx.index.citersOf(sourceId);
  for (const ref of sortedRefs(refs)) {
    const w = await state.get(ref.beliefId);
    if (!w) continue;
    const { live } = state.isLiveEntry(w, ref.seq);
    if (!live) continue;
    w.removed.add(ref.seq);
    w.retractedSeqs.push(ref.seq);
    w.items.push({ type: "retracted", targetSeq: ref.seq, sourceId, time: ctx.time, actor: ctx.actor, changeSet: ctx.changeSetId });
  }
  const result = await cascade(state, [...state.order], options);
  return {
    ...result,
    changeSet: { ...result.changeSet, retractions: [{ evidenceId: sourceId, retractedAt: ctx.time }] },
  };
}

/**
 * Propagate grounding changes from beliefs that just changed (`changed` are their records *after* the change, e.g.
 * a superseded or contracted belief). Returns the stripping cascade as its own change-set: merge it into the
 * request's change-set with `mergeChangeSets(requestChangeSet, result.changeSet)`.
 */
export async function propagateGrounding(
  changed: readonly BeliefRecord[],
  ctx: CascadeContext,
  options: CascadeOptions = {},
): Promise<CascadeResult> {
  const state = new CascadeState(ctx);
  for (const rec of changed) await state.get(rec.belief.id, rec);
  return cascade(state, changed.map((r) => r.belief.id), options);
}

function sortedRefs(refs: readonly CitationRef[]): CitationRef[] {
  return [...refs].sort((a, b) => (a.beliefId < b.beliefId ? -1 : a.beliefId > b.beliefId ? 1 : a.seq - b.seq));
}

async function cascade(state: CascadeState, start: readonly string[], options: CascadeOptions): Promise<CascadeResult> {
  const ctx = state.ctx;
  // 1. Explore: from the changed beliefs, over citers, through every belief not grounded directly by Evidence.
  const explored = new Map<string, ReplayState>();
  const citersOf = new Map<string, CitationRef[]>();
  const queue: string[] = [...start];
  const queued = new Set<string>(queue);
  for (let head = 0; head < queue.length; head++) {
    const id = queue[head] as string;
    const w = await state.get(id);
    if (!w) continue;
    const st = state.current(w);
    explored.set(id, st);
    const evidenceGrounded = isLive(st) && st.realSupports.some((r) => r.sourceKind === "evidence");
    if (evidenceGrounded) continue;
    const refs = sortedRefs(await ctx.index.citersOf(id));
    citersOf.set(id, refs);
    for (const ref of refs) {
      if (queued.has(ref.beliefId)) continue;
      queued.add(ref.beliefId);
      queue.push(ref.beliefId);
    }
  }

  // 2. Least fixed point of groundedness over the explored beliefs. A citation of a belief outside the explored
  //    set is grounding: that belief was not reached, so its grounding did not change.
  const grounded = new Set<string>();
  const dependents = new Map<string, string[]>();
  const work: string[] = [];
  for (const [id, st] of explored) {
    if (!isLive(st)) continue;
    let seed = false;
    for (const r of st.realSupports) {
      if (r.sourceKind === "belief" && explored.has(r.sourceId)) {
        const list = dependents.get(r.sourceId) ?? [];
        list.push(id);
        dependents.set(r.sourceId, list);
      } else seed = true;
    }
    if (seed) {
      grounded.add(id);
      work.push(id);
    }
  }
  while (work.length > 0) {
    const id = work.pop() as string;
    for (const dep of dependents.get(id) ?? []) {
      if (grounded.has(dep)) continue;
      grounded.add(dep);
      work.push(dep);
    }
  }

  // 3. Strip every live, non-laundered entry citing an ungrounded explored belief.
  for (const [id] of explored) {
    if (grounded.has(id)) continue;
    for (const ref of citersOf.get(id) ?? []) {
      const w = await state.get(ref.beliefId);
      if (!w) continue;
      const { live, laundered } = state.isLiveEntry(w, ref.seq);
      if (!live || laundered) continue;
      w.removed.add(ref.seq);
      w.strippedSeqs.push(ref.seq);
      w.items.push({ type: "stripped", targetSeq: ref.seq, citedBeliefId: id, time: ctx.time, actor: ctx.actor, changeSet: ctx.changeSetId });
    }
  }

  // 4. One write per touched belief.
  const writes: BeliefWrite[] = [];
  const touched: TouchedBelief[] = [];
  for (const id of state.order) {
    const w = state.work.get(id) as Work;
    if (w.items.length === 0) continue;
    const write = writeBelief(w.base, w.items, w.params, ctx.time, false);
    writes.push(write);
    touched.push({
      beliefId: id,
      scope: w.base.belief.scope,
      retractedSeqs: w.retractedSeqs,
      strippedSeqs: w.strippedSeqs,
      groundedBefore: isGrounded(w.before),
      groundedAfter: isGrounded(write.state),
      credenceBefore: w.before.credence,
      credenceAfter: write.state.credence,
      statusBefore: w.before.status,
      statusAfter: write.state.status,
    });
  }
  const ungrounded = [...explored.keys()].filter((id) => !grounded.has(id));
  return {
    dryRun: options.dryRun === true,
    changeSet: changeSetOf(writes, ctx.changeSetId, ctx.actor, ctx.time),
    touched,
    ungrounded,
    writes,
  };
}

