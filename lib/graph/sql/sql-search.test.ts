/**
 * Top-k from postings equals the engine's ranking of the whole matching domain (`rankCandidateStats` over
 * `searchCandidateStats`) on random corpora, before and after the beliefs are rewritten (the triggers keep the
 * postings in step). Real PGlite and a throwaway database on the Postgres server, every migration applied.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "@/lib/db/database";
import { createThrowawayDatabase } from "@/lib/db/testing/postgres";
import type { Belief, BeliefStatus } from "@/lib/engine";
import { at, changeSet, makeBelief, uid } from "../testing/fixtures";
import type { GraphStore, ScopeView } from "../graph-store";
import { rankCandidateStats } from "../rank-candidate-stats";
import { createSqlGraphStore } from "./sql-graph-store";
import { createSqlSearch, HEAD, headSize, type SqlSearch } from "./sql-search";

const VOCAB = ["deploy", "release", "branch", "main", "backup", "hourly", "daily", "schema", "cache", "port"];
const QUERIES = ["deploy branch", "release", "backup hourly schema", "cache port main deploy", "daily", "nothing here", "deploy deploy release"];

const beliefArb = fc.record({
  words: fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 5 }),
  credence: fc.oneof(fc.constantFrom(0.3, 0.5, 0.7), fc.double({ min: 0, max: 1, noNaN: true })),
  status: fc.constantFrom<BeliefStatus>("provisional", "supported", "canonical", "superseded", "retired"),
  expiring: fc.boolean(),
});

describe("the heads step 1 reads", () => {
  it("are 2k of each term's list for a sentence, and share 16 k among the terms of a long text, never under HEAD", () => {
    expect(headSize(50, 6)).toBe(100);
    expect(headSize(50, 8)).toBe(100);
    expect(headSize(100, 32)).toBe(50);
    expect(headSize(50, 40)).toBe(HEAD);
    expect(headSize(5, 3)).toBe(HEAD);
  });
});

describe.each(["pglite", "postgres"] as const)("SQL top-k from postings (%s)", (backend) => {
  let discard: () => Promise<void> = async () => {};
  let db: Database;
  let store: GraphStore;
  /** Every variant: the whole domain read in step 1 (lists shorter than the head), the walk with no heads (every
   *  read a round trip; `eager` also reads every common list best credence first, as a large corpus does), and the
   *  walk served from 3-belief heads with reads past them. */
  let variants: SqlSearch[];
  let search: SqlSearch;

  beforeAll(async () => {
    const migrationsDir = path.join(process.cwd(), "prisma", "migrations");
    if (backend === "pglite") {
      const dir = await mkdtemp(path.join(tmpdir(), "credence-sql-search-"));
      db = await openDatabase({ dataDir: dir, migrationsDir, owner: "sql-search test" });
      discard = () => rm(dir, { recursive: true, force: true });
    } else {
      const throwaway = await createThrowawayDatabase("credence_sql_search");
      db = await openDatabase({ databaseUrl: throwaway.url, migrationsDir });
      discard = () => throwaway.drop();
    }
    store = createSqlGraphStore({ sql: db.sql, location: db.describe() });
    search = createSqlSearch(db.sql, { smallDomain: 0 });
    variants = [
      search,
      createSqlSearch(db.sql, { smallDomain: 0, prefetch: 0 }),
      createSqlSearch(db.sql, { bigList: 1, smallDomain: 0, prefetch: 0 }),
      createSqlSearch(db.sql, { smallDomain: 0, prefetch: 3 }),
      createSqlSearch(db.sql, { bigList: 1, smallDomain: 0, prefetch: 3 }),
      // Every domain small: step 1 reads the whole lists (no head limit) and ranks the domain from that read.
      createSqlSearch(db.sql, { smallDomain: 1_000_000, prefetch: 3 }),
      // N always by the commonest term's count and the others' probes; N always by the union of the lists.
      createSqlSearch(db.sql, { smallDomain: 0, unionRatio: 0 }),
      createSqlSearch(db.sql, { smallDomain: 0, unionRatio: 1e12 }),
    ];
  }, 120_000);
  afterAll(async () => {
    await db?.close();
    await discard();
  });

  async function expectSameAsExhaustive(view: ScopeView, k: number, minCredence: number | undefined): Promise<void> {
    for (const q of QUERIES) {
      for (const includeEnded of [false, true]) {
        const stats = await store.searchCandidateStats(view, q, { includeEnded });
        const expected = rankCandidateStats(q, stats, { k, includeEnded, scope: view.homeScopeId, ...(minCredence !== undefined ? { minCredence } : {}) });
        for (const s of variants) {
          const got = await s.topK(view, q, { k, includeEnded, ...(minCredence !== undefined ? { minCredence } : {}) });
          expect(got).not.toBeNull();
          expect(got?.ranked.map((r) => [r.candidate.id, r.score, r.relevance])).toEqual(expected.map((r) => [r.candidate.id, r.score, r.relevance]));
        }
      }
    }
  }

  /** The per-(scope, term) counts the triggers keep equal a count over the postings (step 1 reads them for df and N). */
  async function expectCountsMatchPostings(scope: string): Promise<void> {
    const counted = await db.sql.query<{ term: string; n_all: string; n_current: string }>(
      `SELECT term, sum(n_all)::text AS n_all, sum(n_current)::text AS n_current FROM graph_term_counts WHERE scope = $1 GROUP BY term HAVING sum(n_all) <> 0 ORDER BY term`,
      [scope],
    );
    const posted = await db.sql.query<{ term: string; n_all: string; n_current: string }>(
      `SELECT term, count(*)::text AS n_all, count(*) FILTER (WHERE current)::text AS n_current FROM graph_postings WHERE scope = $1 GROUP BY term ORDER BY term`,
      [scope],
    );
    expect(counted).toEqual(posted);
    // And the postings are exactly those the beliefs' rows give, whichever way the triggers followed an update.
    const rows = `SELECT term, belief_id, credence::text AS credence, current, n_terms FROM %s WHERE scope = $1 ORDER BY term, belief_id`;
    const stored = await db.sql.query(rows.replace("%s", "graph_postings"), [scope]);
    const derived = await db.sql.query(rows.replace("%s", "(SELECT r.* FROM graph_beliefs b, LATERAL graph_postings_rows(b) r) AS d"), [scope]);
    expect(stored).toEqual(derived);
  }

  it("returns exactly the exhaustive ranking's top k, ties and filters included, and follows rewrites (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(beliefArb, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.option(fc.constantFrom(0.4, 0.6), { nil: undefined }),
        async (specs, k, minCredence) => {
          const scope = uid("scope");
          const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
          const beliefs: Belief[] = specs.map((s) =>
            makeBelief(scope, `${s.words.join(" ")} ${uid("w").slice(-4)}.`, { credence: s.credence, status: s.status, validUntil: s.expiring ? at(30) : null }),
          );
          await store.apply(changeSet({ beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })) }));
          await expectCountsMatchPostings(scope);
          await expectSameAsExhaustive(view, k, minCredence);
          // Rewrite half of them (new text, new credence, a status change): the postings follow.
          const rewritten = beliefs.filter((_, i) => i % 2 === 0).map((b, i) => ({
            belief: { ...b, text: `${VOCAB[i % VOCAB.length]} ${b.text}`, credence: 1 - b.credence, status: (i % 3 === 0 ? "retired" : b.status) as BeliefStatus, version: 2 },
            expectedVersion: 1,
          }));
          await store.apply(changeSet({ beliefs: rewritten }));
          await expectCountsMatchPostings(scope);
          await expectSameAsExhaustive(view, k, minCredence);
          // Then every belief once more: most change their credence alone (postings updated in place), some their
          // currency (an end date) as well, some nothing; one statement with both kinds.
          const again = rewritten.map((u) => u.belief);
          const others = beliefs.filter((_, i) => i % 2 === 1);
          const third = [...again, ...others].map((b, i) => ({
            belief: {
              ...b,
              credence: i % 4 === 3 ? b.credence : Math.round((1 - b.credence / 2) * 1000) / 1000,
              validUntil: i % 5 === 1 ? at(40) : b.validUntil,
              version: b.version + 1,
            },
            expectedVersion: b.version,
          }));
          await store.apply(changeSet({ beliefs: third }));
          await expectCountsMatchPostings(scope);
          await expectSameAsExhaustive(view, k, minCredence);
        },
      ),
      { numRuns: 12 },
    );
  }, 300_000);

  it("ranks credences too small for a float8 product (5e-324) as the exhaustive ranking does, without an error", async () => {
    const scope = uid("scope");
    const view: ScopeView = { homeScopeId: scope, visibleScopeIds: [scope] };
    const beliefs = [Number.MIN_VALUE, 1e-250, 0, 0.4].map((credence, i) => makeBelief(scope, `deploy ${uid("w").slice(-4)} ${i}.`, { credence }));
    await store.apply(changeSet({ beliefs: beliefs.map((belief) => ({ belief, expectedVersion: null })) }));
    await expectSameAsExhaustive(view, 1, undefined);
    await expectSameAsExhaustive(view, 3, undefined);
  });

  it("another scope's beliefs and an invisible home scope are never returned", async () => {
    const mine = uid("scope");
    const theirs = uid("scope");
    await store.apply(changeSet({ beliefs: [makeBelief(theirs, "deploy release branch")].map((belief) => ({ belief, expectedVersion: null })) }));
    expect((await search.topK({ homeScopeId: mine, visibleScopeIds: [mine, theirs] }, "deploy", { k: 5 }))?.ranked).toEqual([]);
    expect((await search.topK({ homeScopeId: theirs, visibleScopeIds: [mine] }, "deploy", { k: 5 }))?.ranked).toEqual([]);
    expect((await search.topK({ homeScopeId: theirs, visibleScopeIds: [theirs] }, "deploy", { k: 5 }))?.ranked.length).toBe(1);
    // A small domain is read whole by step 1 and ranked there, even past the head size.
    expect((await createSqlSearch(db.sql).topK({ homeScopeId: theirs, visibleScopeIds: [theirs] }, "deploy", { k: 5 }))?.ranked.length).toBe(1);
    await store.apply(changeSet({ beliefs: [makeBelief(theirs, "deploy again")].map((belief) => ({ belief, expectedVersion: null })) }));
    expect((await createSqlSearch(db.sql, { prefetch: 1 }).topK({ homeScopeId: theirs, visibleScopeIds: [theirs] }, "deploy", { k: 5 }))?.ranked.length).toBe(2);
    // Past the head with a domain above smallDomain, the walk reads on and answers the same.
    expect((await createSqlSearch(db.sql, { prefetch: 1, smallDomain: 0 }).topK({ homeScopeId: theirs, visibleScopeIds: [theirs] }, "deploy", { k: 5 }))?.ranked.length).toBe(2);
  });
});
