/**
 * The Cypher of the Neo4j adapter, as named query modules. Every text is constant or built from the allowlists in
 * `neo4j-vocabulary.ts`; values always travel as parameters. Every caller read is anchored on the view's home scope
 * (`{ns: $ns, scope: $home, …}` in the first MATCH, `$home IN $visible` beside it) and filters every node it reaches
 * by `$visible`.
 */
import { BELIEF_SEARCH_INDEX } from "./neo4j-schema";
import { entryRelationshipType, nodeLabel, relationshipType, type NodeLabel } from "./neo4j-vocabulary";

const ENTRY_TYPES = "SUPPORTS|REBUTS|CONTEXTUALIZES";
const ALL_TYPES = "SUPPORTS|REBUTS|CONTEXTUALIZES|SUPERSEDES|REFINES|SYNTHESIZES|CONCERNS";
/**
 * A belief without its history (lists, search, graph view): its `model` JSON, one property read and one string on the
 * wire per belief — about five times faster than 27 properties when a search returns tens of thousands.
 */
const BELIEF_LIGHT = "{.id, .scope, .model}";
/** A belief with its history (loads, export). */
const BELIEF_FULL = "{.id, .scope, .model, .history}";

/** Credence bands of `topKRanked`'s groups: the narrower, the closer its floor of the k-th score. */
const CREDENCE_BANDS = 20;

/** A `BeliefGist`'s columns (`beliefGistOf`): no tags travel as NULL. */
const BELIEF_GIST =
  "b.id AS id, b.text AS text, b.topic AS topic, CASE WHEN size(b.contextTags) > 0 THEN b.contextTags END AS contextTags, b.status AS status, b.credence AS credence";

/** The scorer's fields; the scope is the anchor's and empty tags travel as null (the adapter fills both in). */
const CANDIDATE_STATS =
  "b.id AS id, b.credence AS credence, b.status AS status, " +
  "CASE WHEN size(b.contextTags) > 0 THEN b.contextTags END AS contextTags, b.validUntil AS validUntil, b.searchTerms AS terms";

/**
 * Top-k in one statement (lib/graph/neo4j/neo4j-search.ts). `$sets` are full-text queries, each requiring the scope
 * token, which names exactly one (namespace, scope) (`ns` and `scope` are not read again), with the query terms
 * (`matched`: indexes into $terms) a belief it yields holds. Head "sets": one query per non-empty subset of the terms,
 * requiring those and prohibiting the rest, so each belief is met once, with its exact set. Head "terms": one query
 * per term, the sets gathered per belief (an aggregation over every match of every term).
 *
 * One pass over the matches reads each one's liveness, credence and number of own terms (`termCount`, or counted from
 * `searchTerms` on a node written before it was stored) — never its terms — and folds it into a group of equal score
 * shape: the same matched terms, the same number of own terms, the same credence band (1/CREDENCE_BANDS wide),
 * keeping only the group's count, least and greatest credence and its nodes. N and df per term are sums over the
 * groups, and every member of a group has the same relevance (the engine's formula, `rankByTerms`). The groups,
 * ordered by relevance × least credence, give a floor the k-th score cannot be below (the first groups holding k
 * beliefs); only the groups whose best member can reach it (within $slack) are opened, and of them only the members
 * that can. Inside a group the engine orders the members by credence, then id (equal relevance): only a group's
 * first $k in that order can rank, and only those go on, so a crowd of equal scores (beliefs written with the same
 * credence) costs k rows, not the crowd (the group's members are sorted once, not one bounded sort per group: rows
 * of a subquery would each carry the group's whole node list, which Neo4j counts against the transaction's memory
 * once per row — 280 MB for a k of 200 at 100 000 beliefs). Of those, the best $window by score; returned: the slim
 * rows of the ones within $slack of the k-th score, each with N and df ($window rows: more near-ties than the caller
 * takes).
 */
