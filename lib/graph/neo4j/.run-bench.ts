import { benchNeo4jStore } from "@/lib/graph/neo4j/bench";
const sizes = (process.env.SIZES ?? "10000").split(",").map(Number);
const rows = await benchNeo4jStore({ uri: process.env.NEO4J_URI ?? "bolt://127.0.0.1:35091", sizes });
for (const r of rows) console.log(`| ${r.metric} | ${r.value} |`);
