import { describe, expect, it } from "vitest";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { serializeScopeExport, type ScopeExport } from "@/lib/graph/graph-store";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { MAX_IMPORT_BYTES, readScopeFile, scopeArchive } from "./scope-archive";
import { rekeyScopeExport } from "./scope-copy";

/** A hand-made export: two beliefs, one citing the other and one evidence item, with a mutation and an edge. */
function sample(): ScopeExport {
  const entry = (seq: number, sourceId: string) => ({ seq, type: "entry", sourceId, time: "2026-03-01T10:00:00.000Z", actor: "u1", changeSet: "cs_1" });
  return {
    format: "credence.scope-export",
    formatVersion: 1,
    scope: "scope_a",
    beliefs: [
      { belief: { id: "b_one", scope: "scope_a", supersedesId: null, text: "Backups run nightly." }, history: [entry(1, "ev_log")] },
      { belief: { id: "b_two", scope: "scope_a", supersedesId: "b_one", text: "Backups run hourly." }, history: [entry(1, "b_one"), entry(2, "ev_elsewhere")] },
    ],
    evidence: [{ id: "ev_log", scope: "scope_a", text: "The backup log lists one run a night." }],
    mutations: [{ id: "mut_1", scope: "scope_a", beliefIds: ["b_one", "b_two"], evidenceIds: ["ev_log"], reason: "cites ev_log", conflictReport: { existingBeliefId: "b_one" } }],
    edges: [{ kind: "SUPERSEDES", from: "b_two", to: "b_one", time: "2026-03-01T10:00:00.000Z", changeSet: "cs_1" }],
    topicFreezes: [],
  } as unknown as ScopeExport;
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(BeliefServiceError);
    expect((error as BeliefServiceError).code).toBe("invalid");
    return (error as BeliefServiceError).message;
  }
  throw new Error("expected a refusal");
}

describe("scope backup files", () => {
  it("zips scope.json (the export text) with one JSON-lines history file per belief and a README", () => {
    const data = sample();
    const files = unzipSync(scopeArchive(data, new Date("2026-03-02T00:00:00Z")));
    expect(Object.keys(files).sort()).toEqual(["README.txt", "history/b_one.jsonl", "history/b_two.jsonl", "scope.json"]);
    expect(strFromU8(files["scope.json"]!)).toBe(`${serializeScopeExport(data)}\n`);
    const lines = strFromU8(files["history/b_two.jsonl"]!).trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.seq, l.sourceId])).toEqual([[1, "b_one"], [2, "ev_elsewhere"]]);
    expect(strFromU8(files["README.txt"]!)).toContain("2 beliefs");
  });

  it("reads the export back from its zip and from the JSON text alike", () => {
    const data = sample();
    const zip = scopeArchive(data, new Date("2026-03-02T00:00:00Z"));
    expect(readScopeFile(zip)).toEqual(JSON.parse(serializeScopeExport(data)));
    expect(readScopeFile(strToU8(serializeScopeExport(data)))).toEqual(JSON.parse(serializeScopeExport(data)));
  });

  it("refuses an empty file, text that is not JSON, a zip without scope.json and an oversized file, saying what to do", () => {
    expect(refusal(() => readScopeFile(new Uint8Array()))).toMatch(/empty/);
    expect(refusal(() => readScopeFile(strToU8("a shopping list, not a backup")))).toMatch(/neither a zip nor JSON/);
    expect(refusal(() => readScopeFile(zipSync({ "notes.txt": strToU8("hello") })))).toMatch(/no scope\.json/);
    expect(refusal(() => readScopeFile(new Uint8Array(MAX_IMPORT_BYTES + 1)))).toMatch(/too big/);
  });
});

describe("rekeyScopeExport", () => {
  it("gives every belief, evidence and mutation a new id and rewrites every reference to them, nothing else", () => {
    let n = 0;
    const copy = rekeyScopeExport(sample(), (kind) => `${kind}-${++n}`);
    const ids = new Map([["b_one", "belief-1"], ["b_two", "belief-2"], ["ev_log", "evidence-3"], ["mut_1", "mutation-4"]]);
    expect(copy.beliefs.map((r) => r.belief.id)).toEqual(["belief-1", "belief-2"]);
    expect(copy.beliefs[1]?.belief.supersedesId).toBe(ids.get("b_one"));
    expect(copy.beliefs[0]?.history.map((h) => ("sourceId" in h ? h.sourceId : null))).toEqual(["evidence-3"]);
    // A source outside the export (cited through a grant) keeps its id.
    expect(copy.beliefs[1]?.history.map((h) => ("sourceId" in h ? h.sourceId : null))).toEqual(["belief-1", "ev_elsewhere"]);
    expect(copy.evidence[0]?.id).toBe("evidence-3");
    expect(copy.mutations[0]).toMatchObject({ id: "mutation-4", beliefIds: ["belief-1", "belief-2"], evidenceIds: ["evidence-3"], conflictReport: { existingBeliefId: "belief-1" } });
    // Free text is not rewritten, and neither are change-set ids, times or the scope.
    expect(copy.mutations[0]?.reason).toBe("cites ev_log");
    expect(copy.edges[0]).toEqual({ kind: "SUPERSEDES", from: "belief-2", to: "belief-1", time: "2026-03-01T10:00:00.000Z", changeSet: "cs_1" });
    expect(copy.scope).toBe("scope_a");
    expect(JSON.stringify(copy)).not.toMatch(/"(b_one|b_two|ev_log|mut_1)"/);
  });
});
