/**
 * Revision (docs/design.md §4.3, Sonality, AGM-aligned): the ingest pipeline as one staged change-set.
 *
 * `ingest(input, deps)`:
 * 1. **ESS**: the Assessor scores the text (`ess`, `reasoningType`, `manipulative`); the text becomes an Evidence item
 *    (kind from the request, default `observation`).
 * 2. **Manipulative** input: the whole staged change-set is discarded; the result's change-set holds only the
 *    rejected Evidence item (`discarded: true`) for audit, and no other assessment is asked for.
 * 3. **Claims** (the Assessor's extraction, or the caller's harvested claims). Per claim:
 *    * **twin**: a live belief with the same key, or one the claim surely restates (the restatement policy,
 *      `deps.restatement`: similarity ≥ `twinSimilarity` (0.9) and sure), gets a `SUPPORTS` entry (weight 1) instead
 *      of a twin;
 *    * **expansion**: otherwise, with ESS ≥ `essThreshold` (0.3), a new `provisional` belief whose first entry is a
 *      `SUPPORTS` of weight 1 (topic by `assignTopic`), linked as a `possible_duplicate` to the belief the policy
 *      names as close but not sure; below the threshold, nothing is created;
 *    * **revision**: the top `relatedTopK` (5) other live beliefs with similarity ≥ `relatedSimilarity` (0.3) get an
 *      assessed relation; `SUPPORTS`/`REBUTS`/`CONTEXTUALIZES` become entries with weight = assessed strength.
 *      Per (belief, relation) only the strongest assessment across claims is written (one vote per source anyway).
 *    Entries carry the evidence kind's tier, verified (the Evidence is written in the same change-set), ess = the
 *    assessed ESS, reasoning and assessor stamp.
 * 4. **Contraction**, never from one entry: an existing belief that received a rebuttal and now has ≥
 *    `contractionMinRebuttals` (3) counted rebuttals with rebuttal weight R ≥ support weight S gets a holistic
 *    contraction assessment; if it contracts, a `contraction` event with the assessed severity is appended.
 *    With a cascade context, contracted beliefs go through grounding propagation in the same change-set.
 * 5. **Disagreement report**: every live belief the text rebuts, with the claim and strength behind it.
 * 6. **Edits** (`input.edits`, a person's corrections of a dry run, applied when the commit reads the text again):
 *    a left-out claim creates and supports nothing and relates to nothing (it is still read, so the reading stays the
 *    dry run's); a left-out relation writes no entry; a
 *    relation whose kind the person changed is written as the reader's entry followed by a `revised` event by the
 *    person (who, when, from, to, why), as a relation correction is. Every edit must name a claim index and a
 *    (claim, belief) relation that this reading produced: otherwise `validation_failed` and nothing is staged.
 * Candidates come as slim rows: a stored belief's status is the replay of its history (the store invariant), so it
 * alone tells whether the belief is live, and only the stored beliefs this change-set writes are read with their
 * histories, in one call of `input.histories` once the reading is done (before the edits' `revised` events are
 * numbered and before contraction is assessed). With `input.heads`, each stored belief it writes is folded onto its
 * checkpoint instead (`writeBeliefOnCheckpoint`, equal to the replay bit for bit) and read with its history only when
 * a decision needs it: a person's correction, a contraction due, a fold that cannot take the items or that would
 * leave the belief ungrounded.
 * Beliefs are written through `writeBelief` or the fold (assimilate.ts), so every upsert is the replay of its history.
 * The result's change-set is the staged one: the caller commits it whole (one transaction) or not at all; a dry run
 * is the same call with nothing written.
 */
