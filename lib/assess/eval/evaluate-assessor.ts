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
 * The second held-out set (`lib/assess/eval/*.heldout2.jsonl`, issue #11's protocol): 72 relation pairs and 24 messages
 * in eighteen domains absent from the other sets, committed alone (5afdd4d) before the structural reading changed,
 * scored then and once at the end of that round, never tuned on.
 */
export function loadHeldout2Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout2");
}

/**
 * The third held-out set (`lib/assess/eval/*.heldout3.jsonl`, issue #11's protocol, session 4): 64 relation pairs
 * (16 of each label) and 24 messages (14 manipulative, 10 honest controls) in sixteen domains absent from the other
 * sets, committed alone before the fitted relation model and the shape-based pressure reading, scored then and once at
 * the end of that round, never tuned on.
 */
export function loadHeldout3Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout3");
}

/**
 * The fourth held-out set (`lib/assess/eval/*.heldout4.jsonl`, issue #11's protocol, session 5): 96 relation pairs
 * (24 of each label, 24 domains absent from every other set) and 36 messages (22 manipulative, 14 honest controls),
 * written blind to the assessor's code and committed alone (cea2246) before anything of that round was tuned; scored
 * once, at the end of the round. Development data since session 6.
 */
export function loadHeldout4Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout4");
}

/**
 * The fifth held-out set (`lib/assess/eval/*.heldout5.jsonl`, issue #11's protocol, session 6): 120 relation pairs
 * (30 beliefs, one pair of each label per belief, 30 domains absent from every other set), 40 messages (24
 * manipulative, 16 honest controls), written blind to the assessor's code and committed alone (6d09ff7) before anything
 * of that round was tuned; scored at the round's start and once at its end. Development data since session 7.
 */
export function loadHeldout5Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout5");
}

/**
 * The sixth held-out set (`lib/assess/eval/*.heldout6.jsonl`, issue #11's protocol, session 7): 128 relation pairs
 * (32 beliefs, one pair of each label per belief, 32 domains absent from every other set), 44 messages (26
 * manipulative, 18 honest controls, several of them urgent or citing authority with checkable evidence), written blind
 * to the assessor's code and committed alone (0131ac2) before anything of that round was tuned; scored at the round's
 * start and once at its end. Development data since session 8.
 */
export function loadHeldout6Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout6");
}

/**
 * The seventh held-out set (`lib/assess/eval/*.heldout7.jsonl`, issue #11's protocol, session 8): 128 relation pairs
 * (32 beliefs, one pair of each label per belief, 32 domains absent from every other set), 48 messages (28
 * manipulative, 20 honest controls, several urgent or citing a document), written blind to the assessor's code and
 * committed alone (524b81d) before anything of that round was tuned; scored at the round's start and once at its end.
 * Development data since session 9.
 */
export function loadHeldout7Cases(repoRoot: string): CaseSet {
  return loadCaseDir(evalDir(repoRoot), ".heldout7");
}

/**
 * The eighth held-out set (`lib/assess/eval/*.heldout8.jsonl`, issue #11's protocol, session 9): 160 relation pairs
 * (40 beliefs, one pair of each label per belief, 40 domains absent from every other set), 60 messages (34
 * manipulative, 26 honest controls, several urgent, emphatic or citing an authority with a checkable source), written
 * blind to the assessor's code and committed alone (02dcc48) before anything of that round was tuned; scored at the
 * round's start and once at its end. Development data since session 10.
 */
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
 * The development pool: the dev cases and the retired held-out sets. Each held-out set was scored and reported in the
 * round it was written for; at the next round it becomes development data (the fitted relation model trains on it,
 * cues may be checked against it) and only the newest held-out set measures unseen text. v1–v3 retired in session 5,
 * v4 in session 6, v5 in session 7, v6 in session 8, v7 in session 9, v8 in session 10.
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

/** The issue's targets for held-out cases (what the reading aims at). */
export const TARGETS = { relationAccuracy: 0.8, manipulationRecall: 0.9 } as const;

