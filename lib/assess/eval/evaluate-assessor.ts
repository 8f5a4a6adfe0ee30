/**
 * Scores an Assessor on labelled cases: relation classification (accuracy, per-class precision/recall, confusion
 * matrix) and manipulation detection (accuracy, precision, recall; reasoning-type accuracy as a side figure).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { AssessedRelation, Assessor } from "@/lib/engine/assessor";

export const RELATION_LABELS = ["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED"] as const satisfies readonly AssessedRelation[];

export const relationCaseSchema = z.object({
  id: z.string().min(1),
  belief: z.string().min(1),
  evidence: z.string().min(1),
  relation: z.enum(RELATION_LABELS),
});
export type RelationCase = z.infer<typeof relationCaseSchema>;

export const manipulationCaseSchema = z.object({
  id: z.string().min(1),
  text: z.string().min(1),
  manipulative: z.boolean(),
  reasoningType: z.string().min(1),
});
export type ManipulationCase = z.infer<typeof manipulationCaseSchema>;

/** Parse a JSON-lines file with `schema`; blank lines are skipped, a bad line throws with its number. */
export function readJsonl<T>(file: string, schema: z.ZodType<T>): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line.length > 0)
    .map(({ line, n }) => {
      const parsed = schema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${file}:${n}: ${parsed.error.message}`);
      return parsed.data;
    });
}

export interface CaseSet {
  /** Where the cases came from (for the printed header). */
  source: string;
  relations: RelationCase[];
  manipulation: ManipulationCase[];
}

/**
 * The shared labelled set: `<repo>/../shared/eval` when present, else the copy kept at `lib/assess/eval/shared/`
 * (a clean CI clone has no sibling `shared/`).
 */
export function loadSharedCases(repoRoot: string): CaseSet {
  const sibling = path.resolve(repoRoot, "..", "shared", "eval");
  const copy = path.resolve(repoRoot, "lib", "assess", "eval", "shared");
  return loadCaseDir(existsSync(path.join(sibling, "relations.jsonl")) ? sibling : copy);
}

/** `relations<suffix>.jsonl` and `manipulation<suffix>.jsonl` of one folder (suffix "" for the shared set). */
export function loadCaseDir(dir: string, suffix = ""): CaseSet {
  return {
    source: suffix === "" ? dir : path.join(dir, `*${suffix}.jsonl`),
    relations: readJsonl(path.join(dir, `relations${suffix}.jsonl`), relationCaseSchema),
    manipulation: readJsonl(path.join(dir, `manipulation${suffix}.jsonl`), manipulationCaseSchema),
  };
}

const evalDir = (repoRoot: string) => path.resolve(repoRoot, "lib", "assess", "eval");

/**
 * The development cases (`lib/assess/eval/*.dev.jsonl`): the ones the heuristic cues were tuned on, disjoint from the
 * shared yardstick and from the held-out set.
 */
export function loadDevCases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".dev");
}

/**
 * The held-out cases (`lib/assess/eval/*.heldout.jsonl`): written and committed before any cue was changed, scored to
 * report and to set the CI floor, never tuned on.
 */
export function loadHeldoutCases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout");
}

/**
 * The retired held-out sets v2–v8 (`lib/assess/eval/*.heldout2.jsonl` … `*.heldout8.jsonl`). Each was written blind to
 * the assessor's code in domains absent from every other set, committed alone before the changes it was to measure,
 * and scored once at the end of those changes; after that it joins the development pool (the fitted models train on
 * it). Sizes: v2 72 pairs / 24 messages, v3 64 / 24, v4 96 / 36, v5 120 / 40, v6 128 / 44, v7 128 / 48, v8 160 / 60;
 * from v5 on, one pair of each label per belief.
 */
export function loadHeldout2Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout2");
}

export function loadHeldout3Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout3");
}

export function loadHeldout4Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout4");
}

export function loadHeldout5Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout5");
}

export function loadHeldout6Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout6");
}

export function loadHeldout7Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout7");
}

export function loadHeldout8Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout8");
}

/** The development pool's sets by name ("dev", "heldout", …, "heldout8"), for per-set figures. */
export function developmentSets(repoRoot: string): [string, CaseSet][] {
  return [
    ["dev", loadDevCases(repoRoot)],
    ["heldout", loadHeldoutCases(repoRoot)],
    ["heldout2", loadHeldout2Cases(repoRoot)],
    ["heldout3", loadHeldout3Cases(repoRoot)],
    ["heldout4", loadHeldout4Cases(repoRoot)],
    ["heldout5", loadHeldout5Cases(repoRoot)],
    ["heldout6", loadHeldout6Cases(repoRoot)],
    ["heldout7", loadHeldout7Cases(repoRoot)],
    ["heldout8", loadHeldout8Cases(repoRoot)],
  ];
}

