/**
 * Recall with disagreement (docs/design.md §4.6, memnode): "what do we believe about X, and where do we disagree?"
 *
 * 1. Candidates (a store's full-text matches in the URL's scope: belief rows, with or without their histories) are
 *    followed along `SUPERSEDES` to the live end of each chain (through the caller's loader, cycle-safe), then ranked
 *    by the shared scorer
 *    (relevance × credence, `retrieve`). Beliefs at or under `minRelevance` do not answer, nor (given `closestWords`)
 *    one relevant by meaning only just — sharing none or at most half of the question's topic terms — with no word
 *    close to the question's words it lacks (`wordCheckOf`).
 * 2. The best match (highest relevance × credence among the beliefs about the question: at least
 *    `ABOUT_THE_QUESTION_SHARE` of the most relevant one's relevance) is the answer's subject, so a side topic held
 *    firmly never answers in place of a doubted belief about the question. Only a **rival of that belief** can
 *    contest it, never a dispute between two other matches. A rival is a belief that rebuts it or that it rebuts
 *    (A rebuts B when a real rebuttal on B comes from A itself or from evidence that really supports A), or one that
 *    gives another value of the same quantity — and it must itself be relevant: at least `ABOUT_THE_QUESTION_SHARE` of
 *    the best match's relevance. Without a rival belief, real rebutting evidence of assessed strength ≥
 *    `contestedRebuttalStrength` (0.3) on the best match itself contests it. Otherwise **settled**: a dispute between
 *    other matches never marks the answer contested.
 * 3. **Dominance** between the two positions (the best match and its rival):
 *    a belief carrying a real rebuttal from the rival newer than its own last real support loses to the rival;
 *    otherwise higher credence wins, and a near-tie (|Δcredence| ≤ `dominanceTieMargin`, 0.05) goes to the belief
 *    whose latest real support is newer (then the higher-ranked one).
 * 4. **tension** of the two positions = §4.5's formula with S = Σ|contribution| of the dominant's standing real support
 *    votes + Σ|contribution| of the competitor's standing real rebuttal votes that come from the dominant, and R the
 *    same for the competitor (one vote per source and relation, after contraction scaling, as in the belief's own
 *    tension). Settled answers report the dominant belief's own tension.
 * 5. Two relevant live beliefs that give different values for the same quantity (same unit, similar wording) compete
 *    like a rebut pair even when no evidence links them.
 * 6. **Insufficient** instead of settled when the best answer is weak: its credence is below one half, or its
 *    confidence is below `recallMinConfidence` (0.1). A belief with credence below one half is never the settled answer.
 * 7. The answer: mode, dominant answer and competing interpretation (phrased by the Assessor), a plain-language
 *    sentence saying why the dominant answer is preferred (or why no answer is good enough), tension, confidence (the
 *    dominant's), belief ids.
 *
 * Rivals, dominance and tension read each answering belief's standing (`./standing`): from its stored fold checkpoint
 * when the caller can load it (`loadStandings`), so a belief with a long history is weighed without reading it.
 */
import type { Assessor, BeliefText } from "./assessor";
import { isLiveStatus, type Belief, type BeliefGist, type BeliefRecord, type BeliefStatus, type History } from "./model";
import { tension as tensionOf } from "./network";
import type { EngineParams } from "./params";
import { fuseRelevance, relevanceScorer, wordCheckOf } from "./retrieval";
import { replayWithStanding, type Standing, type StandingBelief } from "./standing";

export type RecallMode = "settled" | "contested" | "insufficient" | "no_answer";
export const RECALL_MODES = ["settled", "contested", "insufficient", "no_answer"] as const satisfies readonly RecallMode[];

export type WhyReason =
  | "standing_rebuttal"
  | "recency"
  | "real_support"
  | "reconfirmation"
  | "credence"
  | "only_position"
  | "low_credence"
  | "low_confidence";

