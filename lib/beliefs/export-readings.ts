/**
 * Labelled readings (`npm run cli -- export-readings --scope S`): one line per (belief, evidence) pair of a scope that
 * has a decided relation, so a team can score any reader on its own text. `npm run --silent cli -- read relations`
 * reads these lines as they are (it needs `{id, belief, evidence}` and echoes `relation` as `expected`).
 *
 * Where the label comes from, read off each belief's history in seq order (the latest act wins):
 * - `person`: a relation correction (`revised` with a relation) of an entry of the evidence, or the decision of an
 *   undecided reading of it (SUPPORTS, REBUTS, CONTEXTUALIZES or UNRELATED). A decision that was undone (the reading
 *   opened again) no longer labels the pair. `reader` then says what the machine had read, when it had read it.
 * - `reader`: an entry the reader (or a model) wrote, that no person corrected. A relation the caller stated itself
 *   (assessor `caller`) labels nothing until a person confirms or corrects it.
 * Pairs whose evidence text the export does not hold (a cited belief, an unresolved id) are left out.
 */
import { z } from "zod";
import { DECIDED_RELATIONS, type DecidedRelation, type Evidence, type EvidenceEntry, type History, type UndecidedEvent } from "@/lib/engine";
import type { ScopeExport } from "@/lib/graph/graph-store";

export const LABEL_SOURCES = ["person", "reader"] as const;
export type LabelSource = (typeof LABEL_SOURCES)[number];

/** What the machine had read before a person labelled the pair. */
const machineReadingSchema = z
  .object({
    relation: z.enum([...DECIDED_RELATIONS, "UNDECIDED"]),
    guess: z.enum(DECIDED_RELATIONS).optional(),
    confidence: z.number().min(0).max(1).optional(),
    assessor: z.string(),
  })
  .strict();

/** The fields a labelled line carries besides `{id, belief, evidence}` (all present in an export; optional to a reader). */
export const LABEL_FIELDS = {
  relation: z.enum(DECIDED_RELATIONS),
  source: z.enum(LABEL_SOURCES),
  beliefId: z.string(),
  evidenceId: z.string(),
  /** Who labelled it: the person (user id, or `operator`), or the reader's assessor stamp. */
  by: z.string(),
  at: z.string(),
  /** The person's reason. */
  reason: z.string().optional(),
  /** For a person's label: what the machine had read (absent when the relation was the caller's own). */
  reader: machineReadingSchema.optional(),
};

export const labelledPairSchema = z.object({ id: z.string(), belief: z.string(), evidence: z.string(), ...LABEL_FIELDS }).strict();
export type LabelledPair = z.infer<typeof labelledPairSchema>;
type MachineReading = z.infer<typeof machineReadingSchema>;

interface Label {
  relation: DecidedRelation;
  source: LabelSource;
  by: string;
  at: string;
  reason?: string;
  reader?: MachineReading;
  /** A decision of a reading: withdrawn when the reading opens again. */
  decision?: true;
}

const machineOf = (e: EvidenceEntry): MachineReading | undefined => (e.assessor === "caller" ? undefined : { relation: e.relation, assessor: e.assessor });
const guessOf = (u: UndecidedEvent): MachineReading => ({ relation: "UNDECIDED", guess: u.guess, confidence: u.confidence, assessor: u.assessor });

/** The label of each evidence source of one history (by source id), the latest act winning. */
export function labelsOf(history: History): Map<string, Label> {
  const items = [...history].sort((a, b) => a.seq - b.seq);
  const bySeq = new Map(items.map((h) => [h.seq, h]));
  const labels = new Map<string, Label>();
  for (const item of items) {
    if (item.type === "entry") {
      if (item.sourceId === null || item.assessor === "caller") continue;
      const current = labels.get(item.sourceId);
      if (current === undefined || current.source === "reader") labels.set(item.sourceId, { relation: item.relation, source: "reader", by: item.assessor, at: item.time });
    } else if (item.type === "undecided") {
      // The reading opened again (a decision undone): its decision labels the pair no more.
      if (labels.get(item.sourceId)?.decision) labels.delete(item.sourceId);
    } else if (item.type === "decided") {
      const target = bySeq.get(item.targetSeq);
      if (target?.type !== "undecided" || !(DECIDED_RELATIONS as readonly string[]).includes(item.decision)) continue;
      labels.set(target.sourceId, { relation: item.decision as DecidedRelation, source: "person", by: item.actor, at: item.time, reason: item.reason, reader: guessOf(target), decision: true });
    } else if (item.type === "revised" && item.relation !== undefined) {
      const entry = bySeq.get(item.targetSeq);
      if (entry?.type !== "entry" || entry.sourceId === null) continue;
      const earlier = labels.get(entry.sourceId);
      const machine = earlier?.source === "person" ? earlier.reader : machineOf(entry);
      labels.set(entry.sourceId, { relation: item.relation, source: "person", by: item.actor, at: item.time, reason: item.reason, ...(machine ? { reader: machine } : {}) });
    }
  }
  return labels;
}

/** Every labelled pair of an exported scope, ordered by belief id then evidence id. */
export function labelledPairs(data: Pick<ScopeExport, "beliefs" | "evidence">, options: { source?: LabelSource } = {}): LabelledPair[] {
  const evidence = new Map<string, Evidence>(data.evidence.filter((e) => e.kind !== "unresolved").map((e) => [e.id, e]));
  const out: LabelledPair[] = [];
  for (const record of [...data.beliefs].sort((a, b) => (a.belief.id < b.belief.id ? -1 : a.belief.id > b.belief.id ? 1 : 0))) {
    const labels = [...labelsOf(record.history)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [sourceId, label] of labels) {
      const e = evidence.get(sourceId);
      if (!e || (options.source !== undefined && label.source !== options.source)) continue;
      out.push({
        id: `${record.belief.id}/${sourceId}`,
        belief: record.belief.text,
        evidence: e.text,
        relation: label.relation,
        source: label.source,
        beliefId: record.belief.id,
        evidenceId: sourceId,
        by: label.by,
        at: label.at,
        ...(label.reason !== undefined ? { reason: label.reason } : {}),
        ...(label.reader !== undefined ? { reader: label.reader } : {}),
      });
    }
  }
  return out;
}
