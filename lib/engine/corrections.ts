/**
 * Relation corrections (docs/design.md §3): a person, or an agent, says that a piece of evidence bears on a belief in
 * another way than was recorded. A correction is a `revised` event per entry of that evidence, so the fold replays
 * the belief as if the entry had carried the corrected relation from the start: credence and tension move at once,
 * replay reproduces them, and nothing is deleted. Undoing one is another correction, back to the relation it replaced;
 * both stay in the history with who, when, from, to and why.
 */
import type { DecidedRelation } from "./assessor";
import { validationFailed } from "./errors";
import type { EvidenceEntry, History, IsoTime, RevisedEvent } from "./model";
import { openReadings } from "./readings";
import { inFoldOrder } from "./replay";

/** One relation correction of a history: a `revised` event that set an entry's relation, and the relation it replaced. */
export interface RelationCorrection {
  /** The `revised` event. */
  seq: number;
  /** The entry it corrected, and that entry's source. */
  targetSeq: number;
  sourceId: string | null;
  from: DecidedRelation;
  to: DecidedRelation;
  reason: string;
  actor: string;
  time: IsoTime;
  changeSet: string;
}

/**
 * Every relation correction in a history, in seq order, each with the relation the entry carried just before it.
 * "Before" follows the fold's own order (event time, then seq), in which the later revision of an entry wins.
 */
export function relationCorrections(history: History): RelationCorrection[] {
  return foldRelations(history).corrections;
}

/** The relation each entry carries after every revision of the history (the one replay folds it with), by seq. */
export function currentRelations(history: History): Map<number, DecidedRelation> {
  return foldRelations(history).current;
}

function foldRelations(history: History): { corrections: RelationCorrection[]; current: Map<number, DecidedRelation> } {
  const entries = new Map(history.flatMap((h) => (h.type === "entry" ? [[h.seq, h] as const] : [])));
  const current = new Map<number, DecidedRelation>([...entries].map(([seq, e]) => [seq, e.relation]));
  const corrections: RelationCorrection[] = [];
  for (const item of inFoldOrder(history)) {
    if (item.type !== "revised" || item.relation === undefined) continue;
    const entry = entries.get(item.targetSeq);
    if (!entry) continue;
    const from = current.get(item.targetSeq) ?? entry.relation;
    current.set(item.targetSeq, item.relation);
    corrections.push({ seq: item.seq, targetSeq: item.targetSeq, sourceId: entry.sourceId, from, to: item.relation, reason: item.reason, actor: item.actor, time: item.time, changeSet: item.changeSet });
  }
  return { corrections: corrections.sort((a, b) => a.seq - b.seq), current };
}

/** The entries of `sourceId` that still count in a history: not retracted, not stripped. */
export function liveEntriesOf(history: History, sourceId: string): EvidenceEntry[] {
  const removed = new Set(history.flatMap((h) => (h.type === "retracted" || h.type === "stripped" ? [h.targetSeq] : [])));
  return history.filter((h): h is EvidenceEntry => h.type === "entry" && h.sourceId === sourceId && !removed.has(h.seq));
}

export interface CorrectRelationPlanInput {
  history: History;
  /** The evidence whose relation to the belief is corrected. */
  sourceId: string;
  relation: DecidedRelation;
  /** One entry of that evidence; needed only when its entries on the belief carry different relations. */
  seq?: number;
  reason: string;
  actor: string;
  now: IsoTime;
  changeSetId: string;
}

export interface CorrectRelationPlan {
  /** The relation the corrected entries carried: what an undo sets back. */
  from: DecidedRelation;
  /** The entries corrected, in seq order. */
  entrySeqs: number[];
  /** One `revised` event per corrected entry, to append in one change-set. */
  items: Omit<RevisedEvent, "seq">[];
}

/**
 * The `revised` events that give `sourceId`'s live entries on a belief the relation `relation`. Without `seq` every
 * live entry of the source is corrected, which needs them to carry one relation; with `seq`, that entry alone.
 * Throws `EngineError` `validation_failed` naming the field to fix: `beliefId` when the source has no live entry on
 * the belief, `evidenceId` when its reading is still undecided (decide the reading instead), `seq` when the entries
 * disagree or `seq` is not one of them, `relation` when the entries carry it already.
 */
export function planRelationCorrection(input: CorrectRelationPlanInput): CorrectRelationPlan {
  const undecided = openReadings(input.history).undecided.find((u) => u.sourceId === input.sourceId);
  if (undecided) {
    throw validationFailed([{ field: "evidenceId", message: `is an undecided reading of this belief (#${undecided.seq}): decide the reading instead` }], "correction");
  }
  const live = liveEntriesOf(input.history, input.sourceId);
  if (live.length === 0) {
    const any = input.history.some((h) => h.type === "entry" && h.sourceId === input.sourceId);
    throw validationFailed([{ field: "beliefId", message: any ? "every entry of this evidence on the belief was retracted or stripped" : "this evidence has no entry on the belief" }], "correction");
  }
  const relations = currentRelations(input.history);
  const relationOf = (e: EvidenceEntry): DecidedRelation => relations.get(e.seq) ?? e.relation;
  let targets: EvidenceEntry[];
  if (input.seq !== undefined) {
    const one = live.find((e) => e.seq === input.seq);
    if (!one) throw validationFailed([{ field: "seq", message: `is not a live entry of this evidence on the belief (entries: ${live.map((e) => `#${e.seq}`).join(", ")})` }], "correction");
    targets = [one];
  } else {
    const distinct = [...new Set(live.map(relationOf))];
    if (distinct.length > 1) {
      throw validationFailed(
        [{ field: "seq", message: `required: this evidence bears on the belief through entries ${live.map((e) => `#${e.seq} (${relationOf(e)})`).join(", ")}; name one` }],
        "correction",
      );
    }
    targets = live;
  }
  const from = relationOf(targets[0] as EvidenceEntry);
  if (from === input.relation) throw validationFailed([{ field: "relation", message: `the evidence already bears on the belief as ${from}` }], "correction");
  const items = targets.map(
    (e): Omit<RevisedEvent, "seq"> => ({
      type: "revised",
      targetSeq: e.seq,
      relation: input.relation,
      reason: input.reason,
      time: input.now,
      actor: input.actor,
      changeSet: input.changeSetId,
    }),
  );
  return { from, entrySeqs: targets.map((e) => e.seq), items };
}