function topKRanked(head: "sets" | "terms"): string {
  return `
    UNWIND $sets AS set
    CALL db.index.fulltext.queryNodes('${BELIEF_SEARCH_INDEX}', set.query) YIELD node AS b
    ${head === "sets" ? "WITH b, set.matched AS matched" : "WITH b, reduce(m = [], s IN collect(set.matched) | m + s) AS matched"}
    WHERE $home IN $visible
      AND ($includeEnded OR (b.live AND b.validUntil IS NULL)) AND ($minCredence IS NULL OR b.credence >= $minCredence)
    WITH b, matched, b.credence AS credence,
         CASE WHEN b.termCount IS NOT NULL THEN b.termCount ELSE size([t IN split(b.searchTerms, ' ') WHERE t <> '']) END AS nOwn
    WITH matched, nOwn, toInteger(floor(credence * ${CREDENCE_BANDS})) AS band,
         count(*) AS count, min(credence) AS lo, max(credence) AS hi, collect(b) AS nodes
    WITH collect({matched: matched, nOwn: nOwn, count: count, lo: lo, hi: hi, nodes: nodes}) AS groups
    WITH groups, reduce(s = 0, g IN groups | s + g.count) AS n
    WITH groups, n, [i IN range(0, size($terms) - 1) | reduce(s = 0, g IN groups | s + CASE WHEN i IN g.matched THEN g.count ELSE 0 END)] AS df
    WITH groups, n, df, [d IN df | log(1.0 + (toFloat(n) - d + 0.5) / (d + 0.5))] AS idf
    WITH groups, n, df, idf, reduce(s = 0.0, x IN idf | s + x) AS total
    UNWIND groups AS g
    WITH n, df, g,
         CASE WHEN total <= 0 OR g.nOwn = 0 THEN 0.0
              ELSE (reduce(c = 0.0, i IN g.matched | c + idf[i]) / total)
                   * (0.8 + 0.2 * CASE WHEN toFloat(size(g.matched)) / g.nOwn < 1.0 THEN toFloat(size(g.matched)) / g.nOwn ELSE 1.0 END)
         END AS coverage
    WITH n, df, g, CASE WHEN coverage < 1.0 THEN coverage ELSE 1.0 END AS relevance
    ORDER BY relevance * g.lo DESC
    WITH n, df, collect({nodes: g.nodes, count: g.count, relevance: relevance, low: relevance * g.lo, high: relevance * g.hi}) AS groups
    WITH n, df, groups,
         reduce(st = {count: 0, low: -1.0}, x IN groups | CASE WHEN st.count >= $k THEN st ELSE {count: st.count + x.count, low: x.low} END) AS bound
    WITH n, df, groups, CASE WHEN bound.count >= $k THEN bound.low ELSE -1.0 END AS least
    UNWIND range(0, size(groups) - 1) AS key
    WITH n, df, least, key, groups[key] AS x WHERE x.high >= least - $slack
    UNWIND x.nodes AS b
    WITH n, df, key, x.relevance AS relevance, b, b.credence AS credence WHERE x.relevance * b.credence >= least - $slack
    ORDER BY credence DESC, b.id
    WITH n, df, key, relevance, collect(b)[0..$k] AS firsts
    UNWIND firsts AS b
    WITH n, df, b, relevance * b.credence AS score
    ORDER BY score DESC LIMIT $window
    WITH n, df, collect({b: b, score: score}) AS ranked
    WITH n, df, ranked, CASE WHEN size(ranked) >= $k THEN ranked[$k - 1].score ELSE -1.0 END AS kth
    UNWIND [x IN ranked WHERE x.score >= kth - $slack] AS x
    WITH n, df, x.b AS b
    RETURN n, df, ${CANDIDATE_STATS}`;
}

