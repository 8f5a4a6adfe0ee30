import path from "node:path";
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionPrincipal } from "@/lib/access/principal";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { createBeliefServices } from "@/lib/beliefs/create-belief-services";
import { labelledPairSchema } from "@/lib/beliefs/export-readings";
import { settableClock } from "@/lib/beliefs/settable-clock";
import { openDatabase } from "@/lib/db/database";
import { runScript } from "@/lib/db/spawn-script";
import { freshEmbeddedFolder } from "@/lib/db/testing/test-backends";
import { createSqlGraphStore } from "@/lib/graph/sql/sql-graph-store";
import { createScope } from "@/lib/identity/scopes";
import { createUser } from "@/lib/identity/users";

const CLI = path.join(process.cwd(), "bin", "cli.ts");
const SLOW = { timeout: 240_000 };

/** `export-readings` as an operator runs it (a real process on a real embedded data folder), read back by `read relations`. */
describe("cli: export-readings", () => {
  let dataDir: string;
  let ownerId = "";
  let corrected = { beliefId: "", evidenceId: "" };
  const cli = (args: string[], stdin = "") => {
    const env: Record<string, string> = { CREDENCE_DATA_DIR: dataDir, DATABASE_URL: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };
    return runScript(CLI, args, env, stdin);
  };

  beforeAll(async () => {
    dataDir = await freshEmbeddedFolder();
    const db = await openDatabase({ dataDir, owner: "test seeder" });
    try {
      const owner = await createUser(db, { email: "op@example.com", password: "op-password", name: "Op" });
      ownerId = owner.id;
      await createScope(db, { slug: "labels", name: "Labels", ownerId: owner.id });
      const services = createBeliefServices({ db, store: createSqlGraphStore({ sql: db.sql }), assessor: createHeuristicAssessor(), clock: settableClock() });
      const me = sessionPrincipal(owner.id);
      const first = await services.ingest(me, "labels", { text: "The nightly export job writes its files to the archive bucket." });
      await services.ingest(me, "labels", { text: "The support rota hands over every Monday at nine." });
      const belief = first.changes.find((c) => c.created);
      if (!belief) throw new Error("the ingest created no belief");
      corrected = { beliefId: belief.beliefId, evidenceId: first.evidence.id };
      await services.correctRelation(me, "labels", { ...corrected, relation: "CONTEXTUALIZES", reason: "It says where, not whether." });
    } finally {
      await db.close();
    }
  }, 240_000);
  afterAll(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it("writes one labelled pair per line (the person's correction, the reader's readings), filters by source, refuses a bad one", SLOW, async () => {
    const all = await cli(["export-readings", "--scope", "labels"]);
    expect(all.code).toBe(0);
    const pairs = all.stdout.trim().split("\n").map((line) => labelledPairSchema.parse(JSON.parse(line)));
    expect(all.stderr.trim()).toBe(`exported ${pairs.length} labelled pairs from labels: 1 by a person, ${pairs.length - 1} by the reader`);
    const person = pairs.filter((p) => p.source === "person");
    expect(person).toEqual([
      expect.objectContaining({ ...corrected, id: `${corrected.beliefId}/${corrected.evidenceId}`, relation: "CONTEXTUALIZES", by: ownerId, reason: "It says where, not whether.", reader: expect.objectContaining({ relation: "SUPPORTS" }) }),
    ]);
    expect(person[0]?.evidence).toBe("The nightly export job writes its files to the archive bucket.");
    expect(pairs.filter((p) => p.source === "reader").length).toBeGreaterThan(0);

    const only = await cli(["export-readings", "--scope", "labels", "--source", "person"]);
    expect(only.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string }).map((p) => p.id)).toEqual(person.map((p) => p.id));
    const bad = await cli(["export-readings", "--scope", "labels", "--source", "nobody"]);
    expect([bad.code, bad.stderr.trim()]).toEqual([1, "invalid: --source must be person or reader"]);
    const missing = await cli(["export-readings", "--scope", "no-such-scope"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr.trimEnd().split("\n")).toHaveLength(1);

    // The export is `read relations` input as it is: every line read, its label echoed as `expected`.
    const read = await cli(["read", "relations"], all.stdout);
    expect(read.code).toBe(0);
    const answers = read.stdout.trim().split("\n").map((l) => JSON.parse(l) as { id: string; relation: string; expected: string; reader: string });
    expect(answers.map((a) => [a.id, a.expected])).toEqual(pairs.map((p) => [p.id, p.relation]));
    expect(answers.every((a) => /^heuristic@/.test(a.reader) && a.relation.length > 0)).toBe(true);
  });
});
