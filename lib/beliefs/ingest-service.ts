/**
 * Ingest (editor): a document read by the assessor, split into claims, each related to the scope's most related live
 * beliefs and staged by the engine's revision pipeline (reinforce, relate, create, contract), with the grounding
 * cascade of any belief that lost its last real support. A claim reinforces a belief it restates only when the write
 * policy is sure (`restatementPolicy`); otherwise it is kept apart and linked as a possible duplicate. One change-set,
 * or none on a dry run. With `edits` (a person's corrections of the dry run: claims and relations left out, relation
 * kinds changed), the commit reads the text again and stages exactly the edited plan; an edit naming what this
 * reading did not produce, or a `planId` the reading no longer has, is refused before anything is written.
 */
import { createHash } from "node:crypto";
import type { Belief, BeliefHead, BeliefRecord, History } from "@/lib/engine";
import { VersionConflict } from "@/lib/graph/errors";
import { ingest as stageIngest, storedClaimText, type ClaimOutcome, type IngestResult as StagedIngest } from "@/lib/engine/revision";
import { restatementPolicy } from "@/lib/reading/merge-policy";
import { LEXICAL_CANDIDATES_MIN, unionByRank } from "@/lib/retrieval/hybrid-search";
import { ingestInputSchema } from "./belief-schemas";
import { fieldError, parseServiceInput } from "@/lib/errors/belief-service-error";
import type { BeliefServices, IngestResult } from "./belief-services";
import type { CallerContext } from "./caller-context";
import { keptReadings } from "./kept-readings";
import { eventTimeOfWrite } from "./observed-at";
import { beliefChange, withGroundingPropagation, type ServiceKit } from "./service-kit";

/** How many candidates a text's claims share: each claim ranks ceil(50 / claims) of its own, never fewer than 10. */
const MAX_RELATED_CANDIDATES = 50;
const CLAIM_CANDIDATES_MIN = 10;

