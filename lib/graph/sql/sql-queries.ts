/**
 * The SQL of the SQL adapter, as named query modules (`read`, `citations`, `write`, `admin`), like the Neo4j adapter's
 * `neo4j-cypher.ts`. Every text is constant; values always travel as parameters, no identifier is built from input.
 * Each statement names the zod schema of its rows (`sql-rows.ts`): `run(sql, stmt, params)` returns checked rows.
 *
 * Anchoring: every caller read has `scope = $home AND $home = ANY($visible)` (or, for nodes reached from the home
 * scope, `scope = ANY($visible)`) inside the one statement, so a hidden id and a missing id run the same statements
 * and both come back empty.
 */
import { PLANNED_WITH_VALUES } from "@/lib/db/sql-executor";
import { embeddingUpsertCtes } from "./sql-vectors";
import {
  beliefEdgeRow,
  beliefIdRow,
  beliefHeadRow,
  beliefRecordRow,
  standingHeadRow,
  citationEdgeRow,
  citationRefOfRow,
  citationRefRow,
  countRow,
  dataRow,
  evidenceDoc,
  graphEdgeRow,
  coreWrittenRow,
  idRow,
  lockedBeliefRow,
  looseRow,
  mutationDoc,
  beliefDoc,
  nodeRow,
  noRows,
  openReadingRow,
  placeholderRow,
  resolvedRow,
  statement,
  statusCountRow,
  tableNameRow,
  topicEdgeRow,
  topicFreezeDoc,
  topicLinkRow,
  topicSummaryRow,
  versionRow,
} from "./sql-rows";

/**
 * Beliefs with their histories: `$1` is always asOf (null = now); the condition's parameters start at `$2`.
 * History items observed after asOf and beliefs first observed after it are left out (event time).
 */
function beliefRecords(name: string, where: string) {
  return statement(
    name,
    `SELECT b.data, COALESCE((SELECT jsonb_agg(h.data ORDER BY h.seq) FROM graph_history h
               WHERE h.belief_id = b.id AND ($1::timestamptz IS NULL OR h.observed_at <= $1::timestamptz)), '[]'::jsonb) AS history
     FROM graph_beliefs b
     WHERE (${where}) AND ($1::timestamptz IS NULL OR b.valid_from <= $1::timestamptz)
     ORDER BY b.id COLLATE "C"`,
    beliefRecordRow,
  );
}

/** The candidate search's WHERE: home scope, the engine's terms as an OR tsquery ($3), ended beliefs only with $4. */
const SEARCH_WHERE = `scope = $1 AND $1 = ANY($2::text[])
           AND search_vector @@ to_tsquery('simple'::regconfig, $3)
           AND ($4::boolean OR live)`;

/**
 * The scorer's fields of a candidate: every row is of the home scope (the WHERE), and most have no tags and no end:
 * those travel as NULLs, since per-row bytes and columns are what a 15 000-row domain costs on the client (measured:
 * 8 columns ≈ 1.5 × 4). The adapter fills the scope and the empty tags in.
 */
/** A `BeliefGist`'s columns (`beliefGistOf`): no tags travel as NULL. */
const BELIEF_GIST = `id, data->>'text' AS text, topic, CASE WHEN data->'contextTags' <> '[]'::jsonb THEN data->'contextTags' END AS "contextTags", status, credence`;

const CANDIDATE_STATS = `id, credence, status,
       CASE WHEN data->'contextTags' <> '[]'::jsonb THEN data->'contextTags' END AS "contextTags",
       CASE WHEN valid_until IS NOT NULL THEN data->>'validUntil' END AS "validUntil", search_terms AS terms`;

/**
 * A slim row's `terms` and `termCount` for a reader that ranks it by one query, whose distinct terms are the text[]
 * parameter `param`: only the query terms the belief holds, and how many terms it has (`CandidateStats.termCount`).
 * That is all the ranking reads (`rankByTerms`), and a belief's whole term list is most of a slim row's bytes. With a
 * NULL parameter, the whole list. `searchTerms` names the column (with its table's alias).
 */
export function slimTermsSql(searchTerms: string, param: string): string {
  return `CASE WHEN ${param}::text[] IS NULL THEN ${searchTerms}
       ELSE array_to_string(ARRAY(SELECT q FROM unnest(${param}::text[]) AS q WHERE q = ANY(string_to_array(${searchTerms}, ' '))), ' ') END AS terms,
       CASE WHEN ${param}::text[] IS NOT NULL THEN cardinality(string_to_array(${searchTerms}, ' ')) END AS "termCount"`;
}

/** The last seq of belief `b`'s history, as `s.last_seq` (0 without one): what a head and a standing compare their checkpoint with. */
const LAST_SEQ_OF_B = `CROSS JOIN LATERAL (SELECT COALESCE(max(h.seq), 0) AS last_seq FROM graph_history h WHERE h.belief_id = b.id) AS s`;

