/**
 * The one place where SQL rows become model values: every statement of `sql-queries.ts` names the zod schema of its
 * rows, and `run` parses each row with it, so nothing read from the database (JSONB documents included) reaches the
 * services unchecked. The JSONB documents are parsed with the port's own schemas (`beliefSchema`, `historyItemSchema`,
 * …), the same ones the Neo4j adapter's record parser uses. A row that fails its schema is a corrupt store, reported
 * as `store_misconfigured` with the statement's name and the first issue.
 *
 * The candidate-stats search keeps its plain type checks (`candidateStatsOf` in the port): it returns tens of
 * thousands of rows and a schema parse would cost more than the query.
 */
import { z } from "zod";
import type {
  StandingHead,
  Belief,
  BeliefHead,
  BeliefRecord,
  CheckpointHead,
  CheckpointSlice,
  CheckpointSource,
  CitationRef,
  Evidence,
  FoldCheckpoint,
  HistoryItem,
  ItemKind,
  MutationRecord,
  TopicFreeze,
} from "@/lib/engine";
import { checkpointHeadSchema, checkpointSourceDataSchema, foldCheckpointSchema, ITEM_KINDS, MUTATION_STATUSES, sliceOfCheckpoint, TIERS } from "@/lib/engine";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { GraphStoreError } from "../errors";
import { beliefSchema, evidenceSchema, historyItemSchema, mutationRecordSchema, standingBeliefSchema, topicFreezeSchema, type OpenReadingRef } from "../graph-store";

/** A named statement: its text (constant) and the schema of the rows it returns. */
export interface SqlStatement<R> {
  readonly name: string;
  readonly text: string;
  readonly row: z.ZodType<R>;
}

export function statement<R>(name: string, text: string, row: z.ZodType<R>): SqlStatement<R> {
  return { name, text, row };
}

/** Runs `stmt` with `params` and parses every row with its schema. */
export async function run<R>(sql: SqlExecutor, stmt: SqlStatement<R>, params: readonly unknown[] = []): Promise<R[]> {
  const raw = await sql.query<unknown>(stmt.text, [...params]);
  return parseRows(stmt, raw);
}