import type { Assessor, DecidedRelation, EssAssessment, ExtractedClaim, Relation } from "./assessor";
import { emptyChangeSet, mergeChangeSets, type BeliefUpsert, type ChangeSet, type EntryOutputUpdate, type HistoryAppend } from "./change-set";
import { checkpointUsable, newBelief, writeBelief, writeBeliefOnCheckpoint, type BeliefHead, type UnsequencedItem } from "./assimilate";
import { EngineError, validationFailed } from "./errors";
import { propagateGrounding, type CascadeContext } from "./grounding";
import { isLiveStatus, tierOfKind, type Belief, type BeliefRecord, type Evidence, type EvidenceKind, type History, type IsoTime } from "./model";
import type { EngineParams } from "./params";
import type { ReplayState } from "./replay";
import { withoutFraming } from "./harvest";
import { possibleDuplicateItem, UNDECIDED_DEFAULT_WEIGHT, undecidedItem, type RestatementPolicy } from "./readings";
import { assignTopic, beliefKey } from "./topic";

// ---- Ingest ----

export interface IngestInput {
  scope: string;
  text: string;
  /** Evidence kind; default `observation`. Its tier is the tier of every entry this ingest makes. */
  kind?: EvidenceKind;
  uri?: string | null;
  /** Ids and time come from the caller: the engine has no clock and no id source. */
  evidenceId: string;
  changeSetId: string;
  newBeliefId: () => string;
  actor: string;
  now: IsoTime;
  /** When the text was true or seen (event time of its evidence and entries); default `now`. */
  observedAt?: IsoTime;
  /**
   * Beliefs of the scope that may relate to the text (the store's ranked candidates), as stored, without histories;
   * those whose status is not live are left out.
   */
  candidates: readonly Belief[];
  /**
   * The stored histories (ordered by seq) of the listed candidates, as of the rows in `candidates`: called with the ids
   * of the stored beliefs the change-set writes (never when it writes none): once for all of them, or, with `heads`,
   * for those a decision needs whole, each id once. A port that finds one of them
   * changed since it was read must fail (the caller reads again), never hand over a newer history.
   */
  histories: (beliefIds: readonly string[]) => Promise<ReadonlyMap<string, History>>;
  /**
   * The heads (`BeliefHead`: row, last seq, fold checkpoint with the rows of this text's evidence, no history needed)
   * of the listed candidates, under the same rule as `histories`, called at most once. When given, each stored belief
   * the change-set writes is folded onto its checkpoint (`writeBeliefOnCheckpoint`), and `histories` reads only those
   * a decision needs whole (module comment).
   */
  heads?: (beliefIds: readonly string[]) => Promise<ReadonlyMap<string, BeliefHead>>;
  /** A topic named by the request, for every new belief. */
  topic?: string | null;
  /** Pre-extracted claims (e.g. `harvest`); default: the Assessor's `extractClaims`. */
  claims?: readonly ExtractedClaim[];
  /** Texts of other evidence, for the contraction assessment (source id → text); ids are shown when missing. */
  sourceText?: (sourceId: string) => Promise<string | null>;
  /** A person's edits of the reading (module comment, step 6). */
  edits?: IngestEdits;
}

/**
 * A person's edits of a reading. Claims are named by their index among the harvested claims (the order of the
 * result's `claims`), relations by that index and the related belief's id.
 */
export interface IngestEdits {
  /** Claims left out: nothing is created, supported or related for them. */
  excludeClaims?: readonly number[];
  /** Relations left out: no entry is written for them. */
  excludeRelations?: readonly { claim: number; beliefId: string }[];
  /** Relations whose kind a person changed (UNRELATED: the entry is kept in the history and counts for nothing). */
  overrides?: readonly { claim: number; beliefId: string; relation: DecidedRelation; reason?: string }[];
}

/** The reason a changed relation's `revised` event carries when the person gave none. */
export const INGEST_EDIT_REASON = "changed by a person before the ingest was committed";

export interface IngestDeps {
  assessor: Assessor;
  params: EngineParams;
  /** Whether a claim is merged into a live belief it restates, linked to it as a possible duplicate, or neither. */
  restatement: RestatementPolicy;
  /** When given, contracted beliefs are propagated (stripping citers that lost grounding) into the same change-set. */
  cascade?: Omit<CascadeContext, "time" | "actor" | "changeSetId">;
}