export interface RecallAnswer {
  mode: RecallMode;
  question: string;
  dominantAnswer: string | null;
  competingInterpretation: string | null;
  /** One or two plain sentences built from `reasons` (for `insufficient`: why no answer is good enough). */
  whyDominantWins: string | null;
  reasons: WhyReason[];
  tension: number;
  confidence: number;
  /** Every relevant live belief behind the answer, best first. */
  beliefIds: string[];
  /** The dominant belief and the superseded beliefs whose chains led to it. */
  dominantBeliefIds: string[];
  competingBeliefIds: string[];
  /** Relevant beliefs carrying a real rebuttal of assessed strength ≥ the contested threshold. */
  contestedBeliefIds: string[];
  /** Which assessor phrased the answer. */
  assessor: string | null;
}

/**
 * A recall candidate: a belief with its history, or only its gist (text, stored status and credence). A gist's stored
 * status and credence (which equal the replay of its history) rank it, and only the beliefs that answer are loaded,
 * with their standings (`RecallInput.loadStandings`) or whole (`loadRecords`); a candidate superseded by another is
 * loaded whole to follow its chain.
 */
export type RecallCandidate = BeliefRecord | { belief: Pick<BeliefGist, "id" | "text" | "status" | "credence">; history?: undefined };

export interface RecallInput {
  question: string;
  /** Store candidates for the question (the URL's scope), superseded ones included. */
  candidates: readonly RecallCandidate[];
  /** Loads a belief through the caller's authorised view (for chain ends that are not candidates); null if not visible. */
  load: (beliefId: string) => Promise<BeliefRecord | null>;
  /**
   * Loads beliefs with their histories through the caller's authorised view (those not visible are left out): the
   * positions that answer, among candidates given without a history. Default: `load` of each.
   */
  loadRecords?: (beliefIds: readonly string[]) => Promise<readonly BeliefRecord[]>;
  /**
   * Loads beliefs with their standings (`./standing`) through the caller's authorised view, those not visible left
   * out: preferred to `loadRecords` for the positions that answer, so that no history need be read or replayed.
   */
  loadStandings?: (beliefIds: readonly string[]) => Promise<readonly { belief: StandingBelief; standing: Standing }[]>;
  assessor: Assessor;
  /** Relevant beliefs considered (after ranking); default 10. */
  k?: number;
  /**
   * The text of an evidence item through the caller's authorised view (null when not visible): quoted when the
   * competing position is a rebutting evidence item, not a belief.
   */
  evidenceText?: (evidenceId: string) => Promise<string | null>;
  /** Chain-following budget (hops over all chains); default 1 000. */
  maxHops?: number;
  /**
   * Hybrid relevance (`fuseRelevance` of ./retrieval): the cosine of the question's sentence vector with each
   * candidate belief's, by belief id, from the services. Absent: lexical relevance only.
   */
  semantic?: ReadonlyMap<string, number>;
  /** Beliefs with relevance ≤ this do not answer the question; default 0 (hybrid callers pass `HYBRID_ANSWER_FLOOR`). */
  minRelevance?: number;
  /**
   * With `semantic`: `closestWords` of the question and each candidate belief, by belief id, for those that
   * need a word check (`wordCheckOf`; over the question's words the belief does not contain). Such a belief under its
   * check's `minCosine` does not answer the question; one missing from the map
   * (an embedder without `words`) is ranked as before.
   */
  closestWords?: ReadonlyMap<string, number>;
}

export interface Position {
  belief: StandingBelief;
  standing: Standing;
  rank: number;
  /** Superseded beliefs followed to reach this one. */
  predecessors: string[];
}

/** The belief that superseded `record`, from its latest `superseded` status event (none after a `reinstated` one). */
function supersededBy(history: History): string | null {
  for (let i = history.length - 1; i >= 0; i--) {
    const item = history[i];
    if (item?.type === "reinstated") return null;
    if (item?.type === "superseded" && item.byBeliefId) return item.byBeliefId;
  }
  return null;
}