/**
 * The CI floors, set from honest runs of the offline heuristic on the held-out sets, never from the cases tuned on.
 *
 * Held-out v1 (lib/assess/eval/*.heldout.jsonl, committed in 838a564 before the first round of cue changes): after the
 * second round (structural reading, issue #11) relations 66.4 % with and without the local embedding model (65.7 %
 * before it), manipulation recall 100 % (22/22). Held-out v2 (*.heldout2.jsonl, committed alone in 5afdd4d before the
 * second round, scored then and once after it): relations 65.3 % before and after (47/72), manipulation recall 66.7 %
 * (8/12) before and after — the pressure cues were not touched in that round, and the misses show what they still
 * do not read. Each floor sits just under its set's figure (a change that loses one or two cases passes, a regression
 * fails). Raise a floor when its figures rise; never lower it to pass, and never tune on held-out cases.
 */
// Session 4 (fitted relation model in hybrid mode, shape-based pressure): v1 relations 70.9 % with the local model,
// 71.6 % words only; v2 68.1 % / 66.7 %, manipulation recall 75.0 % (9/12). Floors raised to sit a few points under.
export const HELDOUT_FLOOR = { relationAccuracy: 0.67, manipulationRecall: 0.9 } as const;
export const HELDOUT2_FLOOR = { relationAccuracy: 0.64, manipulationRecall: 0.7 } as const;
/**
 * Held-out v3 (*.heldout3.jsonl, committed alone in f81a071 before the fitted relation model and the shape-based
 * pressure reading): before that round relations 56.3 % (36/64), manipulation recall 85.7 % (12/14); after it
 * relations 56.3 % (36/64; 51.6 % words only), manipulation recall 92.9 % (13/14), precision 100 % (see the commit that set this floor). The floor sits a few points under the after-figures.
 */
export const HELDOUT3_FLOOR = { relationAccuracy: 0.52, manipulationRecall: 0.85 } as const;

/**
 * Held-out v4 (*.heldout4.jsonl, committed alone in cea2246 before session 5 changed anything, scored once at its end):
 * before (the code of 6f78c76) relations 42.7 % with the local model, 40.6 % words only, manipulation recall 72.7 %
 * (16/22); after (the relation model fitted on the development pool, the pressure mechanisms) relations 68.8 % (66/96)
 * with the local model, 60.4 % words only, manipulation recall 90.9 % (20/22), precision 100 % both times. The floor
 * sits a few points under; the words-only floor applies when the embedding model is missing (CI always has it).
 */
export const HELDOUT4_FLOOR = { relationAccuracy: 0.65, manipulationRecall: 0.86 } as const;
export const HELDOUT4_WORDS_ONLY_FLOOR = { relationAccuracy: 0.57, manipulationRecall: 0.86 } as const;

/**
 * Held-out v5 (*.heldout5.jsonl, committed alone in 6d09ff7 before session 6 changed anything): at the round's start
 * (the code of 9204fff) relations 64.2 % with the local model (SUP 30.0 / REB 60.0 / CTX 86.7 / UNR 80.0 recall),
 * 55.0 % words only, manipulation recall 54.2 % (13/24), precision 100 %; at its end (scored once: quantities with
 * dimension and bound, narrowed subjects, the refitted relation model, the fitted manipulation model) relations 80.0 %
 * (96/120; SUP 80.0 / REB 66.7 / CTX 90.0 / UNR 83.3 recall), 75.8 % words only, manipulation recall 100 % (24/24),
 * precision 96.0 % (one honest message flagged); words only (the phrase cues alone) recall stays 54.2 %. A code
 * review then found real misreadings in the new quantity reading ("1,000 requests per minute" read as none a day,
 * "30 euros a month" as an event count, …); fixed, refitted, nothing tuned on v5, re-run once: relations 73.3 %
 * (88/120) with the local model, 75.0 % words only, manipulation unchanged. The floor sits a few points under the
 * shipped code's figures; the words-only floor applies when the embedding model is missing (CI always has it).
 */
export const HELDOUT5_FLOOR = { relationAccuracy: 0.7, manipulationRecall: 0.9 } as const;
export const HELDOUT5_WORDS_ONLY_FLOOR = { relationAccuracy: 0.71, manipulationRecall: 0.5 } as const;