export interface AppliedRelation {
  beliefId: string;
  /** The relation written: the reader's, or the one a person changed it to (`correctedFrom` then holds the reader's). */
  relation: DecidedRelation;
  /** Assessed strength = the entry's weight. */
  strength: number;
  similarity: number;
  reasoning: string;
  /** When a person changed the reader's relation: what the reader read, and why the person changed it. */
  correction?: { from: Relation; reason: string };
}

/** A relation the reader could not decide: kept on the belief as an undecided link with no weight (`./readings`). */
export interface UndecidedRelation {
  beliefId: string;
  guess: DecidedRelation;
  confidence: number;
  similarity: number;
  reasoning: string;
}

/** A new belief that may say the same as an existing one: both are kept, linked as a possible duplicate. */
export interface PossibleDuplicate {
  beliefId: string;
  otherBeliefId: string;
  score: number;
}

export type ClaimAction = "created" | "supported_existing" | "below_threshold" | "excluded";

export interface ClaimOutcome {
  claim: ExtractedClaim;
  action: ClaimAction;
  /** The belief created or supported (null below the ESS threshold). */
  beliefId: string | null;
  /** For `supported_existing`: how the twin was matched. */
  match: "key" | "similarity" | null;
  relations: AppliedRelation[];
  /** Related beliefs the reader left UNDECIDED for this claim. */
  undecided: UndecidedRelation[];
  /** For `created`: the existing belief it may duplicate (similarity in the possible-duplicate band), else null. */
  possibleDuplicate: PossibleDuplicate | null;
  /** Relations the reader found for this claim that a person left out (nothing written for them). */
  excludedRelations: { beliefId: string; relation: Relation; strength: number }[];
}

export interface Disagreement {
  beliefId: string;
  text: string;
  claim: string;
  strength: number;
  reasoning: string;
}

export interface ContractionOutcome {
  beliefId: string;
  contracted: boolean;
  severity: number;
  reasoning: string;
}

export interface IngestResult {
  /** `staged`: commit `changeSet` whole; `discarded`: manipulative, `changeSet` holds only the rejected Evidence. */
  outcome: "staged" | "discarded";
  evidence: Evidence;
  ess: EssAssessment;
  claims: ClaimOutcome[];
  disagreements: Disagreement[];
  contractions: ContractionOutcome[];
  changeSet: ChangeSet;
}

interface Working {
  /** For a stored belief, its history is empty until `input.histories` has read it (only for beliefs written). */
  record: BeliefRecord;
  stored: boolean;
  items: UnsequencedItem[];
  /** Created by this ingest (never a related-belief candidate for later claims). */
  fresh: boolean;
}

/** A claim as it is stored and related: trimmed, without its narrative frame ("" when nothing is left). */
export function storedClaimText(claim: Pick<ExtractedClaim, "text">): string {
  return withoutFraming(claim.text.trim());
}

