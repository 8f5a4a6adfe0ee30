import { inject } from "vitest";
import { describeBeliefServices } from "./testing/belief-services-suite";

describeBeliefServices("Neo4j", "neo4j", () => inject("neo4jUri"));