export const read = {
  /** The resolver: one lookup per id, visibility inside the query; hidden and missing take the same path. */
  resolveItem: `
    CALL () {
      MATCH (n:Belief {ns: $ns, id: $id}) RETURN n, 'belief' AS kind
      UNION ALL
      MATCH (n:Evidence {ns: $ns, id: $id}) RETURN n, 'evidence' AS kind
      UNION ALL
      MATCH (n:Mutation {ns: $ns, id: $id}) RETURN n, 'mutation' AS kind
    }
    WITH n, kind WHERE n.scope IN $visible
    RETURN kind, n {.id, .scope, .kind, .ess, .retractedAt, .discarded, .live, .history} AS n
    LIMIT 1`,

  /**
   * Every lookup by id in this file names its seek of the `(ns, id)` key and checks the scope after it: left to its
   * cost model, the planner scanned the whole index for a few ids, or for one (`beliefHeads`, which every write runs),
   * depending on the statistics when the statement was first planned (neo4j-plans.test.ts).
   */
  beliefsByIds: `
    UNWIND $ids AS id
    MATCH (b:Belief {ns: $ns, id: id}) USING INDEX SEEK b:Belief(ns, id)
    WHERE b.scope = $home AND $home IN $visible AND ($asOf IS NULL OR coalesce(b.validFrom, b.createdAt) <= $asOf)
    RETURN b ${BELIEF_FULL} AS b ORDER BY b.id`,

  /** Beliefs for a write: each one's history only when it has at most $historyLimit items (`loadBeliefHeads`). */
  beliefHeads: `
    UNWIND $ids AS id
    MATCH (b:Belief {ns: $ns, id: id}) USING INDEX SEEK b:Belief(ns, id)
    WHERE b.scope = $home AND $home IN $visible
    RETURN b {.id, .scope, .model, .checkpoint, .historyLength,
              history: CASE WHEN coalesce(b.historyLength, size(b.history)) <= $historyLimit THEN b.history END} AS b`,

  listBeliefs: `
    MATCH (b:Belief {ns: $ns, scope: $home})
    WHERE $home IN $visible
      AND (NOT $liveOnly OR b.live)
      AND ($topic IS NULL OR b.topic = $topic)
      AND ($key IS NULL OR b.key = $key)
      AND ($reviewState IS NULL OR b.reviewState = $reviewState)
      AND ($afterId IS NULL OR b.id > $afterId)
    RETURN b ${BELIEF_LIGHT} AS b ORDER BY b.id LIMIT $limit`,

  /**
   * `listBeliefs` of the live belief with key `$key`: a seek of the `(ns, scope, liveKey)` constraint's index, not a
   * scan of the scope (`liveKey` is the key exactly while the belief is live, written in the same SET as `live`).
   */
  listLiveBeliefByKey: `
    MATCH (b:Belief {ns: $ns, scope: $home, liveKey: $key})
    WHERE $home IN $visible
      AND ($topic IS NULL OR b.topic = $topic)
      AND ($reviewState IS NULL OR b.reviewState = $reviewState)
      AND ($afterId IS NULL OR b.id > $afterId)
    RETURN b ${BELIEF_LIGHT} AS b ORDER BY b.id LIMIT $limit`,

  /** `listBeliefs` of listed ids: each looked up by its (ns, id) key, not by a scan of the scope. */
  listBeliefsByIds: `
    UNWIND $ids AS id
    MATCH (b:Belief {ns: $ns, id: id}) USING INDEX SEEK b:Belief(ns, id)
    WHERE b.scope = $home AND $home IN $visible
      AND (NOT $liveOnly OR b.live)
      AND ($topic IS NULL OR b.topic = $topic)
      AND ($key IS NULL OR b.key = $key)
      AND ($reviewState IS NULL OR b.reviewState = $reviewState)
      AND ($afterId IS NULL OR b.id > $afterId)
    RETURN DISTINCT b ${BELIEF_LIGHT} AS b ORDER BY b.id LIMIT $limit`,

  /** Live home-scope beliefs whose history holds an undecided reading or a possible duplicate (open or not). */
  beliefsWithReadings: `
    MATCH (b:Belief {ns: $ns, scope: $home})
    WHERE $home IN $visible AND b.live
      AND any(h IN b.history WHERE h CONTAINS '"type":"undecided"' OR h CONTAINS '"type":"possible_duplicate"')
    RETURN b.id AS id, b.history AS history`,

  /** Full-text over the engine's terms, the scope token required: the whole matching domain, in no order. */
  searchCandidates: `
    CALL db.index.fulltext.queryNodes('${BELIEF_SEARCH_INDEX}', $query) YIELD node AS b
    WHERE b.ns = $ns AND b.scope = $home AND $home IN $visible AND ($includeEnded OR b.live)
    RETURN b ${BELIEF_LIGHT} AS b`,

  /** The same, cut at a safety cap by Lucene's own rank. */
  searchCandidatesCapped: `
    CALL db.index.fulltext.queryNodes('${BELIEF_SEARCH_INDEX}', $query) YIELD node AS b, score
    WHERE b.ns = $ns AND b.scope = $home AND $home IN $visible AND ($includeEnded OR b.live)
    RETURN b ${BELIEF_LIGHT} AS b ORDER BY score DESC LIMIT $limit`,

  /** searchCandidates' domain as the scorer's fields only (`CandidateStats`, `terms` = the stored term string). */
  searchCandidateStats: `
    CALL db.index.fulltext.queryNodes('${BELIEF_SEARCH_INDEX}', $query) YIELD node AS b
    WHERE b.ns = $ns AND b.scope = $home AND $home IN $visible AND ($includeEnded OR b.live)
    RETURN ${CANDIDATE_STATS}`,

  /** Top-k in one statement, each belief met once through the query of its exact set of query terms (`topKRanked`). */
  topKRankedBySets: topKRanked("sets"),
  /** The same, a belief met once per query term it holds (many query terms: 2^terms queries would be too many). */
  topKRankedByTerms: topKRanked("terms"),

  candidateStatsByIds: `
    UNWIND $ids AS id
    MATCH (b:Belief {ns: $ns, id: id}) USING INDEX SEEK b:Belief(ns, id)
    WHERE b.scope = $home AND $home IN $visible
    RETURN ${CANDIDATE_STATS}`,

  /** `beliefGistOf` columns of listed ids, each by its (ns, id) key. */
  beliefGistsByIds: `
    UNWIND $ids AS id
    MATCH (b:Belief {ns: $ns, id: id}) USING INDEX SEEK b:Belief(ns, id)
    WHERE b.scope = $home AND $home IN $visible
    RETURN ${BELIEF_GIST}`,
  /**
   * What recall weighs of beliefs (`beliefStandings`): the fields weighing shows, the history's length (its last seq)
   * and the checkpoint (one JSON property, read whole); not the belief's model document, not its history.
   */
  beliefStandings: `
    UNWIND $ids AS id
    MATCH (b:Belief {ns: $ns, id: id}) USING INDEX SEEK b:Belief(ns, id)
    WHERE b.scope = $home AND $home IN $visible
    RETURN b.id AS id, b.text AS text, b.contextTags AS contextTags, b.quantityValue AS quantityValue, b.quantityUnit AS quantityUnit,
           b.credence AS credence, b.confidence AS confidence, b.tension AS tension, b.status AS status, b.paramsVersion AS paramsVersion,
           coalesce(b.historyLength, size(b.history)) AS lastSeq, b.checkpoint AS checkpoint`,
  /** The same of the live belief of a key (`listLiveBeliefByKey`), flagged. */
  beliefGistOfLiveKey: `
    MATCH (b:Belief {ns: $ns, scope: $home, liveKey: $key})
    WHERE $home IN $visible
    RETURN ${BELIEF_GIST}, true AS keyMatch LIMIT 1`,

  searchCandidateStatsCapped: `
    CALL db.index.fulltext.queryNodes('${BELIEF_SEARCH_INDEX}', $query) YIELD node AS b, score
    WHERE b.ns = $ns AND b.scope = $home AND $home IN $visible AND ($includeEnded OR b.live)
    RETURN ${CANDIDATE_STATS} ORDER BY score DESC LIMIT $limit`,

  evidenceById: `
    MATCH (e:Evidence {ns: $ns, id: $id}) USING INDEX SEEK e:Evidence(ns, id)
    WHERE e.scope = $home AND $home IN $visible
    RETURN e {.*} AS e`,

  mutationById: `
    MATCH (m:Mutation {ns: $ns, id: $id}) USING INDEX SEEK m:Mutation(ns, id)
    WHERE m.scope = $home AND $home IN $visible
    RETURN m.record AS record`,

  listMutations: `
    MATCH (m:Mutation {ns: $ns, scope: $home})
    WHERE $home IN $visible
      AND ($statuses IS NULL OR m.status IN $statuses)
      AND ($topic IS NULL OR m.topic = $topic)
      AND ($beliefId IS NULL OR $beliefId IN m.beliefIds)
      AND ($since IS NULL OR m.time >= $since)
      AND ($asOf IS NULL OR m.time <= $asOf)
    RETURN m.record AS record, m.time AS time, m.id AS id`,

  countMutations: `
    MATCH (m:Mutation {ns: $ns, scope: $home})
    WHERE $home IN $visible
    RETURN m.status AS status, count(*) AS n`,

  topicFreezes: `
    MATCH (f:TopicFreeze {ns: $ns, scope: $home})
    WHERE $home IN $visible AND ($topic IS NULL OR f.topic = $topic) AND (NOT $frozenOnly OR f.frozen)
    RETURN f {.*} AS f ORDER BY f.topic`,

  /**
   * One breadth-first level of the graph view: every edge of every kind, both directions, from the frontier's
   * home-scope nodes to visible nodes (as of `$asOf` when given: nodes and edges observed by then — event time).
   */
  neighbourhoodLevel: `
    CALL () {
      UNWIND $beliefIds AS id MATCH (n:Belief {ns: $ns, id: id}) USING INDEX SEEK n:Belief(ns, id) WHERE n.scope = $home RETURN n
      UNION
      UNWIND $evidenceIds AS id MATCH (n:Evidence {ns: $ns, id: id}) USING INDEX SEEK n:Evidence(ns, id) WHERE n.scope = $home RETURN n
      UNION
      UNWIND $mutationIds AS id MATCH (n:Mutation {ns: $ns, id: id}) USING INDEX SEEK n:Mutation(ns, id) WHERE n.scope = $home RETURN n
    }
    WITH n WHERE $home IN $visible
    MATCH (n)-[r:${ALL_TYPES}]-(m)
    WHERE m.ns = $ns AND m.scope IN $visible AND r.dangling IS NULL AND r.unrelated IS NULL
      AND ($asOf IS NULL OR (r.time <= $asOf AND coalesce(m.validFrom, m.observedAt, m.createdAt, m.time) <= $asOf))
    RETURN type(r) AS kind, startNode(r).id AS from, endNode(r).id AS to, r {.*} AS r,
      labels(m)[0] AS label, CASE WHEN m:Belief THEN m ${BELIEF_LIGHT} ELSE m {.*} END AS m`,

  /** The start node of a neighbourhood, home scope only. */
  homeNode: `
    CALL () {
      MATCH (n:Belief {ns: $ns, id: $id}) USING INDEX SEEK n:Belief(ns, id) WHERE n.scope = $home RETURN n
      UNION ALL
      MATCH (n:Evidence {ns: $ns, id: $id}) USING INDEX SEEK n:Evidence(ns, id) WHERE n.scope = $home RETURN n
      UNION ALL
      MATCH (n:Mutation {ns: $ns, id: $id}) USING INDEX SEEK n:Mutation(ns, id) WHERE n.scope = $home RETURN n
    }
    WITH n WHERE $home IN $visible AND ($asOf IS NULL OR coalesce(n.validFrom, n.observedAt, n.createdAt, n.time) <= $asOf)
    RETURN labels(n)[0] AS label, CASE WHEN n:Belief THEN n ${BELIEF_LIGHT} ELSE n {.*} END AS n
    LIMIT 1`,

  /** Per-topic counts for the graph overview. */
  topicSummaries: `
    MATCH (b:Belief {ns: $ns, scope: $home}) WHERE $home IN $visible
    RETURN b.topic AS topic, count(*) AS beliefs, sum(CASE WHEN b.live THEN 1 ELSE 0 END) AS live,
      coalesce(max(CASE WHEN b.live THEN b.tension END), 0.0) AS maxTension,
      sum(CASE WHEN b.live AND b.tension >= $contestedAt THEN 1 ELSE 0 END) AS contested, max(b.updatedAt) AS updatedAt`,

  /** Live belief-to-belief relations between two topics, per unordered pair. */
  topicLinks: `
    MATCH (a:Belief {ns: $ns, scope: $home})-[r:SUPPORTS|REBUTS|CONTEXTUALIZES|SUPERSEDES|REFINES|SYNTHESIZES]->(c:Belief {ns: $ns, scope: $home})
    WHERE $home IN $visible AND a.topic <> c.topic AND r.dangling IS NULL AND r.unrelated IS NULL AND coalesce(r.live, true)
    WITH CASE WHEN a.topic < c.topic THEN a.topic ELSE c.topic END AS from, CASE WHEN a.topic < c.topic THEN c.topic ELSE a.topic END AS to, type(r) AS kind
    RETURN from, to, count(*) AS relations, sum(CASE WHEN kind = 'REBUTS' THEN 1 ELSE 0 END) AS rebuttals`,

  contestedBeliefs: `
    MATCH (b:Belief {ns: $ns, scope: $home}) WHERE $home IN $visible AND b.live AND b.tension >= $contestedAt
    RETURN b ${BELIEF_LIGHT} AS b, b.tension AS tension ORDER BY tension DESC, b.id LIMIT $limit`,

  recentBeliefs: `
    MATCH (b:Belief {ns: $ns, scope: $home}) WHERE $home IN $visible
    RETURN b ${BELIEF_LIGHT} AS b, b.updatedAt AS updatedAt ORDER BY updatedAt DESC, b.id LIMIT $limit`,

  /**
   * Live belief-to-belief edges touching listed home beliefs, with both ends' topics. Each listed belief is sought by
   * its (ns, id) key (hinted: with few beliefs in the store, the planner would sometimes scan the scope's index instead).
   */
  beliefLinks: `
    UNWIND $ids AS id
    MATCH (n:Belief {ns: $ns, id: id}) USING INDEX SEEK n:Belief(ns, id)
    WHERE n.scope = $home AND $home IN $visible
    MATCH (n)-[r:SUPPORTS|REBUTS|CONTEXTUALIZES|SUPERSEDES|REFINES|SYNTHESIZES]-(m:Belief {ns: $ns, scope: $home})
    WHERE r.dangling IS NULL AND r.unrelated IS NULL AND coalesce(r.live, true)
    RETURN DISTINCT type(r) AS kind, startNode(r).id AS from, endNode(r).id AS to, r {.*} AS r,
      startNode(r).topic AS fromTopic, endNode(r).topic AS toTopic`,

  exportBeliefs: `
    MATCH (b:Belief {ns: $ns, scope: $home}) WHERE $home IN $visible AND ($asOf IS NULL OR coalesce(b.validFrom, b.createdAt) <= $asOf)
    RETURN b ${BELIEF_FULL} AS b`,
  exportEvidence: `
    MATCH (e:Evidence {ns: $ns, scope: $home}) WHERE $home IN $visible AND ($asOf IS NULL OR coalesce(e.observedAt, e.createdAt) <= $asOf)
    RETURN e {.*} AS e`,
  exportMutations: `
    MATCH (m:Mutation {ns: $ns, scope: $home}) WHERE $home IN $visible AND ($asOf IS NULL OR m.time <= $asOf)
    RETURN m.record AS record`,
  /** Belief-to-belief and CONCERNS edges with both ends in the home scope. */
  exportEdges: `
    MATCH (a:Belief|Mutation {ns: $ns, scope: $home})-[r:SUPERSEDES|REFINES|SYNTHESIZES|CONCERNS]->(c:Belief)
    WHERE $home IN $visible AND c.ns = $ns AND c.scope = $home AND ($asOf IS NULL OR r.time <= $asOf)
    RETURN type(r) AS kind, a.id AS from, c.id AS to, r.time AS time, r.changeSet AS changeSet`,

  scopeIsEmpty: `
    CALL () {
      MATCH (n:Belief {ns: $ns, scope: $home}) RETURN n LIMIT 1
      UNION ALL
      MATCH (n:Evidence {ns: $ns, scope: $home}) RETURN n LIMIT 1
      UNION ALL
      MATCH (n:Mutation {ns: $ns, scope: $home}) RETURN n LIMIT 1
      UNION ALL
      MATCH (n:TopicFreeze {ns: $ns, scope: $home}) RETURN n LIMIT 1
    }
    RETURN count(n) = 0 AS empty`,
} as const;

