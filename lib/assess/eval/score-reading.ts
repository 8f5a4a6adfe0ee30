/**
 * Figures of a reader on labelled rows, read through the batch reader (lib/beliefs/batch-read), the path
 * `npm run --silent cli -- read` takes.
 *
 * Relations:
 * - sides accuracy: of the support / rebut pairs, the share read as exactly their side (UNDECIDED is not right);
 * - 3-way accuracy: every pair, NEITHER right as CONTEXTUALIZES or UNRELATED (UNDECIDED is not right);
 * - committed precision: of the readings that commit to SUPPORTS or REBUTS, the share that are right;
 * - coverage: of the support / rebut pairs, the share the reader commits to a side on (right or wrong);
 * - the confusion matrix (gold × read), and the risk–coverage curve: the same figures had the reader committed to its
 *   best guess at each confidence threshold.
 */
import type { AssessedRelation, DecidedRelation } from "@/lib/engine/assessor";
import type { GoldRelation, MessageRow, RelationRow, RestatementRow } from "./eval-sets";

type ReadRelation = AssessedRelation;

/** What the scoring needs of a reader (the batch reader's `Reader`, lib/beliefs/batch-read, has this shape). */
export interface Reader {
  relation(belief: string, evidence: string): Promise<{ relation: AssessedRelation; confidence: number; guess?: DecidedRelation }>;
  restatement(a: string, b: string): Promise<{ same: boolean }>;
  message(text: string): Promise<{ manipulative: boolean }>;
}

export interface RelationReading {
  row: RelationRow;
  relation: ReadRelation;
  confidence: number;
  /** The committed reading, or the best guess when UNDECIDED. */
  guess: DecidedRelation;
}

export const READ_LABELS = ["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED", "UNDECIDED"] as const;

export async function readRelations(reader: Reader, rows: readonly RelationRow[]): Promise<{ readings: RelationReading[]; msPerReading: number }> {
  const readings: RelationReading[] = [];
  const start = performance.now();
  for (const row of rows) {
    const r = await reader.relation(row.belief, row.evidence);
    readings.push({ row, relation: r.relation, confidence: r.confidence, guess: r.guess ?? (r.relation === "UNDECIDED" ? "CONTEXTUALIZES" : r.relation) });
  }
  return { readings, msPerReading: rows.length === 0 ? 0 : (performance.now() - start) / rows.length };
}

const isSide = (g: GoldRelation | ReadRelation): g is "SUPPORTS" | "REBUTS" => g === "SUPPORTS" || g === "REBUTS";

/** A reading is right when it names the gold label (NEITHER: CONTEXTUALIZES or UNRELATED). */
export function rightReading(gold: GoldRelation, read: ReadRelation): boolean {
  if (read === "UNDECIDED") return false;
  if (gold === "NEITHER") return read === "CONTEXTUALIZES" || read === "UNRELATED";
  return gold === read;
}

export interface RelationFigures {
  pairs: number;
  sidePairs: number;
  sides: number;
  threeWay: number;
  committed: number;
  committedPrecision: number;
  coverage: number;
  undecided: number;
  /** gold label → read label → count. */
  confusion: Record<string, Record<string, number>>;
}

const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);

export function relationFigures(readings: readonly { row: RelationRow; relation: ReadRelation }[]): RelationFigures {
  const sidesRows = readings.filter((r) => isSide(r.row.gold));
  const committed = readings.filter((r) => isSide(r.relation));
  const confusion: Record<string, Record<string, number>> = {};
  for (const r of readings) {
    const line = (confusion[r.row.gold] ??= Object.fromEntries(READ_LABELS.map((l) => [l, 0])));
    line[r.relation] = (line[r.relation] ?? 0) + 1;
  }
  return {
    pairs: readings.length,
    sidePairs: sidesRows.length,
    sides: ratio(sidesRows.filter((r) => r.relation === r.row.gold).length, sidesRows.length),
    threeWay: ratio(readings.filter((r) => rightReading(r.row.gold, r.relation)).length, readings.length),
    committed: committed.length,
    committedPrecision: ratio(committed.filter((r) => r.relation === r.row.gold).length, committed.length),
    coverage: ratio(sidesRows.filter((r) => isSide(r.relation)).length, sidesRows.length),
    undecided: ratio(readings.filter((r) => r.relation === "UNDECIDED").length, readings.length),
    confusion,
  };
}