export const read = {
  /** [asOf, id, home, visible] */
  beliefRecordInHome: beliefRecords("read.beliefRecordInHome", `b.id = $2 AND b.scope = $3 AND $3 = ANY($4::text[])`),
  /** [asOf, ids, home, visible] */
  beliefRecordsInHome: beliefRecords("read.beliefRecordsInHome", `b.id = ANY($2::text[]) AND b.scope = $3 AND $3 = ANY($4::text[])`),
  /**
   * A belief for a write (`loadBeliefHead`): its row, its last seq, its fold checkpoint, and its history only when it
   * has at most `$4` items (a long one stays in the database: the write folds onto the checkpoint), with the
   * checkpoint's rows of the sources `$5` (null: all of them); one row per listed id that is in the home scope.
   * [ids, home, visible, historyLimit, sources]
   */
  beliefHeadInHome: statement(
    "read.beliefHeadInHome",
    `SELECT b.id, b.data, b.fold_checkpoint AS checkpoint, s.last_seq,
            (SELECT jsonb_agg(jsonb_build_array(f.source) || f.data) FROM graph_fold_sources f
             WHERE f.belief_id = b.id AND ($5::text[] IS NULL OR f.source = ANY($5::text[]))) AS checkpoint_sources,
            CASE WHEN s.last_seq <= $4 THEN COALESCE((SELECT jsonb_agg(h.data ORDER BY h.seq) FROM graph_history h WHERE h.belief_id = b.id), '[]'::jsonb) END AS history
     FROM graph_beliefs b
     ${LAST_SEQ_OF_B}
     WHERE b.id = ANY($1::text[]) AND b.scope = $2 AND $2 = ANY($3::text[])`,
    beliefHeadRow,
  ),
  /**
   * What recall weighs of beliefs (`beliefStandings`): the row's text and derived fields, the last seq, the fold
   * checkpoint's head fields and all its rows; no history. [ids, home, visible]
   */
  beliefStandings: statement(
    "read.beliefStandings",
    `SELECT b.id, b.data->>'text' AS text, CASE WHEN b.data->'contextTags' <> '[]'::jsonb THEN b.data->'contextTags' END AS "contextTags",
            b.data->'quantity' AS quantity, b.credence, (b.data->>'confidence')::float8 AS confidence, (b.data->>'tension')::float8 AS tension,
            b.status, b.data->>'paramsVersion' AS "paramsVersion", s.last_seq,
            CASE WHEN b.fold_checkpoint IS NOT NULL THEN jsonb_build_object('format', b.fold_checkpoint->'format', 'foldedSeq', b.fold_checkpoint->'foldedSeq',
              'paramsVersion', b.fold_checkpoint->'paramsVersion', 'lastSupportAt', b.fold_checkpoint->'lastSupportAt',
              'supportSources', b.fold_checkpoint->'supportSources', 'maxRebuttal', b.fold_checkpoint->'maxRebuttal') END AS checkpoint,
            (SELECT jsonb_agg(jsonb_build_array(f.source) || f.data) FROM graph_fold_sources f WHERE f.belief_id = b.id) AS checkpoint_sources
     FROM graph_beliefs b
     ${LAST_SEQ_OF_B}
     WHERE b.id = ANY($1::text[]) AND b.scope = $2 AND $2 = ANY($3::text[])`,
    standingHeadRow,
  ),
  /** [asOf, home, visible] */
  beliefRecordsOfScope: beliefRecords("read.beliefRecordsOfScope", `b.scope = $2 AND $2 = ANY($3::text[])`),

  /** The resolver: one statement whatever the id, the visibility check inside it (hidden ≡ missing). [id, visible] */
  resolveItem: statement(
    "read.resolveItem",
    `SELECT 'belief' AS label, b.id, b.scope, b.live, NULL::jsonb AS data,
        (SELECT jsonb_agg(jsonb_build_object('sourceId', h.source_id, 'sourceKind', h.source_kind,
                  'effectiveTier', h.data->>'effectiveTier') ORDER BY h.seq)
         FROM graph_history h
         WHERE h.belief_id = b.id AND h.type = 'entry' AND h.live AND h.relation = 'SUPPORTS'
           AND h.verified AND NOT h.laundered AND h.source_id IS NOT NULL AND h.source_kind IS NOT NULL) AS supports
     FROM graph_beliefs b WHERE b.id = $1 AND b.scope = ANY($2::text[])
     UNION ALL
     SELECT 'evidence', e.id, e.scope, NULL, e.data, NULL FROM graph_evidence e WHERE e.id = $1 AND e.scope = ANY($2::text[])
     UNION ALL
     SELECT 'mutation', m.id, m.scope, NULL, NULL, NULL FROM graph_mutations m WHERE m.id = $1 AND m.scope = ANY($2::text[])`,
    resolvedRow,
  ),

  /** [id, home, visible] */
  evidenceById: statement("read.evidenceById", `SELECT data FROM graph_evidence WHERE id = $1 AND scope = $2 AND $2 = ANY($3::text[])`, dataRow(evidenceDoc)),

  /**
   * `listBeliefs` of listed ids and no other filter (the rows of ranked candidates: search's top k, recall's
   * candidates): one fixed plan, by the primary key, so it is prepared (PGlite's wasm parses and plans an unprepared
   * statement on every call). [home, visible, ids, liveOnly]
   */
  beliefsByIds: statement(
    "read.beliefsByIds",
    `SELECT data FROM graph_beliefs
     WHERE id = ANY($3::text[]) AND scope = $1 AND $1 = ANY($2::text[]) AND ($4::boolean IS FALSE OR live)
     ORDER BY id COLLATE "C"`,
    dataRow(beliefDoc),
  ),

  /**
   * [home, visible, liveOnly, topic, key, reviewState, afterId, limit, ids] (planned
   * with its values, never prepared: a null filter folds away and listed ids are read by the primary key).
   */
  listBeliefs: statement(
    "read.listBeliefs",
    `${PLANNED_WITH_VALUES} SELECT data FROM graph_beliefs
     WHERE scope = $1 AND $1 = ANY($2::text[])
       AND ($9::text[] IS NULL OR id = ANY($9::text[]))
       AND ($3::boolean IS FALSE OR live)
       AND ($4::text IS NULL OR topic = $4)
       AND ($5::text IS NULL OR key = $5)
       AND ($6::text IS NULL OR review_state = $6)
       AND ($7::text IS NULL OR id COLLATE "C" > $7)
     ORDER BY id COLLATE "C"
     LIMIT $8`,
    dataRow(beliefDoc),
  ),

  /** Open undecided readings and possible duplicates of live home-scope beliefs, oldest first. [home, visible, limit] */
  openReadings: statement(
    "read.openReadings",
    `SELECT h.belief_id AS "beliefId", h.data AS item
     FROM graph_history h JOIN graph_beliefs b ON b.id = h.belief_id
     WHERE b.scope = $1 AND $1 = ANY($2::text[]) AND b.live
       AND h.type IN ('undecided', 'possible_duplicate') AND h.live
     ORDER BY h.time, h.belief_id COLLATE "C", h.seq
     LIMIT $3`,
    openReadingRow,
  ),

  /** Full-text candidates; a cap ($5) cuts by the database's own rank. [home, visible, tsquery, includeEnded, limit] */
  searchCandidates: statement(
    "read.searchCandidates",
    `SELECT data FROM graph_beliefs
     WHERE ${SEARCH_WHERE}
     ORDER BY CASE WHEN $5::int IS NULL THEN 0 ELSE ts_rank(search_vector, to_tsquery('simple'::regconfig, $3)) END DESC, id COLLATE "C"
     LIMIT $5`,
    dataRow(beliefDoc),
  ),

  /** searchCandidates' domain as slim rows, uncapped and unsorted. [home, visible, tsquery, includeEnded] */
  searchCandidateStats: statement("read.searchCandidateStats", `SELECT ${CANDIDATE_STATS} FROM graph_beliefs WHERE ${SEARCH_WHERE}`, looseRow),

  /** [home, visible, ids, the query's terms or null (`slimTermsSql`)] */
  candidateStatsByIds: statement(
    "read.candidateStatsByIds",
    `SELECT id, credence, status,
       CASE WHEN data->'contextTags' <> '[]'::jsonb THEN data->'contextTags' END AS "contextTags",
       CASE WHEN valid_until IS NOT NULL THEN data->>'validUntil' END AS "validUntil", ${slimTermsSql("search_terms", "$4")}
     FROM graph_beliefs WHERE scope = $1 AND $1 = ANY($2::text[]) AND id = ANY($3::text[])`,
    looseRow,
  ),

  /** [home, visible, ids] (`beliefGistOf` columns; by the primary key, prepared) */
  beliefGistsByIds: statement("read.beliefGistsByIds", `SELECT ${BELIEF_GIST} FROM graph_beliefs WHERE scope = $1 AND $1 = ANY($2::text[]) AND id = ANY($3::text[])`, looseRow),
  /** [home, visible, ids, key]: the same and the live belief of the key, flagged (planned with its values, as listBeliefs) */
  beliefGistsByIdsOrKey: statement(
    "read.beliefGistsByIdsOrKey",
    `${PLANNED_WITH_VALUES} SELECT ${BELIEF_GIST}, (live AND key = $4) AS "keyMatch" FROM graph_beliefs
     WHERE scope = $1 AND $1 = ANY($2::text[]) AND (id = ANY($3::text[]) OR (live AND key = $4))`,
    looseRow,
  ),

  /** The same, cut at a cap by rank. [home, visible, tsquery, includeEnded, limit] */
  searchCandidateStatsCapped: statement(
    "read.searchCandidateStatsCapped",
    `SELECT ${CANDIDATE_STATS} FROM graph_beliefs WHERE ${SEARCH_WHERE}
     ORDER BY ts_rank(search_vector, to_tsquery('simple'::regconfig, $3)) DESC, id COLLATE "C" LIMIT $5`,
    looseRow,
  ),

  /** [id, home, visible] */
  mutationById: statement("read.mutationById", `SELECT data FROM graph_mutations WHERE id = $1 AND scope = $2 AND $2 = ANY($3::text[])`, dataRow(mutationDoc)),

  /** [home, visible, statuses, topic, beliefId, since, asOf, newestFirst, limit] (planned with its values: the filters given choose the index) */
  listMutations: statement(
    "read.listMutations",
    `${PLANNED_WITH_VALUES} SELECT data FROM graph_mutations
     WHERE scope = $1 AND $1 = ANY($2::text[])
       AND ($3::text[] IS NULL OR status = ANY($3::text[]))
       AND ($4::text IS NULL OR topic = $4)
       AND ($5::text IS NULL OR belief_ids @> ARRAY[$5::text])
       AND ($6::timestamptz IS NULL OR time >= $6::timestamptz)
       AND ($7::timestamptz IS NULL OR time <= $7::timestamptz)
     ORDER BY CASE WHEN $8::boolean THEN time END DESC, CASE WHEN $8::boolean THEN id COLLATE "C" END DESC, time, id COLLATE "C"
     LIMIT $9`,
    dataRow(mutationDoc),
  ),

  /** Per-topic counts for the graph overview. [home, visible, contestedAt] */
  topicSummaries: statement(
    "read.topicSummaries",
    `SELECT topic, count(*)::int AS beliefs, (count(*) FILTER (WHERE live))::int AS live,
            COALESCE(max(tension) FILTER (WHERE live), 0)::float8 AS "maxTension",
            (count(*) FILTER (WHERE live AND tension >= $3))::int AS contested,
            max(data->>'updatedAt') AS "updatedAt"
     FROM graph_beliefs WHERE scope = $1 AND $1 = ANY($2::text[])
     GROUP BY topic ORDER BY topic COLLATE "C"`,
    topicSummaryRow,
  ),

  /** Live belief-to-belief relations between two topics, per unordered pair. [home, visible] */
  topicLinks: statement(
    "read.topicLinks",
    `SELECT LEAST(a.topic COLLATE "C", c.topic COLLATE "C") AS "from", GREATEST(a.topic COLLATE "C", c.topic COLLATE "C") AS "to",
            count(*)::int AS relations, (count(*) FILTER (WHERE g.kind = 'REBUTS'))::int AS rebuttals
     FROM graph_beliefs a
     JOIN graph_edges g ON g.from_id = a.id AND g.live AND g.kind NOT IN ('CONCERNS', 'UNRELATED')
     JOIN graph_beliefs c ON c.id = g.to_id AND c.scope = $1
     WHERE a.scope = $1 AND $1 = ANY($2::text[]) AND a.topic <> c.topic
     GROUP BY 1, 2 ORDER BY 1, 2`,
    topicLinkRow,
  ),

  /** The most contested live beliefs. [home, visible, contestedAt, limit] */
  contestedBeliefs: statement(
    "read.contestedBeliefs",
    `SELECT data FROM graph_beliefs WHERE scope = $1 AND $1 = ANY($2::text[]) AND live AND tension >= $3
     ORDER BY tension DESC, id COLLATE "C" LIMIT $4`,
    dataRow(beliefDoc),
  ),

  /** The most recently changed beliefs. [home, visible, limit] */
  recentBeliefs: statement(
    "read.recentBeliefs",
    `SELECT data FROM graph_beliefs WHERE scope = $1 AND $1 = ANY($2::text[])
     ORDER BY data->>'updatedAt' DESC, id COLLATE "C" LIMIT $3`,
    dataRow(beliefDoc),
  ),

  /** Live belief-to-belief edges touching listed home beliefs, with both ends' topics. [ids, home, visible] */
  beliefLinks: statement(
    "read.beliefLinks",
    `SELECT g.kind, g.from_id, g.to_id, g.seq, g.live, g.data, a.topic AS from_topic, c.topic AS to_topic
     FROM graph_edges g
     JOIN graph_beliefs a ON a.id = g.from_id AND a.scope = $2
     JOIN graph_beliefs c ON c.id = g.to_id AND c.scope = $2
     WHERE (g.from_id = ANY($1::text[]) OR g.to_id = ANY($1::text[])) AND $2 = ANY($3::text[]) AND g.live AND g.kind NOT IN ('CONCERNS', 'UNRELATED')
     ORDER BY g.kind COLLATE "C", g.from_id COLLATE "C", g.to_id COLLATE "C", g.seq`,
    topicEdgeRow,
  ),

  /** [home, visible] */
  countMutations: statement(
    "read.countMutations",
    `SELECT status, count(*)::int AS n FROM graph_mutations WHERE scope = $1 AND $1 = ANY($2::text[]) GROUP BY status`,
    statusCountRow,
  ),

  /** [home, visible, topic] */
  topicFreeze: statement(
    "read.topicFreeze",
    `SELECT data FROM graph_topic_freezes WHERE scope = $1 AND $1 = ANY($2::text[]) AND topic = $3`,
    dataRow(topicFreezeDoc),
  ),

  /** [home, visible, frozenOnly] */
  listTopicFreezes: statement(
    "read.listTopicFreezes",
    `SELECT data FROM graph_topic_freezes WHERE scope = $1 AND $1 = ANY($2::text[]) AND ($3::boolean IS FALSE OR frozen) ORDER BY topic COLLATE "C"`,
    dataRow(topicFreezeDoc),
  ),

  /** Nodes of any kind by id, visible ones only. [ids, visible, asOf] */
  nodesById: statement(
    "read.nodesById",
    `SELECT label, data FROM (
     SELECT 'belief' AS label, data, id FROM graph_beliefs WHERE id = ANY($1::text[]) AND scope = ANY($2::text[])
       AND ($3::timestamptz IS NULL OR valid_from <= $3::timestamptz)
     UNION ALL
     SELECT 'evidence', data, id FROM graph_evidence WHERE id = ANY($1::text[]) AND scope = ANY($2::text[])
       AND ($3::timestamptz IS NULL OR observed_at <= $3::timestamptz)
     UNION ALL
     SELECT 'mutation', data, id FROM graph_mutations WHERE id = ANY($1::text[]) AND scope = ANY($2::text[])
       AND ($3::timestamptz IS NULL OR time <= $3::timestamptz)
     ) AS nodes ORDER BY id COLLATE "C"`,
    nodeRow,
  ),

  /** Every edge touching the frontier but those of entries revised to UNRELATED (no relation to draw). [frontier, asOf] */
  edgesAround: statement(
    "read.edgesAround",
    `SELECT kind, from_id, to_id, seq, live, data FROM graph_edges
     WHERE (from_id = ANY($1::text[]) OR to_id = ANY($1::text[])) AND kind <> 'UNRELATED' AND ($2::timestamptz IS NULL OR time <= $2::timestamptz)
     ORDER BY from_id COLLATE "C", to_id COLLATE "C", seq, kind COLLATE "C"`,
    graphEdgeRow,
  ),

  /** [home, visible, asOf] */
  exportEvidence: statement(
    "read.exportEvidence",
    `SELECT data FROM graph_evidence WHERE scope = $1 AND $1 = ANY($2::text[]) AND ($3::timestamptz IS NULL OR observed_at <= $3::timestamptz) ORDER BY id COLLATE "C"`,
    dataRow(evidenceDoc),
  ),

  /** [home, visible, asOf] */
  exportMutations: statement(
    "read.exportMutations",
    `SELECT data FROM graph_mutations WHERE scope = $1 AND $1 = ANY($2::text[]) AND ($3::timestamptz IS NULL OR time <= $3::timestamptz) ORDER BY id COLLATE "C"`,
    dataRow(mutationDoc),
  ),

  /** Belief-to-belief and CONCERNS edges leaving the scope's nodes. [home, visible, asOf] */
  exportEdges: statement(
    "read.exportEdges",
    `SELECT g.kind, g.from_id, g.to_id, g.data FROM graph_edges g
     WHERE g.seq = 0 AND $1 = ANY($2::text[])
       AND (EXISTS (SELECT 1 FROM graph_beliefs b WHERE b.id = g.from_id AND b.scope = $1)
            OR EXISTS (SELECT 1 FROM graph_mutations m WHERE m.id = g.from_id AND m.scope = $1))
       AND ($3::timestamptz IS NULL OR g.time <= $3::timestamptz)
     ORDER BY g.kind COLLATE "C", g.from_id COLLATE "C", g.to_id COLLATE "C"`,
    beliefEdgeRow,
  ),

  /** [home, visible] */
  exportTopicFreezes: statement(
    "read.exportTopicFreezes",
    `SELECT data FROM graph_topic_freezes WHERE scope = $1 AND $1 = ANY($2::text[]) ORDER BY topic COLLATE "C"`,
    dataRow(topicFreezeDoc),
  ),
};