/**
 * Live entries whose `sourceId` is in the list `ids` (a parameter or a variable), one multi-value index seek per entry
 * type, returning `citedId, beliefId, seq`. Not a correlated `UNWIND … CALL (id) { MATCH … {sourceId: id} }`: once
 * an entry type's index held many entries the planner ran that as a scan of the whole index for every id (a profile
 * showed 4 million rows for 2 000 ids; 10 000 ids took 40–50 s). `sourceId IN list` with a seek hint is one seek per
 * listed id (left to itself, the planner scanned the whole index once instead: fine in a small store, not in a large one).
 */
function citersOfList(ids: string): string {
  return ["SUPPORTS", "REBUTS", "CONTEXTUALIZES"]
    .map(
      (type) => `
      MATCH ()-[r:${type}]->(b:Belief) USING INDEX SEEK r:${type}(sourceId)
      WHERE r.sourceId IN ${ids} AND r.ns = $ns AND r.live
      RETURN r.sourceId AS citedId, b.id AS beliefId, r.seq AS seq`,
    )
    .join(`
      UNION ALL`);
}

/** System reads (not for a caller): the citation index for the cascade, across scopes. */
export const citations = {
  /**
   * Live entries whose `sourceId` is one of `$ids` (the raw id as cited, like the SQL store): an index seek on each
   * entry type's `sourceId`. The engine decides from the stored entry whether an unresolved one gets an event.
   */
  citersOfMany: `
    CALL () {${citersOfList("$ids")}
    }
    RETURN citedId AS id, beliefId, seq`,

  /**
   * `levels` breadth-first steps of the cascade in one round trip: step i's frontier is the distinct citers found by
   * step i − 1 (no visited set here: the caller drops what it has seen, and a cycle only repeats within the window).
   * Returns, per step, the hops `{citedId, beliefId, seq}` and the next frontier.
   */
  closureWindow(levels: number): string {
    const steps: string[] = [];
    for (let i = 1; i <= levels; i++) {
      steps.push(`
    CALL (f${i - 1}) {
      CALL (f${i - 1}) {${citersOfList(`f${i - 1}`)}
      }
      RETURN collect({citedId: citedId, beliefId: beliefId, seq: seq}) AS h${i}, collect(DISTINCT beliefId) AS f${i}
    }`);
    }
    const all = Array.from({ length: levels }, (_, i) => `h${i + 1}`).join(", ");
    return `WITH $frontier AS f0${steps.join("")}
    RETURN [${all}] AS levels, f${levels} AS frontier`;
  },

  /**
   * The cascade's edges in one round trip (`citationClosure` of a long walk): the live entries citing `$seek` (by the
   * `sourceId` index: entries hung on placeholders or dangling included), then every belief reachable from those
   * citers and from `$starts` by one pruning breadth-first expand over live entry edges (pointer chasing, no index
   * lookup per belief), each reached belief's own live citing edges, and the live entries hung on placeholders or
   * dangling whose `sourceId` is a reached belief (read from the placeholder index and the `dangling` indexes, so the
   * cost follows those entries, not the walk). Returns every edge found as three parallel lists `cited`, `citers`,
   * `seqs` (plain lists decode several times faster than 10 000 maps) and `reached` (ids); a citer found only through a placeholder or dangling entry that was not reached is expanded by
   * the caller in another round.
   */
  closureTraversal: `
    CALL () {${citersOfList("$seek")}
    }
    WITH collect({citedId: citedId, beliefId: beliefId, seq: seq}) AS seeded, collect(DISTINCT beliefId) + $starts AS first
    CALL (first) {
      MATCH (f:Belief) USING INDEX SEEK f:Belief(ns, id)
      WHERE f.ns = $ns AND f.id IN first
      MATCH (f)(()-[r:SUPPORTS|REBUTS|CONTEXTUALIZES WHERE r.live AND r.dangling IS NULL]->()){0,}(x:Belief)
      RETURN collect(DISTINCT x) AS reached
    }
    CALL (reached) {
      UNWIND reached AS x
      MATCH (x)-[r:SUPPORTS|REBUTS|CONTEXTUALIZES WHERE r.live AND r.dangling IS NULL]->(b:Belief)
      RETURN collect({citedId: r.sourceId, beliefId: b.id, seq: r.seq}) AS direct
    }
    WITH seeded, direct, [x IN reached | x.id] AS ids
    CALL (ids) {
      CALL (ids) {
        MATCH (p:Evidence) USING INDEX p:Evidence(ns, scope, placeholderFor)
        WHERE p.ns = $ns AND p.scope IS NOT NULL AND p.placeholderFor IN ids
        MATCH (p)-[r:SUPPORTS|REBUTS|CONTEXTUALIZES WHERE r.live]->(b:Belief)
        RETURN r.sourceId AS citedId, b.id AS beliefId, r.seq AS seq${["SUPPORTS", "REBUTS", "CONTEXTUALIZES"]
          .map(
            (type) => `
        UNION ALL
        MATCH ()-[r:${type}]->(b:Belief) USING INDEX r:${type}(dangling)
        WHERE r.dangling = true AND r.ns = $ns AND r.live AND r.sourceId IN ids
        RETURN r.sourceId AS citedId, b.id AS beliefId, r.seq AS seq`,
          )
          .join("")}
      }
      RETURN collect({citedId: citedId, beliefId: beliefId, seq: seq}) AS indirect
    }
    WITH seeded + direct + indirect AS hops, ids
    RETURN [h IN hops | h.citedId] AS cited, [h IN hops | h.beliefId] AS citers, [h IN hops | h.seq] AS seqs, ids AS reached`,

  loadMany: `
    UNWIND $ids AS id
    MATCH (b:Belief {ns: $ns, id: id})
    RETURN b ${BELIEF_FULL} AS b`,
} as const;