/** The figures had the reader committed to its guess wherever its confidence reached `threshold`. */
export function atThreshold(readings: readonly RelationReading[], threshold: number): RelationFigures {
  return relationFigures(readings.map((r) => ({ row: r.row, relation: r.confidence >= threshold ? r.guess : ("UNDECIDED" as const) })));
}

export const CURVE_THRESHOLDS = [0, 0.3, 0.4, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9] as const;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function formatRelationFigures(f: RelationFigures): string[] {
  const labels = READ_LABELS.map((l) => l.slice(0, 6).padStart(7)).join("");
  return [
    `pairs ${f.pairs} (support/rebut ${f.sidePairs}): sides ${pct(f.sides)}, 3-way ${pct(f.threeWay)}, committed precision ${pct(f.committedPrecision)} (${f.committed} committed), coverage ${pct(f.coverage)}, undecided ${pct(f.undecided)}`,
    `confusion (gold \\ read) ${labels}`,
    ...Object.entries(f.confusion).map(([gold, line]) => `  ${gold.padEnd(22)}${READ_LABELS.map((l) => String(line[l] ?? 0).padStart(7)).join("")}`),
  ];
}

export function formatCurve(readings: readonly RelationReading[]): string[] {
  return [
    "risk–coverage (threshold: committed precision / coverage of support-rebut pairs / sides)",
    ...CURVE_THRESHOLDS.map((t) => {
      const f = atThreshold(readings, t);
      return `  ≥ ${t.toFixed(2)}: ${pct(f.committedPrecision).padStart(6)} / ${pct(f.coverage).padStart(6)} / ${pct(f.sides).padStart(6)}`;
    }),
  ];
}

export interface BinaryFigures {
  total: number;
  accuracy: number;
  precision: number;
  recall: number;
  /** Rows read positive that are not (for a set of negatives only: the false-positive rate). */
  falsePositiveRate: number;
}

function binary(pairs: readonly { gold: boolean; read: boolean }[]): BinaryFigures {
  const tp = pairs.filter((p) => p.gold && p.read).length;
  const fp = pairs.filter((p) => !p.gold && p.read).length;
  const negatives = pairs.filter((p) => !p.gold).length;
  return {
    total: pairs.length,
    accuracy: ratio(pairs.filter((p) => p.gold === p.read).length, pairs.length),
    precision: ratio(tp, tp + fp),
    recall: ratio(tp, pairs.filter((p) => p.gold).length),
    falsePositiveRate: ratio(fp, negatives),
  };
}

export async function restatementFigures(reader: Reader, rows: readonly RestatementRow[]): Promise<BinaryFigures> {
  const pairs: { gold: boolean; read: boolean }[] = [];
  for (const row of rows) pairs.push({ gold: row.same, read: (await reader.restatement(row.a, row.b)).same });
  return binary(pairs);
}

export async function messageFigures(reader: Reader, rows: readonly MessageRow[]): Promise<BinaryFigures> {
  const pairs: { gold: boolean; read: boolean }[] = [];
  for (const row of rows) pairs.push({ gold: row.manipulative, read: (await reader.message(row.text)).manipulative });
  return binary(pairs);
}

export const formatBinary = (f: BinaryFigures) =>
  `${f.total} rows: accuracy ${pct(f.accuracy)}, precision ${pct(f.precision)}, recall ${pct(f.recall)}, false positives ${pct(f.falsePositiveRate)} of negatives`;