/** The system citation index (no view: the cascade's service filters what a caller is shown). */
export const citations = {
  /** [id] */
  citersOf: statement(
    "citations.citersOf",
    `SELECT belief_id AS "beliefId", seq FROM graph_history WHERE source_id = $1 AND type = 'entry' AND live ORDER BY belief_id COLLATE "C", seq`,
    citationRefRow,
  ),
  /** [ids] */
  citersOfMany: statement(
    "citations.citersOfMany",
    `SELECT source_id, belief_id AS "beliefId", seq FROM graph_history
     WHERE source_id = ANY($1::text[]) AND type = 'entry' AND live ORDER BY source_id, belief_id COLLATE "C", seq`,
    citationRefOfRow,
  ),
  /** [asOf (null), id] */
  load: beliefRecords("citations.load", `b.id = $2`),
  /** [asOf (null), ids] */
  loadMany: beliefRecords("citations.loadMany", `b.id = ANY($2::text[])`),
  /**
   * Every live citation reachable from the root ($1). UNION (not UNION ALL) without a depth column: a row (citer, seq,
   * cited) is produced once, so cycles end the recursion; the adapter assigns depths by a breadth-first pass.
   */
  closure: statement(
    "citations.closure",
    `WITH RECURSIVE walk (belief_id, seq, cited_id) AS (
       SELECT h.belief_id, h.seq, h.source_id FROM graph_history h WHERE h.source_id = $1 AND h.type = 'entry' AND h.live
       UNION
       SELECT h.belief_id, h.seq, h.source_id FROM walk w
       JOIN graph_history h ON h.source_id = w.belief_id AND h.type = 'entry' AND h.live
     )
     SELECT belief_id, seq, cited_id FROM walk`,
    citationEdgeRow,
  ),
};