/**
 * The live end of a candidate's chain: its record (with the history when one was loaded) and, with that history, its
 * standing from the replay; without it, the row's stored status and credence stand for the replay's.
 */
export interface ChainEnd {
  record: RecallCandidate;
  standing: Standing | null;
  predecessors: string[];
}

const statusOf = (e: Pick<ChainEnd, "record" | "standing">): BeliefStatus => e.standing?.status ?? e.record.belief.status;
const credenceOf = (e: Pick<ChainEnd, "record" | "standing">): number => e.standing?.credence ?? e.record.belief.credence;
const standingOfHistory = (history: History, params: EngineParams): Standing => replayWithStanding(history, params).standing;

/**
 * Follow SUPERSEDES from each candidate to the live end of its chain. A chain that ends in a belief the caller
 * cannot load, or loops, ends at its last visible belief (which is then not live and drops out). A superseded
 * candidate given without its history is loaded whole (its history names its successor).
 */
export async function followSupersedes(
  candidates: readonly RecallCandidate[],
  load: (id: string) => Promise<BeliefRecord | null>,
  params: EngineParams,
  maxHops = 1000,
): Promise<Map<string, ChainEnd>> {
  const byId = new Map<string, RecallCandidate>(candidates.map((r) => [r.belief.id, r]));
  const ends = new Map<string, ChainEnd>();
  let hops = 0;
  const withHistory = async (r: RecallCandidate): Promise<BeliefRecord | null> => {
    if (r.history !== undefined) return { belief: r.belief, history: r.history };
    const loaded = await load(r.belief.id);
    if (loaded) byId.set(r.belief.id, loaded);
    return loaded;
  };
  for (const start of candidates) {
    let record: RecallCandidate = start;
    let standing = record.history === undefined ? null : standingOfHistory(record.history, params);
    if ((standing?.status ?? record.belief.status) === "superseded" && record.history === undefined) {
      const whole = await withHistory(record);
      if (!whole) continue;
      record = whole;
      standing = standingOfHistory(whole.history, params);
    }
    const seen = new Set<string>([record.belief.id]);
    const predecessors: string[] = [];
    while (standing?.status === "superseded" && record.history !== undefined) {
      const next = supersededBy(record.history);
      if (!next || seen.has(next) || hops >= maxHops) break;
      hops++;
      const found = byId.get(next);
      const loaded = found ? await withHistory(found) : await load(next);
      if (!loaded) break;
      predecessors.push(record.belief.id);
      seen.add(next);
      byId.set(next, loaded);
      record = loaded;
      standing = standingOfHistory(loaded.history, params);
    }
    if (!isLiveStatus(statusOf({ record, standing }))) continue;
    const prev = ends.get(record.belief.id);
    // Two chains may meet at one end: keep the loaded record, whichever chain loaded it.
    const known = prev && prev.standing !== null && standing === null ? prev : { record, standing };
    ends.set(record.belief.id, { ...known, predecessors: [...new Set([...(prev?.predecessors ?? []), ...predecessors])] });
  }
  return ends;
}

/** `input.loadRecords`, else `input.load` of each; nothing to load, no call. */
function loadRecordsOf(input: Pick<RecallInput, "load" | "loadRecords">): (ids: readonly string[]) => Promise<readonly BeliefRecord[]> {
  return async (ids) => {
    if (ids.length === 0) return [];
    if (input.loadRecords) return input.loadRecords(ids);
    return (await Promise.all(ids.map(input.load))).filter((r): r is BeliefRecord => r !== null);
  };
}

/**
 * The ends' standings: an end given without its history is loaded in one call (`loadStandings`, else `loadRecords`
 * and a replay); one no longer visible drops out.
 */