export function ingestService(kit: ServiceKit): Pick<BeliefServices, "ingest"> {
  const { store, assessor, clock } = kit.config;

  /**
   * Beliefs of the home scope most related to the text's claims, as slim rows ordered by id: the engine reads the
   * histories of only those it writes. Each claim is ranked alone (hybrid, from the best LEXICAL_CANDIDATES_MIN
   * lexical matches) and the candidates are their union, rank by rank: a claim meets the beliefs about it even where
   * the rest of the text is about something else. Ranked as one query, a text of three public sentences found each
   * sentence's partner among its 50 candidates for 54 % of the sentences, against 79 % ranked claim by claim, at the
   * same CPU (research/measure-candidate-pools.ts, modes ingest-texts and ingest-claims).
   */
  async function relatedBeliefs(ctx: CallerContext, claims: readonly string[]): Promise<readonly Belief[]> {
    if (claims.length === 0) return [];
    const k = Math.max(CLAIM_CANDIDATES_MIN, Math.ceil(MAX_RELATED_CANDIDATES / claims.length));
    const rankings = await Promise.all(claims.map(async (claim) => (await kit.rank(ctx.view, claim, { k, lexicalCandidates: LEXICAL_CANDIDATES_MIN, scope: ctx.scope.id })).ranked.map((r) => r.candidate.id)));
    const ids = unionByRank(rankings);
    if (ids.length === 0) return [];
    const beliefs = await store.listBeliefs(ctx.view, { ids, liveOnly: false });
    // Each claim is compared with every candidate: their stored vectors spare embedding their texts again.
    kit.primeVectors(ctx.view, beliefs);
    return beliefs;
  }

  /**
   * The engine's `histories` port: the listed candidates read with their histories in one statement, kept in `into`
   * (the grounding check needs them; a belief folded onto its checkpoint is grounded after the write, so it needs
   * none). A belief written or removed since its row was read is a lost race: the ingest fails with a version conflict
   * and runs again on fresh rows.
   */
  function historiesOf(ctx: CallerContext, candidates: ReadonlyMap<string, Belief>, into: Map<string, BeliefRecord>) {
    return async (ids: readonly string[]): Promise<ReadonlyMap<string, History>> => {
      const records = new Map((await store.loadBeliefs(ctx.view, ids)).map((r) => [r.belief.id, r]));
      const out = new Map<string, History>();
      for (const id of ids) {
        const record = records.get(id);
        if (!record || record.belief.version !== candidates.get(id)?.version) {
          throw new VersionConflict(id, "version", `belief ${id} changed while the text was read`);
        }
        into.set(id, record);
        out.set(id, record.history);
      }
      return out;
    };
  }

  /**
   * The engine's `heads` port: the listed candidates' heads (row, last seq, fold checkpoint with the rows of this
   * text's evidence; no history), which the engine folds the change-set's items onto. Checked against the rows read,
   * as `historiesOf`.
   */
  function headsOf(ctx: CallerContext, candidates: ReadonlyMap<string, Belief>, evidenceId: string) {
    return async (ids: readonly string[]): Promise<ReadonlyMap<string, BeliefHead>> => {
      const heads = await store.loadBeliefHeads(ctx.view, ids, { historyLimit: 0, checkpointSources: [evidenceId] });
      for (const id of ids) {
        if (heads.get(id)?.belief.version !== candidates.get(id)?.version) {
          throw new VersionConflict(id, "version", `belief ${id} changed while the text was read`);
        }
      }
      return heads;
    };
  }

  return {
    async ingest(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(ingestInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "editor");
      const params = ctx.params.params;
      // The claims are read once, before the write's attempts: they depend on the text alone, so a retry, or a wait in
      // the scope's write gate, neither repeats nor waits for the extraction and the claims' embedding. They pick the
      // candidates, and the engine stages them as read here. Every other reading is kept across the attempts too
      // (./kept-readings): a retry reads again only what changed.
      const reader = keptReadings(assessor);
      const claims = await reader.extractClaims(input.text);
      const claimTexts = claims.map(storedClaimText).filter((c) => c !== "");
      // The claims' vectors in one inference; each ranking (`relatedBeliefs`) then finds its own in the matcher's cache.
      await kit.matcher?.vectors(claimTexts);
      // `rehearsal` (below): a dry run that warms the kept readings and decides nothing, not even the plan check.
      const run = async (dryRun: boolean, rehearsal = false): Promise<IngestResult> => {
        const now = clock.now();
        const observedAt = eventTimeOfWrite(input.observedAt, now);
        const changeSetId = kit.newId("changeset");
        const candidates = await relatedBeliefs(ctx, claimTexts);
        const byId = new Map(candidates.map((b) => [b.id, b]));
        // The stored beliefs the change-set writes with their histories (filled by the engine's `histories` call; the
        // ones it folds onto their checkpoints are not read).
        const written = new Map<string, BeliefRecord>();
        const evidenceId = kit.newId("evidence");
        const staged = await stageIngest(
          {
            scope: ctx.scope.id,
            text: input.text,
            kind: input.kind,
            uri: input.uri ?? null,
            evidenceId,
            changeSetId,
            newBeliefId: () => kit.newId("belief"),
            actor: ctx.actor,
            now,
            observedAt,
            candidates,
            claims,
            histories: historiesOf(ctx, byId, written),
            heads: headsOf(ctx, byId, evidenceId),
            topic: input.topic ?? null,
            sourceText: async (id) => (await store.loadEvidence(ctx.view, id))?.text ?? null,
            ...(input.edits ? { edits: input.edits } : {}),
          },
          { assessor: reader, params, restatement: restatementPolicy },
        );
        const planId = planIdOf(staged);
        if (!rehearsal && input.edits?.planId !== undefined && input.edits.planId !== planId) {
          throw fieldError("conflict", "the text reads differently now than in the dry run (the beliefs it relates to changed): nothing was written; run the dry run again", "edits.planId");
        }
        let changeSet = staged.changeSet;
        if (staged.outcome === "staged") {
          // Beliefs folded onto their checkpoints are read whole only if a cascade runs (it must see them as staged).
          const loadBefore = async (ids: readonly string[]) => {
            await historiesOf(ctx, byId, written)(ids);
            return written;
          };
          const propagated = await withGroundingPropagation(kit, changeSet, written, { dryRun, known: [params], loadBefore });
          changeSet = propagated.changeSet;
        }
        if (!dryRun) await store.apply(changeSet);
        // Beliefs the cascade reached in other scopes are reported only when the caller may see them.
        const changes = changeSet.beliefs.filter((u) => ctx.canRead(u.belief.scope)).map((u) => beliefChange(byId.get(u.belief.id) ?? null, u.belief, u.expectedVersion === null));
        const textOf = new Map(changeSet.beliefs.map((u) => [u.belief.id, u.belief.text]));
        for (const b of candidates) textOf.set(b.id, b.text);
        const credenceOf = new Map(candidates.map((b) => [b.id, b.credence]));
        return {
          evidence: staged.evidence,
          ess: staged.ess,
          outcome: dryRun ? "dry_run" : staged.outcome === "discarded" ? "discarded" : "committed",
          claims: staged.claims.map((c) => c.claim.text),
          planId,
          excluded: {
            claims: staged.claims.flatMap((c, i) => (c.action === "excluded" ? [i] : [])),
            relations: staged.claims.flatMap((c, i) =>
              c.excludedRelations.map((r) => ({ beliefId: r.beliefId, text: textOf.get(r.beliefId) ?? "", relation: r.relation, claim: c.claim.text, claimIndex: i })),
            ),
          },
          changes,
          relations: staged.claims.flatMap((c, i) =>
            c.relations.map((r) => ({
              beliefId: r.beliefId,
              text: textOf.get(r.beliefId) ?? "",
              relation: r.relation,
              strength: r.strength,
              similarity: r.similarity,
              reasoning: r.reasoning,
              assessor: staged.ess.assessor,
              claim: c.claim.text,
              claimIndex: i,
              readerRelation: r.correction?.from ?? null,
            })),
          ),
          undecided: staged.claims.flatMap((c) => c.undecided.map((u) => ({ ...u, text: textOf.get(u.beliefId) ?? "", claim: c.claim.text }))),
          possibleDuplicates: staged.claims.flatMap((c) => (c.possibleDuplicate ? [{ ...c.possibleDuplicate, claim: c.claim.text }] : [])),
          disagreements: staged.disagreements.map((d) => ({ ...d, credence: credenceOf.get(d.beliefId) ?? 0 })),
          contractions: staged.contractions.filter((c) => c.contracted).map((c) => ({ beliefId: c.beliefId, severity: c.severity, reasoning: c.reasoning })),
          changeSetId,
          beliefs: changeSet.beliefs.map((u) => u.belief),
        };
      };
      // A dry run is retried too: a belief it reads may change between its row and its history (`historiesOf`); it
      // writes nothing, so it stays out of the scope's write gate. With a reader that is not the offline one (an LLM,
      // seconds a reading), a write that would queue behind the gate first reads as a dry run outside it: the readings
      // are kept, so in the gate it asks again only about beliefs that changed while it waited.
      const rehearse = assessor.heuristic || input.dryRun ? {} : { rehearse: () => run(true, true) };
      return kit.retry(ctx.scope.id, () => run(input.dryRun), { gate: !input.dryRun, ...rehearse });
    },
  };
}

/**
 * The reading of a staged ingest before any edit, as a short digest: ESS and verdict, each claim, and per claim the
 * relations the reader decided (its own kind, even where a person changed it, and strength) and left undecided.
 */
function planIdOf(staged: StagedIngest): string {
  const round = (x: number) => x.toFixed(3);
  const claim = (c: ClaimOutcome) => ({
    text: c.claim.text,
    relations: [
      ...c.relations.map((r) => [r.beliefId, r.correction?.from ?? r.relation, round(r.strength)]),
      ...c.excludedRelations.map((r) => [r.beliefId, r.relation, round(r.strength)]),
    ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    undecided: c.undecided.map((u) => [u.beliefId, u.guess]).sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
  });
  const reading = { ess: round(staged.ess.ess), manipulative: staged.ess.manipulative, claims: staged.claims.map(claim) };
  return `plan_${createHash("sha256").update(JSON.stringify(reading)).digest("hex").slice(0, 24)}`;
}