export function parseRows<R>(stmt: SqlStatement<R>, raw: readonly unknown[]): R[] {
  const out: R[] = new Array<R>(raw.length);
  for (let i = 0; i < raw.length; i++) {
    const parsed = stmt.row.safeParse(raw[i]);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join(".") || "(row)"}: ${issue.message}` : "malformed";
      throw new GraphStoreError("store_misconfigured", `SQL graph store: row ${i} of ${stmt.name} is malformed (${where}).`, { cause: parsed.error });
    }
    out[i] = parsed.data;
  }
  return out;
}

// ---- model documents (JSONB `data` columns), typed as the engine's model ----

export const beliefDoc: z.ZodType<Belief> = beliefSchema;
export const evidenceDoc: z.ZodType<Evidence> = evidenceSchema;
export const mutationDoc: z.ZodType<MutationRecord> = mutationRecordSchema;
export const topicFreezeDoc: z.ZodType<TopicFreeze> = topicFreezeSchema;
export const historyDoc: z.ZodType<HistoryItem> = historyItemSchema;

// ---- row shapes ----

const int = z.number().int();

/** `SELECT … data` of one table. */
export const dataRow = <T>(doc: z.ZodType<T>) => z.object({ data: doc }).transform((r) => r.data);

/** A belief with its history (`jsonb_agg` of the history rows, seq order). */
export const beliefRecordRow: z.ZodType<BeliefRecord> = z
  .object({ data: beliefDoc, history: z.array(historyDoc).nullable() })
  .transform((r) => ({ belief: r.data, history: r.history ?? [] }));

/**
 * `read.beliefHeadInHome`, by belief id: the checkpoint is a cache, so one that does not parse is treated as none (the
 * write replays). The head with the rows asked for (`covered`), or a whole checkpoint written before the rows had their
 * own table (it has `sources`: read as covering all of them; the next write splits it).
 */
export const beliefHeadRow = z
  .object({ id: z.string(), data: beliefDoc, checkpoint: z.unknown(), checkpoint_sources: z.unknown(), last_seq: int, history: z.array(historyDoc).nullable() })
  .transform((r) => ({
    id: r.id,
    head: (covered: CheckpointSlice["covered"]): BeliefHead => ({
      belief: r.data,
      lastSeq: r.last_seq,
      checkpoint: checkpointSliceOf(r.checkpoint, r.checkpoint_sources, covered),
      history: r.history,
    }),
  }));

const storedSourcesSchema = z.array(z.tuple([z.string()]).rest(z.unknown()));

function checkpointSliceOf(head: unknown, rows: unknown, covered: CheckpointSlice["covered"]): CheckpointSlice | null {
  if (head === null || head === undefined) return null;
  if (typeof head === "object" && "sources" in head) {
    const whole = foldCheckpointSchema.safeParse(head);
    return whole.success ? sliceOfCheckpoint(whole.data as FoldCheckpoint) : null;
  }
  const parsedHead = checkpointHeadSchema.safeParse(head);
  const sources = checkpointRowsOf(rows);
  if (!parsedHead.success || sources === null) return null;
  return { head: parsedHead.data as CheckpointHead, sources, covered };
}

/** A checkpoint's stored rows (`[source, …data]`), sorted by source; null when one does not parse. */
function checkpointRowsOf(rows: unknown): CheckpointSource[] | null {
  const parsedRows = storedSourcesSchema.safeParse(rows ?? []);
  if (!parsedRows.success) return null;
  const sources: CheckpointSource[] = [];
  for (const [source, ...data] of parsedRows.data) {
    const row = checkpointSourceDataSchema.safeParse(data);
    if (!row.success) return null;
    sources.push([source, ...row.data] as CheckpointSource);
  }
  return sources.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}

const standingCheckpointHeadSchema = checkpointHeadSchema.pick({ format: true, foldedSeq: true, paramsVersion: true, lastSupportAt: true, supportSources: true, maxRebuttal: true });

/**
 * `read.beliefStandings`, by belief id: the belief's fields are checked (a malformed row fails the read); the checkpoint
 * is a cache, so one whose head or a row does not parse (an older format among them) is read as none.
 */
export const standingHeadRow = z
  .object({ checkpoint: z.unknown(), checkpoint_sources: z.unknown(), last_seq: int, contextTags: z.array(z.string()).nullable() })
  .passthrough()
  .transform(({ checkpoint, checkpoint_sources, last_seq, ...r }, ctx): StandingHead => {
    const belief = standingBeliefSchema.safeParse({ ...r, contextTags: r.contextTags ?? [] });
    if (!belief.success) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: belief.error.message });
      return z.NEVER;
    }
    const head = standingCheckpointHeadSchema.safeParse(checkpoint);
    const sources = head.success ? checkpointRowsOf(checkpoint_sources) : null;
    return { belief: belief.data, lastSeq: last_seq, checkpoint: head.success && sources !== null ? { head: head.data, sources, covered: "all" } : null };
  });

export const citationRefRow: z.ZodType<CitationRef> = z.object({ beliefId: z.string(), seq: int });

/** An open undecided reading or possible duplicate with its belief's id (`read.openReadings`). */
export const openReadingRow: z.ZodType<OpenReadingRef> = z.object({ beliefId: z.string(), item: historyDoc }).transform((r, ctx) => {
  if (r.item.type !== "undecided" && r.item.type !== "possible_duplicate") {
    ctx.addIssue({ code: "custom", message: `history item of type ${r.item.type} is no open reading` });
    return z.NEVER;
  }
  return { beliefId: r.beliefId, item: r.item };
});

export const citationRefOfRow = z.object({ source_id: z.string(), beliefId: z.string(), seq: int });

export const citationEdgeRow = z.object({ belief_id: z.string(), seq: int, cited_id: z.string() });

const itemKind: z.ZodType<ItemKind> = z.enum(ITEM_KINDS);

export const nodeRow = z.discriminatedUnion("label", [
  z.object({ label: z.literal("belief"), data: beliefDoc }),
  z.object({ label: z.literal("evidence"), data: evidenceDoc }),
  z.object({ label: z.literal("mutation"), data: mutationDoc }),
]);

const supportRefRow = z.object({ sourceId: z.string(), sourceKind: itemKind, effectiveTier: z.enum(TIERS) });

export const resolvedRow = z.discriminatedUnion("label", [
  z.object({ label: z.literal("belief"), id: z.string(), scope: z.string(), live: z.boolean(), supports: z.array(supportRefRow).nullable() }),
  z.object({ label: z.literal("evidence"), id: z.string(), scope: z.string(), data: evidenceDoc }),
  z.object({ label: z.literal("mutation"), id: z.string(), scope: z.string() }),
]);

export const tableNameRow = z.object({ name: z.string() });

export const statusCountRow = z.object({ status: z.enum(MUTATION_STATUSES), n: int });

const edgeData = z.object({ time: z.string(), changeSet: z.string() });

export const graphEdgeRow = z.object({
  kind: z.enum(["SUPPORTS", "REBUTS", "CONTEXTUALIZES", "SUPERSEDES", "REFINES", "SYNTHESIZES", "CONCERNS"]),
  from_id: z.string(),
  to_id: z.string(),
  seq: int,
  live: z.boolean(),
  data: edgeData,
});

export const beliefEdgeRow = z.object({
  kind: z.enum(["SUPERSEDES", "REFINES", "SYNTHESIZES", "CONCERNS"]),
  from_id: z.string(),
  to_id: z.string(),
  data: edgeData,
});

/** Search's slim rows: checked by `candidateStatsOf` (plain checks), not here. */
export const looseRow = z.record(z.string(), z.unknown());

export const topicSummaryRow = z.object({ topic: z.string(), beliefs: int, live: int, maxTension: z.number(), contested: int, updatedAt: z.string() });
export const topicLinkRow = z.object({ from: z.string(), to: z.string(), relations: int, rebuttals: int });
export const topicEdgeRow = graphEdgeRow.extend({ from_topic: z.string(), to_topic: z.string() });

export const idRow = z.object({ id: z.string() });
export const noRows = z.unknown();
export const countRow = z.object({ n: int });
export const versionRow = z.object({ version: int, scope: z.string() });
/** A belief the change-set core wrote: its last stored seq before this write when it was updated. */
export const coreWrittenRow = z.object({ id: z.string(), max_seq: int.nullable(), updated: z.boolean() });
export const lockedBeliefRow = z.object({ id: z.string(), scope: z.string(), max_seq: int.nullable() });
export const placeholderRow = z.object({ id: z.string(), scope: z.string(), text: z.string() });
export const beliefIdRow = z.object({ belief_id: z.string() });