async function withStandings(ends: readonly ChainEnd[], input: Pick<RecallInput, "load" | "loadRecords" | "loadStandings">, params: EngineParams): Promise<{ end: ChainEnd; belief: StandingBelief; standing: Standing }[]> {
  const ready = (e: ChainEnd): e is ChainEnd & { standing: Standing; record: { belief: Belief; history: History } } => e.standing !== null && e.record.history !== undefined;
  const missing = ends.filter((e) => !ready(e)).map((e) => e.record.belief.id);
  const loaded = new Map<string, { belief: StandingBelief; standing: Standing }>();
  if (missing.length > 0 && input.loadStandings) {
    for (const x of await input.loadStandings(missing)) loaded.set(x.belief.id, x);
  } else {
    for (const r of await loadRecordsOf(input)(missing)) loaded.set(r.belief.id, { belief: r.belief, standing: standingOfHistory(r.history, params) });
  }
  return ends.flatMap((end) => {
    if (ready(end)) return [{ end, belief: end.record.belief, standing: end.standing }];
    const x = loaded.get(end.record.belief.id);
    return x ? [{ end, ...x }] : [];
  });
}

/** Sources (belief ids and evidence ids) that count as "coming from" belief `b`: itself and its real supports. */
function originsOf(p: Pick<Position, "belief" | "standing">): Set<string> {
  return new Set<string>([p.belief.id, ...p.standing.supportSources]);
}

/** The sources of real rebuttals on `target` that come from `from` (its id or evidence that really supports it). */
export function rebuttalsFrom(target: Pick<Position, "standing">, from: Pick<Position, "belief" | "standing">): string[] {
  const origins = originsOf(from);
  return [...target.standing.realRebuttals.keys()].filter((source) => origins.has(source));
}

const ms = (t: string | null): number => (t === null ? Number.NEGATIVE_INFINITY : Date.parse(t));

/** The latest event time (epoch ms) of `target`'s real rebuttals from `sources`. */
function latestRebuttal(target: Pick<Position, "standing">, sources: readonly string[]): number {
  let best = Number.NEGATIVE_INFINITY;
  for (const s of sources) best = Math.max(best, target.standing.realRebuttals.get(s)?.latestAt ?? Number.NEGATIVE_INFINITY);
  return best;
}

interface Verdict {
  dominant: Position;
  competing: Position;
  reasons: WhyReason[];
}

/** The dominance rule of §4.6 for two positions in a rebut relation. `a` is the higher-ranked one. */
export function decideDominance(a: Position, b: Position, params: EngineParams): Verdict {
  const standing = (loser: Position, winner: Position): boolean => {
    const fromWinner = rebuttalsFrom(loser, winner);
    return fromWinner.length > 0 && latestRebuttal(loser, fromWinner) > ms(loser.standing.lastRealSupportAt);
  };
  const aStanding = standing(a, b);
  const bStanding = standing(b, a);
  const verdict = (dominant: Position, competing: Position, first: WhyReason[]): Verdict => {
    const reasons = [...first];
    const d = dominant.standing;
    const c = competing.standing;
    if (!reasons.includes("recency") && ms(d.lastRealSupportAt) > ms(c.lastRealSupportAt)) reasons.push("recency");
    if (d.independentRealSupports > c.independentRealSupports) reasons.push("real_support");
    const challenged = rebuttalsFrom(dominant, competing);
    if (challenged.length > 0 && ms(d.lastRealSupportAt) > latestRebuttal(dominant, challenged)) reasons.push("reconfirmation");
    return { dominant, competing, reasons };
  };
  if (aStanding !== bStanding) return aStanding ? verdict(b, a, ["standing_rebuttal"]) : verdict(a, b, ["standing_rebuttal"]);
  const diff = a.standing.credence - b.standing.credence;
  if (Math.abs(diff) > params.dominanceTieMargin) return diff > 0 ? verdict(a, b, ["credence"]) : verdict(b, a, ["credence"]);
  const aLatest = ms(a.standing.lastRealSupportAt);
  const bLatest = ms(b.standing.lastRealSupportAt);
  if (bLatest > aLatest) return verdict(b, a, ["recency"]);
  if (aLatest > bLatest) return verdict(a, b, ["recency"]);
  return verdict(a, b, ["credence"]);
}

