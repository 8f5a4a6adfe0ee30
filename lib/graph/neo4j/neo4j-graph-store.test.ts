/**
 * The GraphStore contract suite on a real Neo4j (Community 5.26, started once by the Vitest global setup). Each
 * harness gets its own store namespace, so this file never touches data another test file uses concurrently, and
 * drops that namespace when it closes.
 */
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { describeGraphStoreContract, type GraphStoreHarness, type RecordedQuery } from "../testing/graph-store-contract";
import { createNeo4jGraphStore } from "./neo4j-graph-store";

async function makeNeo4jHarness(): Promise<GraphStoreHarness> {
  let recording: RecordedQuery[] | null = null;
  const store = createNeo4jGraphStore({
    uri: inject("neo4jUri"),
    database: "neo4j",
    namespace: `contract_${randomBytes(6).toString("hex")}`,
    onQuery: (text, params) => void recording?.push({ text, params }),
  });
  await store.check();
  return {
    store,
    async recordQueries<T>(fn: () => Promise<T>) {
      recording = [];
      try {
        const result = await fn();
        return { result, queries: recording };
      } finally {
        recording = null;
      }
    },
    async close() {
      try {
        await store.dropNamespace();
      } finally {
        await store.close();
      }
    },
  };
}

describeGraphStoreContract("Neo4j store", makeNeo4jHarness);
