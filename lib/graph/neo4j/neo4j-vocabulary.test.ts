import { describe, expect, it } from "vitest";
import {
  BELIEF_RELATIONSHIP_TYPES,
  ENTRY_RELATIONSHIP_TYPES,
  NODE_LABELS,
  UnsafeIdentifierError,
  entryRelationshipType,
  nodeLabel,
  relationshipType,
} from "./neo4j-vocabulary";

const INJECTIONS = [
  "Belief) DETACH DELETE (n",
  "Belief`) MATCH (x) DETACH DELETE x //",
  "SUPPORTS]->() MATCH (n) DETACH DELETE n //",
  "Belief:Evidence",
  "belief",
  "supports",
  " Belief",
  "Belief ",
  "Belief\u0000",
  "`Belief`",
  "SUPPORTS|REBUTS",
  "",
  "*",
  "__proto__",
  "constructor",
  "toString",
  "1; DROP CONSTRAINT x",
];

describe("neo4j vocabulary allowlists", () => {
  it("accepts exactly the docs/design.md §2 names", () => {
    for (const l of NODE_LABELS) expect(nodeLabel(l)).toBe(l);
    for (const t of [...ENTRY_RELATIONSHIP_TYPES, ...BELIEF_RELATIONSHIP_TYPES]) expect(relationshipType(t)).toBe(t);
    for (const t of ENTRY_RELATIONSHIP_TYPES) expect(entryRelationshipType(t)).toBe(t);
    expect([...NODE_LABELS]).toEqual(["Belief", "Evidence", "Mutation"]);
    expect([...ENTRY_RELATIONSHIP_TYPES, ...BELIEF_RELATIONSHIP_TYPES]).toEqual([
      "SUPPORTS", "REBUTS", "CONTEXTUALIZES", "SUPERSEDES", "REFINES", "SYNTHESIZES", "CONCERNS",
    ]);
  });

  it.each(INJECTIONS)("refuses the injection string %j everywhere", (s) => {
    expect(() => nodeLabel(s)).toThrow(UnsafeIdentifierError);
    expect(() => relationshipType(s)).toThrow(UnsafeIdentifierError);
    expect(() => entryRelationshipType(s)).toThrow(UnsafeIdentifierError);
  });

  it("refuses non-strings and crossed vocabularies", () => {
    for (const v of [null, undefined, 1, {}, ["Belief"], { toString: () => "Belief" }]) {
      expect(() => nodeLabel(v)).toThrow(UnsafeIdentifierError);
      expect(() => relationshipType(v)).toThrow(UnsafeIdentifierError);
    }
    expect(() => nodeLabel("SUPPORTS")).toThrow(UnsafeIdentifierError);
    expect(() => relationshipType("Belief")).toThrow(UnsafeIdentifierError);
    expect(() => entryRelationshipType("SUPERSEDES")).toThrow(UnsafeIdentifierError);
  });
});
