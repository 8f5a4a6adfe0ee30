/**
 * Constraints and indexes, created idempotently (`IF NOT EXISTS`) when a store first talks to the database.
 *
 * Uniqueness is per store namespace `ns` (production uses one; tests give each store its own so test files can share
 * Neo4j Community's single database):
 * * `(ns, id)` on Belief, Evidence, Mutation and the two bookkeeping labels;
 * * `(ns, scope, liveKey)` on Belief: `liveKey` is the key while the belief is live and absent otherwise, and a
 *   uniqueness constraint ignores nodes missing a property, so it is "key unique among a scope's live beliefs"
 *   enforced by the database even between concurrent writers;
 * * `(ns, scope, topic)` on TopicFreeze.
 * Range indexes anchor every caller read on `(ns, scope)`; relationship indexes on `sourceId` make `citersOf(id)` an
 * index seek, and on `dangling` let the cascade find the few entries not hung on their source; the full-text index `credence_belief_search` (whitespace analyzer over the engine's own stemmed terms,
 * plus the scope token) serves candidate search.
 */
import type { BookmarkManager, Driver } from "neo4j-driver";
import { IDEMPOTENCY_MARK_CONSTRAINT } from "./neo4j-idempotency";
import { VECTOR_SCHEMA_STATEMENTS } from "./neo4j-vectors";

export const BELIEF_SEARCH_INDEX = "credence_belief_search";

export const SCHEMA_STATEMENTS: readonly string[] = [
  "CREATE CONSTRAINT credence_belief_id IF NOT EXISTS FOR (n:Belief) REQUIRE (n.ns, n.id) IS UNIQUE",
  "CREATE CONSTRAINT credence_evidence_id IF NOT EXISTS FOR (n:Evidence) REQUIRE (n.ns, n.id) IS UNIQUE",
  "CREATE CONSTRAINT credence_mutation_id IF NOT EXISTS FOR (n:Mutation) REQUIRE (n.ns, n.id) IS UNIQUE",
  "CREATE CONSTRAINT credence_belief_live_key IF NOT EXISTS FOR (n:Belief) REQUIRE (n.ns, n.scope, n.liveKey) IS UNIQUE",
  "CREATE CONSTRAINT credence_change_set_id IF NOT EXISTS FOR (n:AppliedChangeSet) REQUIRE (n.ns, n.id) IS UNIQUE",
  IDEMPOTENCY_MARK_CONSTRAINT,
  "CREATE CONSTRAINT credence_topic_freeze IF NOT EXISTS FOR (n:TopicFreeze) REQUIRE (n.ns, n.scope, n.topic) IS UNIQUE",
  "CREATE INDEX credence_belief_scope IF NOT EXISTS FOR (n:Belief) ON (n.ns, n.scope)",
  "CREATE INDEX credence_evidence_scope IF NOT EXISTS FOR (n:Evidence) ON (n.ns, n.scope)",
  "CREATE INDEX credence_evidence_placeholder IF NOT EXISTS FOR (n:Evidence) ON (n.ns, n.scope, n.placeholderFor)",
  "CREATE INDEX credence_mutation_scope IF NOT EXISTS FOR (n:Mutation) ON (n.ns, n.scope)",
  "CREATE INDEX credence_supports_source IF NOT EXISTS FOR ()-[r:SUPPORTS]-() ON (r.sourceId)",
  "CREATE INDEX credence_rebuts_source IF NOT EXISTS FOR ()-[r:REBUTS]-() ON (r.sourceId)",
  "CREATE INDEX credence_contextualizes_source IF NOT EXISTS FOR ()-[r:CONTEXTUALIZES]-() ON (r.sourceId)",
  // The cascade finds entries hung on their own belief (`dangling`: the source was not in the store) through these;
  // created on the first start of this version, and Neo4j fills them from the relationships already stored.
  "CREATE INDEX credence_supports_dangling IF NOT EXISTS FOR ()-[r:SUPPORTS]-() ON (r.dangling)",
  "CREATE INDEX credence_rebuts_dangling IF NOT EXISTS FOR ()-[r:REBUTS]-() ON (r.dangling)",
  "CREATE INDEX credence_contextualizes_dangling IF NOT EXISTS FOR ()-[r:CONTEXTUALIZES]-() ON (r.dangling)",
  `CREATE FULLTEXT INDEX ${BELIEF_SEARCH_INDEX} IF NOT EXISTS FOR (n:Belief) ON EACH [n.searchTerms, n.ftScope] ` +
    "OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace', `fulltext.eventually_consistent`: false}}",
  ...VECTOR_SCHEMA_STATEMENTS,
];

/**
 * Properties earlier versions did not write, filled in once the indexes are online: idempotent (only nodes missing
 * them), in batches of their own transactions, safe from several processes at once (the same value either way).
 * Each is run once per database: a `(:CredenceBackfill {name})` node records it done, so a start after that pays one
 * index-free lookup instead of a scan of every belief. `termCount` (neo4j-records.ts): a belief without it (written
 * by an earlier version, even after the backfill) still ranks right; the top-k statement counts its terms from
 * `searchTerms`, the same number, slower.
 */
export const BACKFILLS: readonly { name: string; statement: string }[] = [
  {
    name: "termCount",
    statement:
      "MATCH (b:Belief) WHERE b.termCount IS NULL AND b.searchTerms IS NOT NULL " +
      "CALL (b) { SET b.termCount = size([t IN split(b.searchTerms, ' ') WHERE t <> '']) } IN TRANSACTIONS OF 5000 ROWS",
  },
];

/**
 * Creates what is missing and waits until every index is online, then fills in what earlier versions did not write.
 * Safe to run from several processes at once. With the store's bookmark manager, the first reads on a cluster wait for
 * a member that has the indexes (read-your-writes).
 */
export async function ensureNeo4jSchema(driver: Driver, database: string, bookmarkManager?: BookmarkManager): Promise<void> {
  const session = driver.session({ database, ...(bookmarkManager ? { bookmarkManager } : {}) });
  try {
    const runRetried = async (statement: string) => {
      for (let attempt = 0; ; attempt++) {
        try {
          await session.run(statement);
          break;
        } catch (error) {
          // Two processes creating the same rule at once: the loser sees "equivalent … already exists"; rerun (IF NOT
          // EXISTS). Two backfilling at once may deadlock (transient): rerun (only nodes still missing the property).
          if (attempt >= 3 || !isSchemaRace(error)) throw error;
        }
      }
    };
    for (const statement of SCHEMA_STATEMENTS) await runRetried(statement);
    await session.run("CALL db.awaitIndexes(120)");
    for (const { name, statement } of BACKFILLS) {
      const done = await session.run("MATCH (m:CredenceBackfill {name: $name}) RETURN m LIMIT 1", { name });
      if (done.records.length > 0) continue;
      await runRetried(statement);
      await session.run("MERGE (:CredenceBackfill {name: $name})", { name });
    }
  } finally {
    await session.close();
  }
}

function isSchemaRace(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && (code.includes("EquivalentSchemaRuleAlreadyExists") || code.includes("Schema.") || code.includes("Transient"));
}
