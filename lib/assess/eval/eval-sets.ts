/**
 * Every evaluation set, listed once in `sets.json` and read by one loader.
 *
 * - `public`: development halves of public labelled sets (SICK, Climate-FEVER, MRPC), written by people outside this
 *   team. They are the yardstick. They are not in the repository: `$CREDENCE_EVAL_DIR/public`, else
 *   `<repo>/../shared/eval/public`; absent, the public figures are not computed. A set with `perLabel` is sampled
 *   deterministically: the first `perLabel` rows of each label in order of sha256(id).
 * - `team`: the team's own labelled files (`lib/assess/eval/`), regression tests of named behaviours, never a figure
 *   of merit (the same hands wrote the reader and the sets).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import manifest from "./sets.json";

export type SetKind = "relations" | "restatements" | "messages";

/** A relation's gold label: NEITHER (public sets) is right when read as CONTEXTUALIZES or UNRELATED. */
export type GoldRelation = "SUPPORTS" | "REBUTS" | "CONTEXTUALIZES" | "UNRELATED" | "NEITHER";

export interface RelationRow {
  id: string;
  belief: string;
  evidence: string;
  gold: GoldRelation;
}
export interface RestatementRow {
  id: string;
  a: string;
  b: string;
  same: boolean;
}
export interface MessageRow {
  id: string;
  text: string;
  manipulative: boolean;
  reasoningType?: string;
}

export interface SetEntry {
  name: string;
  kind: SetKind;
  file: string;
  perLabel?: number;
}

const entry = z.object({ name: z.string().min(1), kind: z.enum(["relations", "restatements", "messages"]), file: z.string().min(1), perLabel: z.number().int().positive().optional() });
const figures = z.record(z.string(), z.number().min(0).max(1));
const MANIFEST = z
  .object({
    public: z.array(entry),
    team: z.array(entry),
    floors: z.object({ public: z.record(z.string(), figures), regression: figures }),
  })
  .parse(manifest);

/** The CI floors (`--check`): per public set (sides, committedPrecision, coverage, accuracy, precision) and on the team's sets. */
export const FLOORS: { public: Record<string, Record<string, number>>; regression: Record<string, number> } = MANIFEST.floors;

export const PUBLIC_SETS: readonly SetEntry[] = MANIFEST.public;
export const TEAM_SETS: readonly SetEntry[] = MANIFEST.team;

const relationRow = z.union([
  z.object({ id: z.string().min(1), belief: z.string().min(1), evidence: z.string().min(1), label: z.enum(["SUPPORTS", "REBUTS", "NEITHER"]) }).transform((r) => ({ id: r.id, belief: r.belief, evidence: r.evidence, gold: r.label as GoldRelation })),
  z.object({ id: z.string().min(1), belief: z.string().min(1), evidence: z.string().min(1), relation: z.enum(["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "UNRELATED"]) }).transform((r) => ({ id: r.id, belief: r.belief, evidence: r.evidence, gold: r.relation as GoldRelation })),
]);
const restatementRow = z.object({ id: z.string().min(1), a: z.string().min(1), b: z.string().min(1), same: z.boolean() });
const messageRow = z.object({ id: z.string().min(1), text: z.string().min(1), manipulative: z.boolean(), reasoningType: z.string().min(1).optional() });

/** The folder of the team's own sets. */
export function teamDir(repoRoot: string): string {
  return path.resolve(repoRoot, "lib", "assess", "eval");
}

/** The public development sets' folder, or null when it is not on this machine. */
export function publicDir(repoRoot: string, env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const candidates = [env.CREDENCE_EVAL_DIR ? path.join(env.CREDENCE_EVAL_DIR, "public") : null, path.resolve(repoRoot, "..", "shared", "eval", "public")];
  return candidates.find((dir): dir is string => dir !== null && PUBLIC_SETS.every((s) => existsSync(path.join(dir, s.file)))) ?? null;
}

/** `publicDir`, or an error saying where the public development sets were looked for (research scripts need them). */
export function requirePublicDir(repoRoot: string): string {
  const dir = publicDir(repoRoot);
  if (dir === null) throw new Error("the public development sets are not here ($CREDENCE_EVAL_DIR/public or ../shared/eval/public)");
  return dir;
}

const sha = (id: string) => createHash("sha256").update(id).digest("hex");

function sample<T extends { id: string }>(rows: T[], perLabel: number | undefined, label: (row: T) => string): T[] {
  if (perLabel === undefined) return rows;
  const taken = new Map<string, number>();
  const keep = new Set<T>();
  for (const row of [...rows].sort((a, b) => (sha(a.id) < sha(b.id) ? -1 : 1))) {
    const n = taken.get(label(row)) ?? 0;
    if (n < perLabel) {
      taken.set(label(row), n + 1);
      keep.add(row);
    }
  }
  return rows.filter((r) => keep.has(r));
}

function readJsonLines<T>(file: string, schema: z.ZodType<T>): T[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line.length > 0)
    .map(({ line, n }) => {
      const parsed = schema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${file}:${n}: ${parsed.error.issues[0]?.message ?? "invalid row"}`);
      return parsed.data;
    });
}

export type LoadedSet =
  | { entry: SetEntry; kind: "relations"; rows: RelationRow[] }
  | { entry: SetEntry; kind: "restatements"; rows: RestatementRow[] }
  | { entry: SetEntry; kind: "messages"; rows: MessageRow[] };

/** The one loader: the rows of `entry` (sampled when it says so) from `dir`. */
export function loadSet(entry: SetEntry, dir: string): LoadedSet {
  const file = path.join(dir, entry.file);
  switch (entry.kind) {
    case "relations":
      return { entry, kind: "relations", rows: sample(readJsonLines(file, relationRow), entry.perLabel, (r) => r.gold) };
    case "restatements":
      return { entry, kind: "restatements", rows: sample(readJsonLines(file, restatementRow), entry.perLabel, (r) => String(r.same)) };
    case "messages":
      return { entry, kind: "messages", rows: sample(readJsonLines(file, messageRow), entry.perLabel, (r) => String(r.manipulative)) };
  }
}

/** The team's sets of one kind, by name. */
export function teamSets<K extends SetKind>(repoRoot: string, kind: K): Extract<LoadedSet, { kind: K }>[] {
  return TEAM_SETS.filter((s) => s.kind === kind).map((s) => loadSet(s, teamDir(repoRoot)) as Extract<LoadedSet, { kind: K }>);
}