/**
 * The development pool: the dev cases and the retired held-out sets. Each held-out set was scored and reported at the
 * end of the changes it was written for; after that it is development data (the fitted relation model trains on it,
 * cues may be checked against it) and only the newest held-out set measures unseen text.
 */
export function loadDevelopmentPool(repoRoot: string): CaseSet {
  const sets = developmentSets(repoRoot).map(([, set]) => set);
  return {
    source: `${path.join(evalDir(repoRoot), "*.{dev,heldout,heldout2,heldout3,heldout4,heldout5,heldout6,heldout7,heldout8}.jsonl")}`,
    relations: sets.flatMap((s) => s.relations),
    manipulation: sets.flatMap((s) => s.manipulation),
  };
}

export interface ClassMetrics {
  precision: number;
  recall: number;
  support: number;
}

export interface EvaluationReport {
  assessor: string;
  source: string;
  relation: {
    total: number;
    correct: number;
    accuracy: number;
    perClass: Record<(typeof RELATION_LABELS)[number], ClassMetrics>;
    /** confusion[expected][predicted] = count. */
    confusion: Record<string, Record<string, number>>;
    errors: Array<{ id: string; expected: string; predicted: string }>;
  };
  manipulation: {
    total: number;
    accuracy: number;
    precision: number;
    recall: number;
    typeAccuracy: number;
    errors: Array<{ id: string; expected: boolean; predicted: boolean; type: string }>;
  };
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** Run `assessor` over `cases` sequentially (deterministic order, gentle on a rate-limited server). */
export async function evaluateAssessor(assessor: Assessor, cases: CaseSet): Promise<EvaluationReport> {
  const confusion: Record<string, Record<string, number>> = {};
  for (const e of RELATION_LABELS) confusion[e] = Object.fromEntries(RELATION_LABELS.map((p) => [p, 0]));
  const relationErrors: EvaluationReport["relation"]["errors"] = [];
  for (const c of cases.relations) {
    const result = await assessor.assessRelation(c.evidence, { id: c.id, text: c.belief });
    const row = confusion[c.relation] as Record<string, number>;
    row[result.relation] = (row[result.relation] ?? 0) + 1;
    if (result.relation !== c.relation) relationErrors.push({ id: c.id, expected: c.relation, predicted: result.relation });
  }
  const perClass = Object.fromEntries(
    RELATION_LABELS.map((label) => {
      const tp = confusion[label]?.[label] ?? 0;
      const predicted = RELATION_LABELS.reduce((sum, e) => sum + (confusion[e]?.[label] ?? 0), 0);
      const actual = RELATION_LABELS.reduce((sum, p) => sum + (confusion[label]?.[p] ?? 0), 0);
      return [label, { precision: ratio(tp, predicted), recall: ratio(tp, actual), support: actual }];
    }),
  ) as EvaluationReport["relation"]["perClass"];
  const correct = cases.relations.length - relationErrors.length;

  let tp = 0;
  let fp = 0;
  let fn = 0;
  let typeCorrect = 0;
  const manipulationErrors: EvaluationReport["manipulation"]["errors"] = [];
  for (const c of cases.manipulation) {
    const result = await assessor.assessEvidence(c.text);
    if (result.manipulative && c.manipulative) tp++;
    else if (result.manipulative) fp++;
    else if (c.manipulative) fn++;
    if (result.reasoningType === c.reasoningType) typeCorrect++;
    if (result.manipulative !== c.manipulative) {
      manipulationErrors.push({ id: c.id, expected: c.manipulative, predicted: result.manipulative, type: result.reasoningType });
    }
  }
  const m = cases.manipulation.length;
  return {
    assessor: assessor.name,
    source: cases.source,
    relation: {
      total: cases.relations.length,
      correct,
      accuracy: ratio(correct, cases.relations.length),
      perClass,
      confusion,
      errors: relationErrors,
    },
    manipulation: {
      total: m,
      accuracy: ratio(m - manipulationErrors.length, m),
      precision: ratio(tp, tp + fp),
      recall: ratio(tp, tp + fn),
      typeAccuracy: ratio(typeCorrect, m),
      errors: manipulationErrors,
    },
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const pad = (s: string, n: number) => s.padEnd(n);
const lpad = (s: string, n: number) => s.padStart(n);

/** A plain-text table of the report (what `npm run eval:assessor` and the CI test print). */
export function formatReport(report: EvaluationReport): string {
  const r = report.relation;
  const short: Record<string, string> = { SUPPORTS: "SUP", REBUTS: "REB", CONTEXTUALIZES: "CTX", UNRELATED: "UNR" };
  const lines = [
    `Assessor ${report.assessor} on ${report.source}`,
    `Relations: accuracy ${pct(r.accuracy)} (${r.correct}/${r.total})`,
    `  ${pad("class", 15)}${lpad("precision", 10)}${lpad("recall", 8)}${lpad("n", 4)}`,
    ...RELATION_LABELS.map((l) => `  ${pad(l, 15)}${lpad(pct(r.perClass[l].precision), 10)}${lpad(pct(r.perClass[l].recall), 8)}${lpad(String(r.perClass[l].support), 4)}`),
    `  confusion (rows expected, columns predicted)`,
    `  ${pad("", 15)}${RELATION_LABELS.map((l) => lpad(short[l] ?? l, 5)).join("")}`,
    ...RELATION_LABELS.map((e) => `  ${pad(e, 15)}${RELATION_LABELS.map((p) => lpad(String(r.confusion[e]?.[p] ?? 0), 5)).join("")}`),
  ];
  if (r.errors.length > 0) lines.push(`  misclassified: ${r.errors.map((e) => `${e.id} ${short[e.expected]}→${short[e.predicted]}`).join(", ")}`);
  const m = report.manipulation;
  lines.push(
    `Manipulation: accuracy ${pct(m.accuracy)} (n=${m.total}), precision ${pct(m.precision)}, recall ${pct(m.recall)}, reasoning-type accuracy ${pct(m.typeAccuracy)}`,
  );
  if (m.errors.length > 0) lines.push(`  misjudged: ${m.errors.map((e) => `${e.id} (${e.expected ? "missed" : "false alarm"}, ${e.type})`).join(", ")}`);
  return lines.join("\n");
}

/** The targets for held-out cases (what the reading aims at). */
export const TARGETS = { relationAccuracy: 0.8, manipulationRecall: 0.9 } as const;

/**
 * The CI floors, set from honest runs of the offline heuristic on each held-out set when it was scored, never from the
 * cases tuned on. Each floor sits a few points under its set's figure: a change that loses one or two cases passes, a
 * regression fails. Raise a floor when its figures rise; never lower it to pass, and never tune on held-out cases. The
 * figures behind each floor are in the commit that set it. The words-only floors apply when the embedding model
 * is missing (CI always has it); a precision floor stands beside the recall floor from v6 on, whose harder honest
 * controls showed that the manipulation model's cross-validated precision did not hold on unseen text.
 */
export const HELDOUT_FLOOR = { relationAccuracy: 0.67, manipulationRecall: 0.9 } as const;
export const HELDOUT2_FLOOR = { relationAccuracy: 0.64, manipulationRecall: 0.7 } as const;
export const HELDOUT3_FLOOR = { relationAccuracy: 0.52, manipulationRecall: 0.85 } as const;
export const HELDOUT4_FLOOR = { relationAccuracy: 0.65, manipulationRecall: 0.86 } as const;
export const HELDOUT4_WORDS_ONLY_FLOOR = { relationAccuracy: 0.57, manipulationRecall: 0.86 } as const;
export const HELDOUT5_FLOOR = { relationAccuracy: 0.7, manipulationRecall: 0.9 } as const;
export const HELDOUT5_WORDS_ONLY_FLOOR = { relationAccuracy: 0.71, manipulationRecall: 0.5 } as const;
export const HELDOUT6_FLOOR = { relationAccuracy: 0.75, manipulationRecall: 0.76, manipulationPrecision: 0.85 } as const;
export const HELDOUT6_WORDS_ONLY_FLOOR = { relationAccuracy: 0.71, manipulationRecall: 0.38 } as const;
export const HELDOUT7_FLOOR = { relationAccuracy: 0.64, manipulationRecall: 0.85, manipulationPrecision: 0.85 } as const;
export const HELDOUT7_WORDS_ONLY_FLOOR = { relationAccuracy: 0.6, manipulationRecall: 0.53 } as const;
export const HELDOUT8_FLOOR = { relationAccuracy: 0.77, manipulationRecall: 0.91, manipulationPrecision: 0.85 } as const;
export const HELDOUT8_WORDS_ONLY_FLOOR = { relationAccuracy: 0.71, manipulationRecall: 0.62 } as const;

/**
 * A regression floor on the development cases and the shared yardstick, words only (the fitted model's training data).
 * Not a measure of unseen text.
 */
export const DEVELOPMENT_FLOOR = { relationAccuracy: 0.65, manipulationRecall: 0.95 } as const;

/** What a set must reach: relation accuracy and manipulation recall, and (when given) manipulation precision. */
export type Floor = { readonly relationAccuracy: number; readonly manipulationRecall: number; readonly manipulationPrecision?: number };

export function meetsTargets(report: EvaluationReport): boolean {
  return report.relation.accuracy >= TARGETS.relationAccuracy && report.manipulation.recall >= TARGETS.manipulationRecall;
}

export function meetsFloor(report: EvaluationReport, floor: Floor = HELDOUT_FLOOR): boolean {
  return (
    report.relation.accuracy >= floor.relationAccuracy &&
    report.manipulation.recall >= floor.manipulationRecall &&
    report.manipulation.precision >= (floor.manipulationPrecision ?? 0)
  );
}
