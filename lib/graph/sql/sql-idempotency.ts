/**
 * The SQL store's idempotency marks (`lib/graph/idempotency-mark.ts`): one row of `graph_idempotency_marks` per
 * change-set applied under a claim, inserted inside the change-set's transaction.
 */
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { ChangeSetRejected } from "../errors";
import type { IdempotencyMark, IdempotencyMarkRecord, IdempotencyMarks } from "../idempotency-mark";

/**
 * Inserts the mark; one that exists already (another attempt of the same claim committed this write) rejects the
 * change-set. Under READ COMMITTED a concurrent insert of the same mark waits for the other transaction and then
 * conflicts, so only one of them commits.
 */
export async function writeIdempotencyMark(tx: SqlExecutor, mark: IdempotencyMark, changeSetId: string): Promise<void> {
  const inserted = await tx.query(
    `INSERT INTO "graph_idempotency_marks" ("principal", "key", "claim_id", "ordinal", "change_set_id")
     VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING "ordinal"`,
    [mark.principal, mark.key, mark.claimId, mark.ordinal, changeSetId],
  );
  if (inserted.length === 0) throw new ChangeSetRejected("already_applied", "This write was already applied under its Idempotency-Key.");
}

export function sqlIdempotencyMarks(sql: SqlExecutor): IdempotencyMarks {
  return {
    async list(principal, key, claimId) {
      const rows = await sql.query<{ ordinal: number; change_set_id: string }>(
        `SELECT "ordinal", "change_set_id" FROM "graph_idempotency_marks" WHERE "principal" = $1 AND "key" = $2 AND "claim_id" = $3 ORDER BY "ordinal"`,
        [principal, key, claimId],
      );
      return rows.map((r): IdempotencyMarkRecord => ({ ordinal: Number(r.ordinal), changeSetId: r.change_set_id }));
    },
    async purge(hours) {
      const rows = await sql.query(`DELETE FROM "graph_idempotency_marks" WHERE "created_at" <= now() - make_interval(hours => $1::int) RETURNING "ordinal"`, [hours]);
      return rows.length;
    },
  };
}
