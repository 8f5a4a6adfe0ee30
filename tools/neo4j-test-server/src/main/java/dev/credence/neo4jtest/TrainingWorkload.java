package dev.credence.neo4jtest;

import java.util.List;
import java.util.Map;
import org.neo4j.driver.AuthTokens;
import org.neo4j.driver.Config;
import org.neo4j.driver.Driver;
import org.neo4j.driver.GraphDatabase;
import org.neo4j.driver.Logging;
import org.neo4j.driver.Session;
import org.neo4j.driver.SessionConfig;

/**
 * The statements Credence's store issues, in miniature: managed read/write transactions over Bolt, a uniqueness
 * constraint, a full-text index and its query procedure, MERGE, variable-length paths. Run once under
 * {@code -XX:ArchiveClassesAtExit}, it puts the Bolt server, Cypher planner and runtime classes into the AppCDS
 * archive, so later servers start and answer their first queries sooner. Everything it creates is dropped.
 */
final class TrainingWorkload {
  private TrainingWorkload() {}

  static void run(String uri, String database) {
    Config config = Config.builder().withLogging(Logging.none()).build();
    try (Driver driver = GraphDatabase.driver(uri, AuthTokens.none(), config);
        Session session = driver.session(SessionConfig.forDatabase(database))) {
      session.run("RETURN 1").consume();
      session.run("CREATE CONSTRAINT train_claim_id IF NOT EXISTS FOR (c:TrainClaim) REQUIRE c.id IS UNIQUE").consume();
      session.run("CREATE FULLTEXT INDEX train_claim_text IF NOT EXISTS FOR (c:TrainClaim) ON EACH [c.statement]")
          .consume();
      session.run("CALL db.awaitIndexes(120)").consume();
      List<Map<String, Object>> rows = List.of(
          Map.of("id", "c1", "statement", "Calibrated credence after rebuttal", "credence", 0.7),
          Map.of("id", "c2", "statement", "Evidence supports the calibrated claim", "credence", 0.4));
      session.executeWrite(tx -> tx.run(
              "UNWIND $rows AS row MERGE (c:TrainClaim {id: row.id}) "
                  + "SET c.statement = row.statement, c.credence = row.credence RETURN count(c)",
              Map.of("rows", rows))
          .consume());
      session.executeWrite(tx -> tx.run(
              "MATCH (a:TrainClaim {id: 'c1'}), (b:TrainClaim {id: 'c2'}) "
                  + "MERGE (a)-[r:SUPPORTS {weight: 0.5}]->(b) RETURN type(r)")
          .consume());
      session.executeRead(tx -> tx.run(
              "MATCH p = (a:TrainClaim)-[:SUPPORTS*1..3]->(b) WHERE a.id = $id "
                  + "RETURN [n IN nodes(p) | n.id] AS ids, length(p) AS hops ORDER BY hops",
              Map.of("id", "c1"))
          .list());
      session.executeRead(tx -> tx.run(
              "CALL db.index.fulltext.queryNodes('train_claim_text', $q) YIELD node, score "
                  + "RETURN node.id AS id, score ORDER BY score DESC LIMIT 10",
              Map.of("q", "calibrated"))
          .list());
      session.executeRead(tx -> tx.run("SHOW CONSTRAINTS YIELD name RETURN collect(name) AS names").list());
      session.executeWrite(tx -> tx.run("MATCH (c:TrainClaim) DETACH DELETE c").consume());
      session.run("DROP INDEX train_claim_text IF EXISTS").consume();
      session.run("DROP CONSTRAINT train_claim_id IF EXISTS").consume();
    }
  }
}