/** Stage one ingest (see the module comment). Throws `AssessmentError` when an assessment fails: nothing is staged. */
export async function ingest(input: IngestInput, deps: IngestDeps): Promise<IngestResult> {
  const { assessor, params } = deps;
  const text = input.text.trim();
  if (!text) throw new EngineError("empty_text", "Nothing to ingest.");
  const kind: EvidenceKind = input.kind ?? "observation";
  const tier = tierOfKind(kind);
  const ess = await assessor.assessEvidence(text);
  const evidence: Evidence = {
    id: input.evidenceId,
    scope: input.scope,
    kind,
    text,
    uri: input.uri ?? null,
    registeredBy: input.actor,
    ess: clamp01(ess.ess),
    reasoningType: ess.reasoningType,
    discarded: ess.manipulative,
    createdAt: input.now,
    observedAt: input.observedAt ?? input.now,
    retractedAt: null,
  };
  const base = emptyChangeSet(input.changeSetId, input.actor, input.now);
  if (ess.manipulative) {
    return { outcome: "discarded", evidence, ess, claims: [], disagreements: [], contractions: [], changeSet: { ...base, evidence: [evidence] } };
  }

  const working = new Map<string, Working>();
  for (const belief of input.candidates) {
    if (belief.scope !== input.scope || !isLiveStatus(belief.status)) continue;
    working.set(belief.id, { record: { belief, history: [] }, stored: true, items: [], fresh: false });
  }
  const entryOf = (relation: Relation, weight: number, reasoning: string, stamp: string): UnsequencedItem => ({
    type: "entry",
    time: input.now,
    observedAt: input.observedAt ?? input.now,
    actor: input.actor,
    changeSet: input.changeSetId,
    sourceId: evidence.id,
    sourceKind: "evidence",
    relation,
    tier,
    weight: clamp01(weight),
    ess: evidence.ess ?? 1,
    verified: true,
    effectiveTier: tier,
    launderingReason: null,
    reasoning,
    assessor: stamp,
    contribution: 0,
    effectiveWeight: 0,
  });

  const claims = input.claims ? [...input.claims] : await assessor.extractClaims(text);
  const edits = indexEdits(input.edits);
  // (claim index, belief id) of every decided relation this reading produced: what an edit may name.
  const read = new Set<string>();
  // Beliefs a person took a relation away from: no undecided link from this text is left on them either.
  const leftOut = new Set<string>();
  const outcomes: ClaimOutcome[] = [];
  // Strongest assessment per (belief, relation) across claims.
  const best = new Map<string, { w: Working; rel: AppliedRelation; stamp: string; claim: string }>();
  // Most confident undecided reading per belief across claims.
  const openQuestions = new Map<string, { w: Working; u: UndecidedRelation; stamp: string; weight: number }>();

  for (const claim of claims) {
    const claimText = storedClaimText(claim);
    if (!claimText) continue;
    const claimIndex = outcomes.length;
    // A left-out claim is still read against the related beliefs (the reading stays the dry run's), but writes nothing.
    const claimExcluded = edits.claims.has(claimIndex);
    const key = beliefKey(claimText);
    const live = [...working.values()];
    const sims = new Map<string, number>();
    for (const w of live) sims.set(w.record.belief.id, w.record.belief.key === key ? 1 : await assessor.similarity(claimText, w.record.belief.text));

    const simByText = new Map(live.map((w) => [w.record.belief.text, sims.get(w.record.belief.id) ?? 0]));
    const byKey = live.find((w) => w.record.belief.key === key);
    const choice = byKey ? null : deps.restatement(claimText, live.map((w) => ({ id: w.record.belief.id, text: w.record.belief.text, similarity: sims.get(w.record.belief.id) ?? 0 })), params);
    const bySim = choice?.action === "merge" ? working.get(choice.id) : undefined;
    const twin = byKey ?? bySim;
    let target: Working | null = null;
    let action: ClaimAction;
    let possibleDuplicate: PossibleDuplicate | null = null;
    if (claimExcluded) {
      action = "excluded";
    } else if (twin) {
      twin.items.push(entryOf("SUPPORTS", 1, byKey ? "same key" : `paraphrase (similarity ${fmt(sims.get(twin.record.belief.id) ?? 0)})`, ess.assessor));
      target = twin;
      action = "supported_existing";
    } else if (evidence.ess !== null && evidence.ess >= params.essThreshold) {
      const near = choice?.action === "possible_duplicate" ? working.get(choice.id) : undefined;
      const topic = await assignTopic(
        {
          text: claimText,
          requested: input.topic ?? null,
          liveBeliefs: live.filter((w) => !w.fresh).map((w) => ({ id: w.record.belief.id, text: w.record.belief.text, topic: w.record.belief.topic })),
          similarity: async (_claim, other) => simByText.get(other) ?? 0,
        },
        params,
      );
      const belief = newBelief({ id: input.newBeliefId(), scope: input.scope, topic: topic.topic, text: claimText, key, quantity: claim.quantity ?? null }, params, input.now);
      const record: BeliefRecord = { belief, history: [] };
      const w: Working = { record, stored: false, items: [], fresh: true };
      w.items.push(entryOf("SUPPORTS", 1, "expansion: new claim", ess.assessor));
      if (near && choice?.action === "possible_duplicate") {
        const score = sims.get(near.record.belief.id) ?? 0;
        possibleDuplicate = { beliefId: belief.id, otherBeliefId: near.record.belief.id, score };
        w.items.push(
          possibleDuplicateItem({
            other: { id: near.record.belief.id, text: near.record.belief.text },
            similarity: score,
            reason: choice.reason,
            assessor: assessor.name,
            time: input.now,
            observedAt: input.observedAt ?? input.now,
            actor: input.actor,
            changeSet: input.changeSetId,
          }),
        );
      }
      working.set(record.belief.id, w);
      target = w;
      action = "created";
    } else {
      action = "below_threshold";
    }

    const related = live
      // A left-out claim's twin is left out of its related beliefs as it would be if the claim had been kept.
      .filter((w) => w !== target && !(claimExcluded && w === twin) && !w.fresh && (sims.get(w.record.belief.id) ?? 0) >= params.relatedSimilarity)
      .sort((a, b) => (sims.get(b.record.belief.id) ?? 0) - (sims.get(a.record.belief.id) ?? 0) || (a.record.belief.id < b.record.belief.id ? -1 : 1))
      .slice(0, params.relatedTopK);
    const applied: AppliedRelation[] = [];
    const undecided: UndecidedRelation[] = [];
    const excludedRelations: ClaimOutcome["excludedRelations"] = [];
    for (const w of related) {
      const b = w.record.belief;
      const r = await assessor.assessRelation(claimText, { id: b.id, text: b.text, contextTags: b.contextTags });
      if (r.relation === "UNRELATED") continue;
      if (r.relation === "UNDECIDED") {
        const u: UndecidedRelation = { beliefId: b.id, guess: r.guess ?? "UNRELATED", confidence: clamp01(r.confidence), similarity: sims.get(b.id) ?? 0, reasoning: r.reasoning };
        undecided.push(u);
        if (claimExcluded) continue;
        const prev = openQuestions.get(b.id);
        if (!prev || u.confidence > prev.u.confidence) openQuestions.set(b.id, { w, u, stamp: r.assessor, weight: r.strength });
        continue;
      }
      const editKey = relationKey(claimIndex, b.id);
      read.add(editKey);
      const edit = edits.relations.get(editKey);
      if (edit?.exclude) leftOut.add(b.id);
      if (edit?.exclude || claimExcluded) {
        excludedRelations.push({ beliefId: b.id, relation: r.relation, strength: clamp01(r.strength) });
        continue;
      }
      const changed = edit?.to !== undefined && edit.to !== r.relation ? edit.to : null;
      const rel: AppliedRelation = {
        beliefId: b.id,
        relation: changed ?? r.relation,
        strength: clamp01(r.strength),
        similarity: sims.get(b.id) ?? 0,
        reasoning: r.reasoning,
        ...(changed ? { correction: { from: r.relation, reason: edit?.reason ?? INGEST_EDIT_REASON } } : {}),
      };
      applied.push(rel);
      const k = `${b.id}\u0000${rel.relation}`;
      const prev = best.get(k);
      if (!prev || rel.strength > prev.rel.strength) best.set(k, { w, rel, stamp: r.assessor, claim: claimText });
    }
    // The claim as it is stored and related: without its narrative frame (the evidence keeps the text as written).
    outcomes.push({ claim: { ...claim, text: claimText }, action, beliefId: target?.record.belief.id ?? null, match: claimExcluded ? null : byKey ? "key" : bySim ? "similarity" : null, relations: applied, undecided, possibleDuplicate, excludedRelations });
  }
  checkEdits(edits, outcomes.length, read);

  // An undecided reading is kept only where no claim of this text committed to a relation with the belief.
  // A relation a person changed to UNRELATED, or left out, counts as committed too: a person read it.
  const committed = new Set([...[...best.values()].map((b) => b.rel.beliefId), ...leftOut]);
  for (const [beliefId, { w, u, stamp, weight }] of [...openQuestions].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
    if (committed.has(beliefId)) continue;
    w.items.push({
      observedAt: input.observedAt ?? input.now,
      ...undecidedItem({
        sourceId: evidence.id,
        sourceKind: "evidence",
        guess: u.guess,
        confidence: u.confidence,
        weight: weight > 0 ? weight : UNDECIDED_DEFAULT_WEIGHT,
        tier,
        verified: true,
        effectiveTier: tier,
        ess: evidence.ess ?? 1,
        reasoning: u.reasoning,
        assessor: stamp,
        time: input.now,
        actor: input.actor,
        changeSet: input.changeSetId,
      }),
    });
  }

  /** Reads the listed beliefs' histories into their working records, in one call. */
  const readHistories = async (ws: readonly Working[]): Promise<void> => {
    if (ws.length === 0) return;
    const histories = await input.histories(ws.map((w) => w.record.belief.id));
    for (const w of ws) {
      const history = histories.get(w.record.belief.id);
      if (history === undefined) throw new Error(`ingest: no history was read for belief ${w.record.belief.id}`);
      w.record = { belief: w.record.belief, history };
    }
  };
  // Every stored belief written from here on has items already or a relation to receive.
  const written = new Set([...working.values()].filter((w) => w.stored && w.items.length > 0));
  for (const { w } of best.values()) written.add(w);
  // With `input.heads`, each is folded onto its checkpoint where it has a usable one, and read with its history only
  // when a decision needs it: a person's correction (its `revised` event rewrites an earlier entry), a contraction due
  // (its assessment reads the entries' texts), a fold that cannot take the items or would leave the belief ungrounded.
  const corrected = new Set([...best.values()].filter(({ rel }) => rel.correction !== undefined).map(({ w }) => w));
  const heads = new Map<Working, BeliefHead>();
  const foldable = input.heads === undefined ? [] : [...written].filter((w) => !corrected.has(w));
  if (input.heads !== undefined && foldable.length > 0) {
    const got = await input.heads(foldable.map((w) => w.record.belief.id));
    for (const w of foldable) {
      const head = got.get(w.record.belief.id);
      if (head === undefined) throw new Error(`ingest: no head was read for belief ${w.record.belief.id}`);
      if (checkpointUsable(head)) heads.set(w, head);
    }
  }
  await readHistories([...written].filter((w) => !heads.has(w)));
  // A belief's fold, once: the contraction check reads it, and the write keeps it when nothing was added since.
  type Fold = ReturnType<typeof writeBeliefOnCheckpoint>;
  const folds = new Map<Working, { items: number; folded: Fold }>();
  const foldOf = (w: Working, head: BeliefHead): Fold => {
    const kept = folds.get(w);
    if (kept && kept.items === w.items.length) return kept.folded;
    const folded = writeBeliefOnCheckpoint(head, w.items, params, input.now);
    folds.set(w, { items: w.items.length, folded });
    return folded;
  };

  const disagreements: Disagreement[] = [];
  for (const { w, rel, stamp, claim } of [...best.values()].sort((a, b) => (a.rel.beliefId < b.rel.beliefId ? -1 : a.rel.beliefId > b.rel.beliefId ? 1 : a.rel.relation < b.rel.relation ? -1 : 1))) {
    if (rel.correction) {
      // The reader's entry, then the person's correction of it: the history says who changed the reading, from what to what.
      w.items.push(entryOf(rel.correction.from, rel.strength, rel.reasoning, stamp));
      const entrySeq = w.record.history.reduce((m, it) => Math.max(m, it.seq), 0) + w.items.length;
      w.items.push({ type: "revised", targetSeq: entrySeq, relation: rel.relation, reason: rel.correction.reason, time: input.now, observedAt: input.observedAt ?? input.now, actor: input.actor, changeSet: input.changeSetId });
    } else if (rel.relation !== "UNRELATED") {
      w.items.push(entryOf(rel.relation, rel.strength, rel.reasoning, stamp));
    }
    if (rel.relation === "REBUTS" && rel.strength > 0) {
      disagreements.push({ beliefId: rel.beliefId, text: w.record.belief.text, claim, strength: rel.strength, reasoning: rel.reasoning });
    }
  }

  // Contraction: only beliefs that just received a rebuttal, only from accumulated contradiction.
  const contractions: ContractionOutcome[] = [];
  const contractionDue = (s: { contradictCount: number; rebuttalWeight: number; supportWeight: number }) => s.contradictCount >= params.contractionMinRebuttals && s.rebuttalWeight >= s.supportWeight;
  for (const w of working.values()) {
    if (!w.stored || !w.items.some((i) => i.type === "entry" && i.relation === "REBUTS")) continue;
    const head = heads.get(w);
    if (head) {
      // The fold tells whether a contraction is due; only then is the history read (the assessment reads its texts).
      const folded = foldOf(w, head);
      if (!("fallback" in folded) && !contractionDue(folded.belief)) continue;
      heads.delete(w);
      await readHistories([w]);
    }
    const trial = writeBelief(w.record, w.items, params, input.now, !w.stored);
    const state = trial.state;
    if (!contractionDue(state)) continue;
    const texts = await entryTexts(trial.record.history, state, evidence, input.sourceText);
    const b = w.record.belief;
    const c = await assessor.assessContraction({ id: b.id, text: b.text, contextTags: b.contextTags }, texts.rebuttals, texts.supports);
    const severity = c.contract ? clamp01(c.severity) : 0;
    contractions.push({ beliefId: b.id, contracted: c.contract && severity > 0, severity, reasoning: c.reasoning });
    if (c.contract && severity > 0) {
      w.items.push({ type: "contraction", time: input.now, observedAt: input.observedAt ?? input.now, actor: input.actor, changeSet: input.changeSetId, severity, reasoning: c.reasoning, assessor: c.assessor });
    }
  }

  const beliefs: BeliefUpsert[] = [];
  const history: HistoryAppend[] = [];
  const entryOutputs: EntryOutputUpdate[] = [];
  const contracted: BeliefRecord[] = [];
  for (const w of working.values()) {
    if (w.items.length === 0) continue;
    const head = heads.get(w);
    const folded = head ? foldOf(w, head) : null;
    // Folded only when the belief is grounded after the write (live, with a real support): it cannot have lost its
    // grounding, so the caller's grounding check does not need its history.
    if (folded !== null && !("fallback" in folded) && isLiveStatus(folded.belief.status) && folded.realSupportCount > 0) {
      beliefs.push(folded.upsert);
      history.push(folded.append);
      entryOutputs.push(...folded.outputs);
      continue;
    }
    if (head) await readHistories([w]);
    const staged = writeBelief(w.record, w.items, params, input.now, !w.stored);
    beliefs.push(staged.upsert);
    history.push(staged.append);
    entryOutputs.push(...staged.outputs);
    if (w.items.some((i) => i.type === "contraction")) contracted.push(staged.record);
  }
  let changeSet: ChangeSet = { ...base, evidence: [evidence], beliefs, history, entryOutputs };
  if (deps.cascade && contracted.length > 0) {
    const cascade = await propagateGrounding(contracted, { ...deps.cascade, time: input.now, actor: input.actor, changeSetId: input.changeSetId });
    changeSet = mergeChangeSets(changeSet, cascade.changeSet);
  }
  return {
    outcome: "staged",
    evidence,
    ess,
    claims: outcomes,
    disagreements,
    contractions,
    changeSet,
  };
}