/** §4.5's tension applied to two positions (see the module comment). */
export function positionsTension(dominant: Position, competing: Position, params: EngineParams): number {
  const sum = (xs: Iterable<number>): number => {
    let total = 0;
    for (const x of xs) total += x;
    return total;
  };
  const rebuttalWeight = (target: Position, from: Position): number => sum(rebuttalsFrom(target, from).map((s) => target.standing.realRebuttalWeight.get(s) ?? 0));
  const S = sum(dominant.standing.realSupportWeight.values()) + rebuttalWeight(competing, dominant);
  const R = sum(competing.standing.realSupportWeight.values()) + rebuttalWeight(dominant, competing);
  return tensionOf(S, R, params);
}

const pct = (x: number): string => `${Math.round(x * 100)}%`;

/** Plain-language reasons (a reviewer reads them; no engine terms). */
const REASON_TEXT: Record<WhyReason, (d: Position, c: Position | null) => string> = {
  standing_rebuttal: () => "the newer evidence behind it contradicts the other answer, and nothing has backed the other answer since",
  recency: () => "it was confirmed more recently",
  real_support: () => "more independent sources back it",
  reconfirmation: () => "it was confirmed again after it had been challenged",
  credence: (d, c) => (c ? `the evidence backs it more strongly (${pct(d.standing.credence)} against ${pct(c.standing.credence)})` : `the evidence backs it (${pct(d.standing.credence)})`),
  only_position: (d) => `nothing else in memory answers the question differently, and the evidence backs it (${pct(d.standing.credence)})`,
  low_credence: (d) => `the evidence leans against it (${pct(d.standing.credence)} likely)`,
  low_confidence: (d) => `too little evidence backs it to rely on (confidence ${pct(d.standing.confidence)})`,
};

function explain(mode: RecallMode, reasons: readonly WhyReason[], dominant: Position, competing: Position | null, rival: BeliefText | null): string {
  const parts = reasons.map((r) => REASON_TEXT[r](dominant, competing));
  const list = (xs: readonly string[]) => (xs.length === 1 ? (xs[0] ?? "") : `${xs.slice(0, -1).join(", ")} and ${xs[xs.length - 1]}`);
  if (mode === "insufficient") return `No answer is well enough supported: the best candidate is weak because ${list(parts)}.`;
  if (mode === "contested" && rival) {
    const named = `"${rival.text}"`;
    return competing ? `It is preferred over ${named} because ${list(parts)}.` : `Evidence disputes it (${named}), and no other belief answers the question; the evidence still backs it (${pct(dominant.standing.credence)}).`;
  }
  if (parts.length === 0) return "It is the best match for the question.";
  return mode === "contested" ? `It is preferred over the other answer because ${list(parts)}.` : `This is the answer because ${list(parts)}.`;
}

/**
 * A belief is about the question when its relevance is at least this share of the most relevant one's; below it, it is
 * a side topic: it never answers in place of a belief about the question, and it never contests the answer (a rival must
 * be at least this share of the best match's relevance).
 */
export const ABOUT_THE_QUESTION_SHARE = 0.5;

/** Content words of a text without its numbers (to tell whether two quantities fill the same slot). */
function slotWords(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z][a-z-]+/g) ?? []).filter((w) => w.length > 2));
}

/** Two beliefs state different values of the same quantity: same unit, values apart, and mostly the same words. */
export function competingQuantities(a: Pick<Belief, "text" | "quantity">, b: Pick<Belief, "text" | "quantity">): boolean {
  const qa = a.quantity;
  const qb = b.quantity;
  if (qa === null || qb === null || qa.unit.toLowerCase() !== qb.unit.toLowerCase()) return false;
  if (Math.abs(qa.value - qb.value) <= 0.01 * Math.max(Math.abs(qa.value), Math.abs(qb.value))) return false;
  const wa = slotWords(a.text);
  const wb = slotWords(b.text);
  const shared = [...wa].filter((w) => wb.has(w)).length;
  return shared / Math.max(1, Math.min(wa.size, wb.size)) >= 0.5;
}

