/**
 * The Neo4j store's idempotency marks (`lib/graph/idempotency-mark.ts`): one `IdempotencyMark` node per change-set
 * applied under a claim, created inside the change-set's managed write transaction, unique on `(ns, id)`.
 */
import neo4j from "neo4j-driver";
import { ChangeSetRejected } from "../errors";
import { markId, markPrefix, type IdempotencyMark, type IdempotencyMarkRecord, type IdempotencyMarks } from "../idempotency-mark";
import type { CypherRunner } from "./neo4j-runner";

export const IDEMPOTENCY_MARK_CONSTRAINT = "CREATE CONSTRAINT credence_idempotency_mark IF NOT EXISTS FOR (n:IdempotencyMark) REQUIRE (n.ns, n.id) IS UNIQUE";

const CREATE_MARK = `
OPTIONAL MATCH (existing:IdempotencyMark {ns: $ns, id: $id})
WITH existing WHERE existing IS NULL
CREATE (m:IdempotencyMark {ns: $ns, id: $id, ordinal: $ordinal, changeSetId: $changeSetId, at: $at})
RETURN m.id AS id`;

const LIST_MARKS = `
MATCH (m:IdempotencyMark) WHERE m.ns = $ns AND m.id STARTS WITH $prefix
RETURN m.ordinal AS ordinal, m.changeSetId AS changeSetId ORDER BY m.ordinal`;

const PURGE_MARKS = `
MATCH (m:IdempotencyMark) WHERE m.ns = $ns AND m.at <= $before
WITH m LIMIT 10000 DETACH DELETE m RETURN count(*) AS n`;

function isMarkViolation(error: unknown): boolean {
  const message = error instanceof Error ? error.message : "";
  return message.includes("IdempotencyMark");
}

/** Creates the mark in `tx`; an existing one (or a concurrent twin, caught by the constraint) rejects the change-set. */
export async function writeIdempotencyMarkInTx(tx: CypherRunner, ns: string, mark: IdempotencyMark, changeSetId: string): Promise<void> {
  let created: number;
  try {
    created = (await tx.run(CREATE_MARK, { ns, id: markId(mark, mark.ordinal), ordinal: neo4j.int(mark.ordinal), changeSetId, at: neo4j.int(Date.now()) })).records.length;
  } catch (error) {
    if (isMarkViolation(error)) throw new ChangeSetRejected("already_applied", "This write was already applied under its Idempotency-Key.", { cause: error });
    throw error;
  }
  if (created === 0) throw new ChangeSetRejected("already_applied", "This write was already applied under its Idempotency-Key.");
}

export function neo4jIdempotencyMarks(ns: string, readTx: <T>(work: (tx: CypherRunner) => Promise<T>) => Promise<T>, writeTx: <T>(work: (tx: CypherRunner) => Promise<T>) => Promise<T>): IdempotencyMarks {
  return {
    async list(principal, key, claimId) {
      const result = await readTx((tx) => tx.run(LIST_MARKS, { ns, prefix: markPrefix({ principal, key, claimId }) }));
      return result.records.map((r): IdempotencyMarkRecord => {
        const row = r.toObject();
        return { ordinal: Number(String(row.ordinal)), changeSetId: String(row.changeSetId) };
      });
    },
    async purge(hours) {
      const result = await writeTx((tx) => tx.run(PURGE_MARKS, { ns, before: neo4j.int(Date.now() - hours * 3_600_000) }));
      return Number(String(result.records[0]?.toObject().n ?? 0));
    },
  };
}