export const admin = {
  /** Which of the store's tables exist. [names] */
  tables: statement(
    "admin.tables",
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1::text[])`,
    tableNameRow,
  ),
};

// ---- writes (all bulk: rows travel as one JSON parameter) ----

const BELIEF_COLUMNS = `scope, topic, key, status, live, review_state, credence, confidence, tension, support_weight,
  rebuttal_weight, version, created_at, updated_at, valid_from, valid_until, search_terms, data, fold_checkpoint`;
const BELIEF_VALUES = `u.d->>'scope', u.d->>'topic', u.d->>'key', u.d->>'status', u.live, u.d->>'reviewState',
  (u.d->>'credence')::float8, (u.d->>'confidence')::float8, (u.d->>'tension')::float8, (u.d->>'supportWeight')::float8,
  (u.d->>'rebuttalWeight')::float8, (u.d->>'version')::int, (u.d->>'createdAt')::timestamptz,
  (u.d->>'updatedAt')::timestamptz, (u.d->>'validFrom')::timestamptz, (u.d->>'validUntil')::timestamptz, u.terms, u.d, u.checkpoint`;
/**
 * `$1`: JSON array of `{belief, expected, live, terms, checkpoint, cpAll, cpSources}`: checkpoint = the head (null when
 * the upsert has none), cpSources = its rows (`[source, …data]`), cpAll = they are all of the belief's rows (the others
 * are deleted) — true too when there is no checkpoint, so no rows outlive their head.
 */
const BELIEF_SOURCE = `(SELECT e->'belief' AS d, (e->>'expected')::int AS expected, (e->>'live')::boolean AS live,
  e->>'terms' AS terms, NULLIF(e->'checkpoint', 'null'::jsonb) AS checkpoint FROM jsonb_array_elements($1::jsonb) AS e) AS u`;

const evidenceInsert = (items: string) => `INSERT INTO graph_evidence (id, scope, kind, text, created_at, observed_at, retracted_at, data)
   SELECT d->>'id', d->>'scope', d->>'kind', d->>'text', (d->>'createdAt')::timestamptz,
     COALESCE((d->>'observedAt')::timestamptz, (d->>'createdAt')::timestamptz), (d->>'retractedAt')::timestamptz, d
   FROM jsonb_array_elements(${items}::jsonb) AS d`;
const EVIDENCE_INSERT = evidenceInsert("$1");

/** History rows from the JSON array `rows` (each live; the JSON keeps the original item). */
const historyInsert = (rows: string) => `INSERT INTO graph_history (belief_id, seq, type, time, observed_at, change_set, source_id, source_kind, relation, weight,
     target_seq, verified, laundered, live, data)
   SELECT r->>'belief_id', (r->>'seq')::int, r->>'type', (r->>'time')::timestamptz, (r->>'observed_at')::timestamptz, r->>'change_set', r->>'source_id',
     r->>'source_kind', r->>'relation', (r->>'weight')::float8, (r->>'target_seq')::int, (r->>'verified')::boolean,
     (r->>'laundered')::boolean, TRUE, r->'data'
   FROM jsonb_array_elements(${rows}::jsonb) AS r`;

/** Entry edges source → belief from the JSON array `edges` of {kind, from, to, seq, time, data}; an existing one is kept. */
const entryEdgesInsert = (edges: string) => `INSERT INTO graph_edges (kind, from_id, to_id, seq, live, time, data)
   SELECT e->>'kind', e->>'from', e->>'to', (e->>'seq')::int, TRUE, (e->>'time')::timestamptz, e->'data'
   FROM jsonb_array_elements(${edges}::jsonb) AS e
   ON CONFLICT DO NOTHING`;

/**
 * The Idempotency-Key's mark of change-set `changeSet`, from the four parameters from `$first` (principal, key, claim
 * id, ordinal); nothing when the principal is null. An existing mark fails the statement (already applied).
 */
const markInsert = (first: number, changeSet: string) => `INSERT INTO "graph_idempotency_marks" ("principal", "key", "claim_id", "ordinal", "change_set_id")
   SELECT $${first}, $${first + 1}, $${first + 2}, $${first + 3}::int, ${changeSet} WHERE $${first}::text IS NOT NULL`;

/**
 * The fold-checkpoint rows of the beliefs the statement's `written` CTE wrote (`$1` as in BELIEF_SOURCE): the rows a
 * slice carries are upserted, and for a whole slice (or none) the belief's other rows are deleted. Only beliefs the
 * version check let through, and after them (the CTEs read `written`): lock order belief → rows, as every writer.
 */
const FOLD_SOURCES_WRITE = `fs_in AS (SELECT e->'belief'->>'id' AS belief_id, (e->>'cpAll')::boolean AS whole, e->'cpSources' AS rows
              FROM jsonb_array_elements($1::jsonb) AS e WHERE e->'belief'->>'id' IN (SELECT id FROM written)),
  fs_rows AS (SELECT i.belief_id, r->>0 AS source, r - 0 AS data FROM fs_in i CROSS JOIN LATERAL jsonb_array_elements(i.rows) AS r),
  fs_del AS (DELETE FROM graph_fold_sources f USING fs_in i
             WHERE f.belief_id = i.belief_id AND i.whole
               AND NOT EXISTS (SELECT 1 FROM fs_rows r WHERE r.belief_id = f.belief_id AND r.source = f.source)),
  fs_put AS (INSERT INTO graph_fold_sources (belief_id, source, data) SELECT belief_id, source, data FROM fs_rows
             ON CONFLICT (belief_id, source) DO UPDATE SET data = excluded.data)`;

/**
 * A change-set that only creates beliefs, whole, in ONE statement (atomic on its own: no transaction, one round trip
 * instead of five): the change-set row, the beliefs (no ON CONFLICT: an existing id or live key fails the statement,
 * mapped to VersionConflict), their fold rows, their history and entry edges, and their vectors and sketches (each
 * vector's scope is its new belief's), and the Idempotency-Key's mark when there is one (a mark already written fails
 * the statement: already applied). History rows reference the beliefs of the same statement: the foreign key is
 * checked when the statement ends. [belief rows JSON, id, actor, time, history rows JSON, entry edges JSON, vectors JSON,
 * mark principal (null: no mark), key, claim id, ordinal]
 */
function newBeliefsWhole(pgvector: boolean) {
  return statement(
    pgvector ? "write.insertNewBeliefsWholePgvector" : "write.insertNewBeliefsWhole",
    `WITH cs AS (INSERT INTO graph_change_sets (id, actor, time) VALUES ($2, $3, $4::timestamptz)),
     written AS (INSERT INTO graph_beliefs (id, ${BELIEF_COLUMNS})
       SELECT u.d->>'id', ${BELIEF_VALUES} FROM ${BELIEF_SOURCE}
       RETURNING id, scope),
     ${FOLD_SOURCES_WRITE},
     h AS (${historyInsert("$5")}),
     entry_edges AS (${entryEdgesInsert("$6")}),
     mark AS (${markInsert(8, "$2")}),
     ${embeddingUpsertCtes(pgvector, "$7", "(SELECT id, scope, 'belief' AS kind FROM written)")}
     SELECT id FROM written`,
    idRow,
  );
}

/**
 * The core of a change-set that upserts beliefs, in ONE statement inside the change-set's transaction (instead of
 * change-set row, evidence, updates, inserts, history lock, history, vectors: seven): the change-set row first (a
 * repeated change-set fails here, `already_applied`), then its evidence, then the version-checked updates (a row whose
 * version or scope does not match is left out of RETURNING), then the inserts (an existing id is left out), then the
 * fold rows, history rows, entry edges, vectors and the Idempotency-Key's mark. Each step reads the one before it in an
 * uncorrelated subquery, which runs that step to completion first: an update that supersedes a belief frees its live
 * key before the insert of its successor. Every belief that receives history is upserted here, so the update's row
 * lock serves as the history lock: RETURNING gives each updated belief's last stored seq (as of the statement's
 * snapshot; an append committed since takes a seq this statement inserts too, and the history key fails it), which
 * the caller checks against the appended items before it commits. [belief rows JSON (updates and inserts), id, actor,
 * time, evidence JSON, history rows JSON, entry edges JSON, vectors JSON, mark principal (null: no mark), key, claim
 * id, ordinal]
 */
function changeSetCore(pgvector: boolean) {
  return statement(
    pgvector ? "write.changeSetCorePgvector" : "write.changeSetCore",
    `WITH cs AS (INSERT INTO graph_change_sets (id, actor, time) VALUES ($2, $3, $4::timestamptz) RETURNING id),
     ev AS (${evidenceInsert("$5")} WHERE (SELECT count(*) FROM cs) > 0 RETURNING id, scope),
     written_u AS (UPDATE graph_beliefs AS b SET (${BELIEF_COLUMNS}) = (${BELIEF_VALUES})
       FROM ${BELIEF_SOURCE}
       WHERE b.id = u.d->>'id' AND b.version = u.expected AND b.scope = u.d->>'scope' AND (SELECT count(*) FROM ev) >= 0
       RETURNING b.id, b.scope, (SELECT max(h.seq) FROM graph_history h WHERE h.belief_id = b.id) AS max_seq),
     written_i AS (INSERT INTO graph_beliefs (id, ${BELIEF_COLUMNS})
       SELECT u.d->>'id', ${BELIEF_VALUES} FROM ${BELIEF_SOURCE}
       WHERE u.expected IS NULL AND (SELECT count(*) FROM written_u) >= 0
       ON CONFLICT (id) DO NOTHING
       RETURNING id, scope),
     written AS (SELECT id, scope FROM written_u UNION ALL SELECT id, scope FROM written_i),
     ${FOLD_SOURCES_WRITE},
     h AS (${historyInsert("$6")}),
     entry_edges AS (${entryEdgesInsert("$7")}),
     mark AS (${markInsert(9, "$2")}),
     ${embeddingUpsertCtes(pgvector, "$8", "(SELECT id, scope, 'belief' AS kind FROM written UNION ALL SELECT id, scope, 'evidence' FROM ev)")}
     SELECT id, max_seq, TRUE AS updated FROM written_u UNION ALL SELECT id, NULL, FALSE FROM written_i`,
    coreWrittenRow,
  );
}

export const write = {
  /** [id, actor, time] */
  insertChangeSet: statement("write.insertChangeSet", `INSERT INTO graph_change_sets (id, actor, time) VALUES ($1, $2, $3::timestamptz)`, noRows),

  /** A duplicate id raises graph_evidence_pkey → ChangeSetRejected("duplicate_id"). [evidence JSON] */
  insertEvidence: statement("write.insertEvidence", EVIDENCE_INSERT, noRows),
  /** Placeholders carried by the change-set: shared per (scope, raw id), never duplicated. [evidence JSON] */
  insertPlaceholderEvidence: statement("write.insertPlaceholderEvidence", `${EVIDENCE_INSERT} ON CONFLICT DO NOTHING`, noRows),

  /**
   * The change-set row and its new beliefs in one statement (a change-set that only inserts beliefs: one round trip
   * instead of two). A repeated change-set id raises graph_change_sets_pkey (`already_applied`); a belief that exists
   * already is left out of RETURNING. [belief rows JSON, id, actor, time]
   */
  insertChangeSetAndBeliefs: statement(
    "write.insertChangeSetAndBeliefs",
    `WITH cs AS (INSERT INTO graph_change_sets (id, actor, time) VALUES ($2, $3, $4::timestamptz)),
     written AS (INSERT INTO graph_beliefs (id, ${BELIEF_COLUMNS})
       SELECT u.d->>'id', ${BELIEF_VALUES} FROM ${BELIEF_SOURCE}
       ON CONFLICT (id) DO NOTHING
       RETURNING id),
     ${FOLD_SOURCES_WRITE}
     SELECT id FROM written`,
    idRow,
  ),
  insertNewBeliefsWhole: newBeliefsWhole(false),
  changeSetCore: changeSetCore(false),
  changeSetCorePgvector: changeSetCore(true),
  insertNewBeliefsWholePgvector: newBeliefsWhole(true),
  /** The change-set row and version-checked updates in one statement. [belief rows JSON, id, actor, time] */
  insertChangeSetAndUpdateBeliefs: statement(
    "write.insertChangeSetAndUpdateBeliefs",
    `WITH cs AS (INSERT INTO graph_change_sets (id, actor, time) VALUES ($2, $3, $4::timestamptz)),
     written AS (UPDATE graph_beliefs AS b SET (${BELIEF_COLUMNS}) = (${BELIEF_VALUES})
       FROM ${BELIEF_SOURCE}
       WHERE b.id = u.d->>'id' AND b.version = u.expected AND b.scope = u.d->>'scope'
       RETURNING b.id),
     ${FOLD_SOURCES_WRITE}
     SELECT id FROM written`,
    idRow,
  ),
  /** Version-checked updates; a row that does not match is left out of RETURNING. [belief rows JSON] */
  updateBeliefs: statement(
    "write.updateBeliefs",
    `WITH written AS (UPDATE graph_beliefs AS b SET (${BELIEF_COLUMNS}) = (${BELIEF_VALUES})
       FROM ${BELIEF_SOURCE}
       WHERE b.id = u.d->>'id' AND b.version = u.expected AND b.scope = u.d->>'scope'
       RETURNING b.id),
     ${FOLD_SOURCES_WRITE}
     SELECT id FROM written`,
    idRow,
  ),
  /** [id] */
  beliefVersion: statement("write.beliefVersion", `SELECT version, scope FROM graph_beliefs WHERE id = $1`, versionRow),
  /** [belief rows JSON] */
  insertBeliefs: statement(
    "write.insertBeliefs",
    `WITH written AS (INSERT INTO graph_beliefs (id, ${BELIEF_COLUMNS})
       SELECT u.d->>'id', ${BELIEF_VALUES} FROM ${BELIEF_SOURCE}
       ON CONFLICT (id) DO NOTHING
       RETURNING id),
     ${FOLD_SOURCES_WRITE}
     SELECT id FROM written`,
    idRow,
  ),
  /** Import: plain insert (the scope was checked empty). [belief rows JSON] */
  importBeliefs: statement("write.importBeliefs", `INSERT INTO graph_beliefs (id, ${BELIEF_COLUMNS}) SELECT u.d->>'id', ${BELIEF_VALUES} FROM ${BELIEF_SOURCE}`, noRows),

  /** Locks the beliefs that receive history (id order) and reads their last seq. [ids] */
  lockForHistory: statement(
    "write.lockForHistory",
    `SELECT b.id, b.scope, (SELECT max(h.seq) FROM graph_history h WHERE h.belief_id = b.id) AS max_seq
     FROM graph_beliefs b WHERE b.id = ANY($1::text[]) ORDER BY b.id FOR UPDATE`,
    lockedBeliefRow,
  ),
  /** [history rows JSON] */
  insertHistory: statement(
    "write.insertHistory",
    historyInsert("$1"),
    noRows,
  ),
  /**
   * History rows and their entry edges in one statement (when no placeholder has to be made first: the edges do not
   * depend on the rows). [history rows JSON, entry edges JSON]
   */
  insertHistoryAndEntryEdges: statement(
    "write.insertHistoryAndEntryEdges",
    `WITH h AS (${historyInsert("$1")})
     ${entryEdgesInsert("$2")}`,
    noRows,
  ),
  /** Placeholders the store makes for unresolved entries; returns the ones it created. [evidence JSON] */
  createPlaceholders: statement(
    "write.createPlaceholders",
    `INSERT INTO graph_evidence (id, scope, kind, text, created_at, observed_at, retracted_at, data)
     SELECT d->>'id', d->>'scope', 'unresolved', d->>'text', (d->>'createdAt')::timestamptz, (d->>'createdAt')::timestamptz, NULL, d
     FROM jsonb_array_elements($1::jsonb) AS d
     ON CONFLICT DO NOTHING RETURNING id`,
    idRow,
  ),
  /** The placeholder of each (scope, raw id), whatever its id. [JSON of {scope, text}] */
  findPlaceholders: statement(
    "write.findPlaceholders",
    `SELECT e.id, e.scope, e.text FROM graph_evidence e
     JOIN jsonb_array_elements($1::jsonb) AS w ON e.scope = w->>'scope' AND md5(e.text) = md5(w->>'text')
     WHERE e.kind = 'unresolved'`,
    placeholderRow,
  ),
  /** Entry edges source → belief. [JSON of {kind, from, to, seq, time, data}] */
  insertEntryEdges: statement(
    "write.insertEntryEdges",
    entryEdgesInsert("$1"),
    noRows,
  ),
  /** Retracted / stripped entries stop being live. [JSON of {b, s}] */
  endEntries: statement(
    "write.endEntries",
    `UPDATE graph_history h SET live = FALSE FROM jsonb_array_elements($1::jsonb) AS t
     WHERE h.belief_id = t->>'b' AND h.seq = (t->>'s')::int AND h.type = 'entry'`,
    noRows,
  ),
  /** A decision closes an undecided reading or possible duplicate. [JSON of {b, s}] */
  closeReadings: statement(
    "write.closeReadings",
    `UPDATE graph_history h SET live = FALSE FROM jsonb_array_elements($1::jsonb) AS t
     WHERE h.belief_id = t->>'b' AND h.seq = (t->>'s')::int AND h.type IN ('undecided', 'possible_duplicate')`,
    noRows,
  ),
  /** [JSON of {b, s}] */
  endEntryEdges: statement(
    "write.endEntryEdges",
    `UPDATE graph_edges g SET live = FALSE FROM jsonb_array_elements($1::jsonb) AS t
     WHERE g.to_id = t->>'b' AND g.seq = (t->>'s')::int`,
    noRows,
  ),
  /** A revision's effect on the indexed columns. [beliefId, seq, relation, weight] */
  reviseEntry: statement(
    "write.reviseEntry",
    `UPDATE graph_history SET relation = COALESCE($3, relation), weight = COALESCE($4::float8, weight)
     WHERE belief_id = $1 AND seq = $2 AND type = 'entry'`,
    noRows,
  ),
  /** [beliefId, seq, relation]; an entry revised to UNRELATED keeps its edge, of kind UNRELATED, which no graph read draws. */
  reviseEntryEdge: statement("write.reviseEntryEdge", `UPDATE graph_edges SET kind = $3 WHERE to_id = $1 AND seq = $2 AND seq > 0`, noRows),
  /** Replay outputs patched into the stored entries. [JSON of {b, s, c, w}] */
  patchEntryOutputs: statement(
    "write.patchEntryOutputs",
    `UPDATE graph_history h
     SET data = jsonb_set(jsonb_set(h.data, '{contribution}', o->'c'), '{effectiveWeight}', o->'w')
     FROM jsonb_array_elements($1::jsonb) AS o
     WHERE h.belief_id = o->>'b' AND h.seq = (o->>'s')::int AND h.type = 'entry'
     RETURNING h.belief_id`,
    beliefIdRow,
  ),
  /** Belief-to-belief and CONCERNS edges. [JSON of {kind, from, to, time, changeSet}] */
  insertEdges: statement(
    "write.insertEdges",
    `INSERT INTO graph_edges (kind, from_id, to_id, seq, live, time, data)
     SELECT e->>'kind', e->>'from', e->>'to', 0, TRUE, (e->>'time')::timestamptz,
       jsonb_build_object('time', e->'time', 'changeSet', e->'changeSet')
     FROM jsonb_array_elements($1::jsonb) AS e
     ON CONFLICT DO NOTHING`,
    noRows,
  ),
  /** [mutations JSON] */
  insertMutations: statement(
    "write.insertMutations",
    `INSERT INTO graph_mutations (id, scope, topic, status, time, belief_ids, data)
     SELECT d->>'id', d->>'scope', d->>'topic', d->>'status', (d->>'time')::timestamptz,
       ARRAY(SELECT jsonb_array_elements_text(d->'beliefIds')), d
     FROM jsonb_array_elements($1::jsonb) AS d`,
    noRows,
  ),
  /** [mutations JSON] */
  updateMutations: statement(
    "write.updateMutations",
    `UPDATE graph_mutations m SET topic = d->>'topic', status = d->>'status', time = (d->>'time')::timestamptz,
       belief_ids = ARRAY(SELECT jsonb_array_elements_text(d->'beliefIds')), data = d
     FROM jsonb_array_elements($1::jsonb) AS d
     WHERE m.id = d->>'id' AND m.scope = d->>'scope'
     RETURNING m.id`,
    idRow,
  ),
  /** [JSON of {id, t}] */
  retractEvidence: statement(
    "write.retractEvidence",
    `UPDATE graph_evidence e SET retracted_at = (r->>'t')::timestamptz, data = jsonb_set(e.data, '{retractedAt}', r->'t')
     FROM jsonb_array_elements($1::jsonb) AS r
     WHERE e.id = r->>'id'
     RETURNING e.id`,
    idRow,
  ),
  /** [freezes JSON] */
  upsertTopicFreezes: statement(
    "write.upsertTopicFreezes",
    `INSERT INTO graph_topic_freezes (scope, topic, frozen, data)
     SELECT d->>'scope', d->>'topic', (d->>'frozen')::boolean, d FROM jsonb_array_elements($1::jsonb) AS d
     ON CONFLICT (scope, topic) DO UPDATE SET frozen = EXCLUDED.frozen, data = EXCLUDED.data`,
    noRows,
  ),

  /** Import: how many items the scope holds already. [scope] */
  importScopeSize: statement(
    "write.importScopeSize",
    `SELECT ((SELECT count(*) FROM graph_beliefs WHERE scope = $1) + (SELECT count(*) FROM graph_evidence WHERE scope = $1)
       + (SELECT count(*) FROM graph_mutations WHERE scope = $1) + (SELECT count(*) FROM graph_topic_freezes WHERE scope = $1))::int AS n`,
    countRow,
  ),
  /** Import: one id already taken anywhere, if any. [beliefIds, evidenceIds, mutationIds] */
  importTakenId: statement(
    "write.importTakenId",
    `SELECT id FROM graph_beliefs WHERE id = ANY($1::text[]) UNION ALL SELECT id FROM graph_evidence WHERE id = ANY($2::text[])
     UNION ALL SELECT id FROM graph_mutations WHERE id = ANY($3::text[]) LIMIT 1`,
    idRow,
  ),
  /** Import: freezes rewritten into the scope. [freezes JSON, scope] */
  importTopicFreezes: statement(
    "write.importTopicFreezes",
    `INSERT INTO graph_topic_freezes (scope, topic, frozen, data)
     SELECT $2, d->>'topic', (d->>'frozen')::boolean, jsonb_set(d, '{scope}', to_jsonb($2::text)) FROM jsonb_array_elements($1::jsonb) AS d`,
    noRows,
  ),
};