interface IndexedEdits {
  claims: ReadonlySet<number>;
  relations: ReadonlyMap<string, { exclude: boolean; to?: DecidedRelation; reason?: string }>;
  /** Where each relation edit came from, for the error that names it. */
  fields: ReadonlyMap<string, string>;
}

const relationKey = (claim: number, beliefId: string): string => `${claim}\u0000${beliefId}`;

/** The edits by claim index and (claim, belief); a relation left out and changed at once, or named twice, is an error. */
function indexEdits(edits: IngestEdits | undefined): IndexedEdits {
  const claims = new Set(edits?.excludeClaims ?? []);
  const relations = new Map<string, { exclude: boolean; to?: DecidedRelation; reason?: string }>();
  const fields = new Map<string, string>();
  const problems: { field: string; message: string }[] = [];
  const add = (field: string, claim: number, beliefId: string, edit: { exclude: boolean; to?: DecidedRelation; reason?: string }) => {
    const key = relationKey(claim, beliefId);
    if (relations.has(key)) problems.push({ field, message: `claim ${claim} and belief ${beliefId} are named twice (left out or changed, not both)` });
    else if (claims.has(claim)) problems.push({ field, message: `claim ${claim} is left out, so its relations are too` });
    relations.set(key, edit);
    fields.set(key, field);
  };
  (edits?.excludeRelations ?? []).forEach((r, i) => add(`edits.excludeRelations.${i}`, r.claim, r.beliefId, { exclude: true }));
  (edits?.overrides ?? []).forEach((o, i) => add(`edits.overrides.${i}`, o.claim, o.beliefId, { exclude: false, to: o.relation, ...(o.reason ? { reason: o.reason } : {}) }));
  if (problems.length > 0) throw validationFailed(problems, "edits");
  return { claims, relations, fields };
}