/**
 * Held-out v6 (*.heldout6.jsonl, committed alone in 0131ac2 before session 7 changed anything). At the round's start
 * (the code of 384ea3a): relations 74.2 % (95/128) with the local model (SUP 62.5 / REB 62.5 / CTX 71.9 / UNR 100
 * recall), 70.3 % words only, 58.6 % by the rule order alone; manipulation recall 80.8 % (21/26) at precision 75.0 %
 * (7 of 18 honest messages flagged), words only recall 42.3 % at precision 100 %. The fitted manipulation model's
 * leave-one-file-out estimate (≈ 93 % recall, 97 % precision) did not hold on harder honest controls: hence a
 * precision floor beside the recall floor from this set on. At the round's end (scored once, the code of fed677c: the
 * evidence-kind reading and the refitted relation model, the value vocabulary, the manipulation model's evidence
 * set-aside and its new hard controls): relations 78.9 % (101/128; SUP 78.1 / REB 68.8 / CTX 78.1 / UNR 90.6 recall),
 * 75.0 % words only, 58.6 % by the rule order alone; manipulation recall 80.8 % (21/26) at precision 91.3 % (2 of 18
 * honest messages flagged), words only 42.3 % at 100 %. The floors sit a few points under.
 */
export const HELDOUT6_FLOOR = { relationAccuracy: 0.75, manipulationRecall: 0.76, manipulationPrecision: 0.85 } as const;
export const HELDOUT6_WORDS_ONLY_FLOOR = { relationAccuracy: 0.71, manipulationRecall: 0.38 } as const;

/**
 * Held-out v7 (*.heldout7.jsonl, committed alone in 524b81d before session 8 changed anything). At the round's start
 * (the code of 4dd0678, session 7's assessor): relations 68.0 % (87/128) with the local model (SUP 65.6 / REB 56.3 /
 * CTX 78.1 / UNR 71.9 recall), 63.3 % words only, 49.2 % by the rule order alone; manipulation recall 89.3 % (25/28) at
 * precision 86.2 % (4 of 20 honest messages flagged), words only 57.1 % at 100 %. At its end (scored once, the code of
 * 4469a1d: the quarter-hour reading and the relation model refitted with v6, the manipulation model's concealment and
 * waived-checking pushes and its refit with dev3): relations 68.0 % (87/128; same recalls), 64.1 % words only, 49.2 %
 * rules only; manipulation recall 89.3 % (25/28) at precision 92.6 % (2 of 20 flagged), words only 57.1 % at 100 %.
 * The pool's leave-one-set-out estimate was 78.5 %: ten points above what this set gave. The floors sit a few points
 * under.
 */
export const HELDOUT7_FLOOR = { relationAccuracy: 0.64, manipulationRecall: 0.85, manipulationPrecision: 0.85 } as const;
export const HELDOUT7_WORDS_ONLY_FLOOR = { relationAccuracy: 0.6, manipulationRecall: 0.53 } as const;

/**
 * Held-out v8 (*.heldout8.jsonl, committed alone in 02dcc48 before session 9 changed anything). At the round's start
 * (the code of 7a7b572, session 8's assessor): relations 81.9 % (131/160) with the local model (SUP 82.5 / REB 65.0 /
 * CTX 82.5 / UNR 97.5 recall), 77.5 % words only, 45.6 % by the rule order alone; manipulation recall 97.1 % (33/34) at
 * precision 91.7 % (3 of 26 honest messages flagged), words only 67.6 % at 100 %. At its end (scored once, the code of
 * c93667a: the word swap by meaning, values split across clauses and the relation model refitted with v7; the unsourced
 * standing / settled-agreement, notice-form and repeated-value cues and the manipulation model refitted with dev4 and
 * v7): relations 81.3 % (130/160; SUP 82.5 / REB 65.0 / CTX 80.0 / UNR 97.5), 75.6 % words only, 45.6 % rules only;
 * manipulation recall 97.1 % (33/34) at precision 91.7 % (3 of 26 flagged), words only 67.6 % at 100 %. v7 gave 68.0 %
 * of relations with the same kind of code: between fresh sets the spread is wide. The floors sit a few points under.
 */
export const HELDOUT8_FLOOR = { relationAccuracy: 0.77, manipulationRecall: 0.91, manipulationPrecision: 0.85 } as const;
export const HELDOUT8_WORDS_ONLY_FLOOR = { relationAccuracy: 0.71, manipulationRecall: 0.62 } as const;

/**
 * A regression floor on the development cases and the shared yardstick, words only (the fitted model's training data
 * since session 5: 68.6 % and 95.0 % of relations, manipulation recall 100 % on both). Not a measure of unseen text.
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