const beliefText = (b: Pick<Belief, "id" | "text" | "contextTags">): BeliefText => ({ id: b.id, text: b.text, contextTags: b.contextTags });

/** Answer a question from the belief graph, keeping disagreement visible. */
export async function recall(input: RecallInput, params: EngineParams): Promise<RecallAnswer> {
  // Superseded candidates given as rows are loaded whole in one read: their histories name their successors.
  const superseded = input.candidates.filter((c) => c.history === undefined && c.belief.status === "superseded").map((c) => c.belief.id);
  const whole = new Map((await loadRecordsOf(input)(superseded)).map((r) => [r.belief.id, r]));
  const candidates = whole.size === 0 ? input.candidates : input.candidates.map((c) => whole.get(c.belief.id) ?? c);
  const ends = [...(await followSupersedes(candidates, input.load, params, input.maxHops)).values()];
  // A chain end is as relevant as the most relevant text along its chain (a rewording must not lose the question).
  const textsOf = (e: (typeof ends)[number]): { id: string; text: string }[] => [
    { id: e.record.belief.id, text: e.record.belief.text },
    ...e.predecessors.flatMap((id) => {
      const text = input.candidates.find((c) => c.belief.id === id)?.belief.text;
      return text ? [{ id, text }] : [];
    }),
  ];
  const scorer = relevanceScorer(input.question, ends.flatMap((e) => textsOf(e).map((t) => t.text)));
  const semantic = input.semantic;
  // A text relevant by meaning only just answers only if its words meet the question's (`wordCheckOf`).
  const unrelated = (t: { id: string; text: string }, cos: number): boolean => {
    const closest = input.closestWords?.get(t.id);
    if (closest === undefined) return false;
    const check = wordCheckOf(input.question, t.text, cos);
    return check !== null && closest < check.minCosine;
  };
  const relevanceOf = (t: { id: string; text: string }): number => {
    if (semantic === undefined) return scorer.score(t.text);
    const cos = semantic.get(t.id) ?? 0;
    return unrelated(t, cos) ? 0 : fuseRelevance(scorer.score(t.text), cos);
  };
  const minRelevance = input.minRelevance ?? 0;
  const relevant = ends.map((e) => ({ e, relevance: Math.max(...textsOf(e).map(relevanceOf)) })).filter((x) => x.relevance > minRelevance);
  // A side topic (under `ABOUT_THE_QUESTION_SHARE` of the most relevant belief's relevance) never outranks a belief
  // about the question, however high its credence: a weak answer to the question asked is still that question's answer.
  const mostRelevant = Math.max(0, ...relevant.map((x) => x.relevance));
  const scored = relevant
    .map((x) => ({ ...x, about: x.relevance >= ABOUT_THE_QUESTION_SHARE * mostRelevant, score: x.relevance * credenceOf(x.e) }))
    .sort((a, b) => Number(b.about) - Number(a.about) || b.score - a.score || credenceOf(b.e) - credenceOf(a.e) || (a.e.record.belief.id < b.e.record.belief.id ? -1 : 1))
    .slice(0, Math.max(0, input.k ?? 10));
  // Only the beliefs that answer are replayed: their histories decide rivals, dominance and tension.
  const standings = new Map((await withStandings(scored.map((x) => x.e), input, params)).map((x) => [x.belief.id, x]));
  const answering = scored.flatMap((x) => {
    const s = standings.get(x.e.record.belief.id);
    return s ? [{ ...x, belief: s.belief, standing: s.standing }] : [];
  });
  const positions: Position[] = answering.map((x, rank) => ({ belief: x.belief, standing: x.standing, rank, predecessors: x.e.predecessors }));
  const empty: RecallAnswer = {
    mode: "no_answer",
    question: input.question,
    dominantAnswer: null,
    competingInterpretation: null,
    whyDominantWins: null,
    reasons: [],
    tension: 0,
    confidence: 0,
    beliefIds: [],
    dominantBeliefIds: [],
    competingBeliefIds: [],
    contestedBeliefIds: [],
    assessor: null,
  };
  const top = positions[0];
  if (!top) return empty;

  const contestedBeliefIds = positions.filter((p) => p.standing.maxRealRebuttalStrength >= params.contestedRebuttalStrength).map((p) => p.belief.id);

  // The best match's rival: the best-ranked relevant belief in a rebut relation with it, else one that gives another
  // value of the same quantity.
  const bestRelevance = answering[0]?.relevance ?? 0;
  const rivals = positions.slice(1).filter((p) => (answering[p.rank]?.relevance ?? 0) >= ABOUT_THE_QUESTION_SHARE * bestRelevance);
  const rival =
    rivals.find((p) => rebuttalsFrom(top, p).length > 0 || rebuttalsFrom(p, top).length > 0) ??
    rivals.find((p) => competingQuantities(top.belief, p.belief)) ??
    null;
  const pair: [Position, Position] | null = rival ? [top, rival] : null;
  // Without a rival belief, strong real rebutting evidence on the best match itself contests it (it is about the answer).
  const strongestRebuttal = [...top.standing.realRebuttals]
    .map(([sourceId, r]) => ({ sourceId, strength: r.strength }))
    .filter((r) => r.strength >= params.contestedRebuttalStrength)
    .sort((x, y) => y.strength - x.strength || (x.sourceId < y.sourceId ? -1 : 1))[0];
  const contested = pair !== null || strongestRebuttal !== undefined;
  const beliefIds = positions.map((p) => p.belief.id);

  let dominant = top;
  let competing: Position | null = null;
  let reasons: WhyReason[] = ["only_position"];
  let tension = top.standing.tension;
  if (pair) {
    const v = decideDominance(pair[0], pair[1], params);
    dominant = v.dominant;
    competing = v.competing;
    reasons = v.reasons;
    tension = positionsTension(v.dominant, v.competing, params);
  }

  // A contested belief without a rival belief: the strongest relevant rebutting evidence is the competing interpretation.
  let competingText: BeliefText | null = competing ? beliefText(competing.belief) : null;
  if (!competing && strongestRebuttal) {
    const text = await input.evidenceText?.(strongestRebuttal.sourceId);
    if (text) competingText = { id: strongestRebuttal.sourceId, text };
  }

  // A weak best answer is reported as such, never as settled.
  let mode: RecallMode = contested ? "contested" : "settled";
  if (!contested) {
    const weak: WhyReason[] = [];
    if (dominant.standing.credence < 0.5) weak.push("low_credence");
    if (dominant.standing.confidence < params.recallMinConfidence) weak.push("low_confidence");
    if (weak.length > 0) {
      mode = "insufficient";
      reasons = weak;
    }
  }

  const phrasing = await input.assessor.phraseRecall(input.question, beliefText(dominant.belief), competingText);
  return {
    mode,
    question: input.question,
    dominantAnswer: phrasing.dominantAnswer,
    competingInterpretation: competingText ? phrasing.competingInterpretation : null,
    whyDominantWins: explain(mode, reasons, dominant, competing, competingText),
    reasons,
    tension,
    confidence: dominant.standing.confidence,
    beliefIds,
    dominantBeliefIds: [dominant.belief.id, ...dominant.predecessors],
    competingBeliefIds: competing ? [competing.belief.id, ...competing.predecessors] : [],
    contestedBeliefIds,
    assessor: phrasing.assessor,
  };
}