/** Every edit must name what this reading produced: a claim index below `claimCount`, a (claim, belief) in `read`. */
function checkEdits(edits: IndexedEdits, claimCount: number, read: ReadonlySet<string>): void {
  const problems: { field: string; message: string }[] = [];
  [...edits.claims].forEach((c) => {
    if (!Number.isInteger(c) || c < 0 || c >= claimCount) problems.push({ field: "edits.excludeClaims", message: `claim ${c} is not one of this reading's ${claimCount} claims` });
  });
  for (const [key, field] of edits.fields) {
    if (read.has(key)) continue;
    const [claim, beliefId] = key.split("\u0000");
    problems.push({ field, message: `claim ${claim} has no relation with belief ${beliefId} in this reading (run the dry run again)` });
  }
  if (problems.length > 0) throw validationFailed(problems, "edits");
}

async function entryTexts(
  history: History,
  state: ReplayState,
  current: Evidence,
  sourceText: IngestInput["sourceText"],
): Promise<{ rebuttals: string[]; supports: string[] }> {
  const bySeq = new Map(history.map((i) => [i.seq, i]));
  const rebuttals: string[] = [];
  const supports: string[] = [];
  for (const o of state.entries) {
    if (!o.counted) continue;
    const item = bySeq.get(o.seq);
    if (item?.type !== "entry") continue;
    const id = item.sourceId;
    const t = id === current.id ? current.text : id === null ? "(anonymous model assertion)" : ((await sourceText?.(id)) ?? `(evidence ${id})`);
    if (o.relation === "REBUTS") rebuttals.push(t);
    else if (o.relation === "SUPPORTS") supports.push(t);
  }
  return { rebuttals, supports };
}

const clamp01 = (x: number): number => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);
const fmt = (x: number): string => x.toFixed(2);