export const write = {
  recordChangeSet: `CREATE (:AppliedChangeSet {ns: $ns, id: $id, actor: $actor, time: $time})`,

  existingIds(label: NodeLabel): string {
    return `UNWIND $ids AS id MATCH (n:${nodeLabel(label)} {ns: $ns, id: id}) RETURN n.id AS id`;
  },

  createNodes(label: NodeLabel): string {
    return `UNWIND $rows AS row CREATE (n:${nodeLabel(label)}) SET n = row`;
  },

  /** Placeholders are shared per (scope, raw id): MERGE keeps one even when two writers make it at once. */
  mergePlaceholders: `
    UNWIND $rows AS row
    MERGE (e:Evidence {ns: $ns, id: row.id})
    ON CREATE SET e = row
    RETURN e.id AS id`,

  findPlaceholders: `
    UNWIND $rows AS row
    MATCH (e:Evidence {ns: $ns, scope: row.scope, placeholderFor: row.raw})
    RETURN row.scope AS scope, row.raw AS raw, min(e.id) AS id`,

  /**
   * Takes the write lock on each belief before reading it (a SET blocks on a concurrent writer's lock until it
   * commits; what is read after it is the committed state), in id order so two writers never lock in opposite orders.
   */
  lockBeliefs: `
    UNWIND $ids AS id
    MATCH (b:Belief {ns: $ns, id: id})
    SET b._lock = true
    RETURN b.id AS id, b.scope AS scope, b.version AS version, b.history AS history`,

  /** Rows come ordered: beliefs that leave the live set first, so a successor may take the key in the same change-set. */
  updateBeliefs: `
    UNWIND $rows AS row
    MATCH (b:Belief {ns: $ns, id: row.id})
    SET b = row`,

  setHistories: `
    UNWIND $rows AS row
    MATCH (b:Belief {ns: $ns, id: row.id})
    SET b.history = row.history, b.historyLength = row.historyLength
    REMOVE b._lock`,

  createEntryEdges(sourceLabel: NodeLabel, type: string): string {
    return `
      UNWIND $rows AS row
      MATCH (b:Belief {ns: $ns, id: row.beliefId})
      MATCH (s:${nodeLabel(sourceLabel)} {ns: $ns, id: row.sourceNodeId})
      CREATE (s)-[r:${entryRelationshipType(type)}]->(b)
      SET r = row.props`;
  },

  /**
   * An entry whose resolved source is not in this store (e.g. a granted scope's item after an import into another
   * store) still has to be found by `citersOf(sourceId)`: it is kept as a self-loop marked `dangling`, which the graph
   * view never draws.
   */
  createDanglingEntryEdges(type: string): string {
    return `
      UNWIND $rows AS row
      MATCH (b:Belief {ns: $ns, id: row.beliefId})
      CREATE (b)-[r:${entryRelationshipType(type)}]->(b)
      SET r = row.props, r.dangling = true`;
  },

  endEntryEdges: `
    UNWIND $rows AS row
    MATCH (b:Belief {ns: $ns, id: row.beliefId})<-[r:${ENTRY_TYPES}]-()
    WHERE r.seq = row.seq
    SET r.live = false, r.endedAt = coalesce(r.endedAt, row.time)`,

  /**
   * An entry revised to UNRELATED keeps its edge (a citation the cascade still follows) marked `unrelated`, which no
   * graph read draws; a later revision to a relation clears the mark (`relateEntryEdges`).
   */
  markEntryEdgesUnrelated: `
    UNWIND $rows AS row
    MATCH (b:Belief {ns: $ns, id: row.beliefId})<-[r:${ENTRY_TYPES}]-()
    WHERE r.seq = row.seq
    SET r.unrelated = true`,

  relateEntryEdges: `
    UNWIND $rows AS row
    MATCH (b:Belief {ns: $ns, id: row.beliefId})<-[r:${ENTRY_TYPES}]-()
    WHERE r.seq = row.seq AND r.unrelated IS NOT NULL
    REMOVE r.unrelated`,

  /** A revised relation: relationship types are immutable, so the edge is recreated with the new type. */
  retypeEntryEdges(type: string): string {
    const t = entryRelationshipType(type);
    return `
      UNWIND $rows AS row
      MATCH (b:Belief {ns: $ns, id: row.beliefId})<-[r:${ENTRY_TYPES}]-(s)
      WHERE r.seq = row.seq AND type(r) <> '${t}'
      CREATE (s)-[r2:${t}]->(b)
      SET r2 = properties(r)
      DELETE r`;
  },

  mergeBeliefEdges(fromLabel: NodeLabel, type: string): string {
    return `
      UNWIND $rows AS row
      MATCH (a:${nodeLabel(fromLabel)} {ns: $ns, id: row.from})
      MATCH (c:Belief {ns: $ns, id: row.to})
      MERGE (a)-[r:${relationshipType(type)}]->(c)
      ON CREATE SET r.ns = $ns, r.time = row.time, r.changeSet = row.changeSet
      RETURN count(*) AS n`;
  },

  updateMutations: `
    UNWIND $rows AS row
    MATCH (m:Mutation {ns: $ns, scope: row.scope, id: row.id})
    SET m = row
    RETURN m.id AS id`,

  retractEvidence: `
    UNWIND $rows AS row
    MATCH (e:Evidence {ns: $ns, id: row.id})
    SET e.retractedAt = row.retractedAt
    RETURN DISTINCT e.id AS id`,

  mergeTopicFreezes: `
    UNWIND $rows AS row
    MERGE (f:TopicFreeze {ns: $ns, scope: row.scope, topic: row.topic})
    SET f.frozen = row.frozen, f.reason = row.reason, f.byMutationId = row.byMutationId`,
} as const;

/** Test and maintenance helpers: remove one store namespace (never another's data). */
export const admin = {
  deleteNamespaceBatch: `
    CALL () {
      MATCH (n:Belief {ns: $ns}) RETURN n LIMIT 5000
      UNION ALL
      MATCH (n:Evidence {ns: $ns}) RETURN n LIMIT 5000
      UNION ALL
      MATCH (n:Mutation {ns: $ns}) RETURN n LIMIT 5000
      UNION ALL
      MATCH (n:AppliedChangeSet {ns: $ns}) RETURN n LIMIT 5000
      UNION ALL
      MATCH (n:TopicFreeze {ns: $ns}) RETURN n LIMIT 5000
      UNION ALL
      MATCH (n:Embedding {ns: $ns}) RETURN n LIMIT 5000
    }
    WITH n LIMIT 5000
    DETACH DELETE n
    RETURN count(*) AS n`,
} as const;
