/**
 * No oracle by construction, proven on the queries: through the API path (authentication, the authorised view, the
 * services, the SQL store), a hidden id and a missing id send the same database statements in the same order, with the
 * same parameters apart from the id itself and clock readings, and get the same answer.
 */
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { randomBytes, randomUUID } from "node:crypto";
import { json, openApiHarness, type ApiHarness, type Handler } from "./testing/api-harness";
import { maskQueries, recordCypher, recordDbQueries } from "./testing/record-db-queries";
import * as assimilateRoute from "@/app/api/v1/scopes/[scope]/assimilate/route";
import * as beliefRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as recallRoute from "@/app/api/v1/scopes/[scope]/recall/route";
import * as retractionsRoute from "@/app/api/v1/scopes/[scope]/retractions/route";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

const stores = [
  { name: "SQL store on PGlite", neo4j: false },
  { name: "Neo4j store", neo4j: true },
];

describe.each(stores)("no oracle: hidden and missing ids send the same queries through the API ($name)", ({ neo4j }) => {
  let h: ApiHarness;
  let home: string;
  let secretBeliefId: string;
  let secretEvidenceId: string;
  let targetId: string;
  const suffix = randomBytes(3).toString("hex");
  /** Ids in the services' own format (`b_<uuid>`, `ev_<uuid>`), so nothing but existence tells them apart. */
  const missing = (prefix: string) => `${prefix}_${randomUUID()}`;

  beforeAll(async () => {
    h = await openApiHarness(`orc${suffix}${neo4j ? "n" : "s"}`, neo4j ? { neo4jUri: inject("neo4jUri"), onCypher: recordCypher } : {});
    home = h.scopes.home;
    const secret = h.scopes.secret;
    const ev = await json(await h.call(evidenceRoute.POST, "POST", `/scopes/${secret}/evidence`, { scope: secret }, { token: h.tokens.secretOwner, body: { kind: "document", text: "Audit memo." } }));
    secretEvidenceId = (ev.evidence as { id: string }).id;
    const grounded = await json(
      await h.call(assimilateRoute.POST, "POST", `/scopes/${secret}/assimilate`, { scope: secret }, {
        token: h.tokens.secretOwner,
        body: { claim: "The vault rotates its keys weekly.", evidence: [{ sourceId: secretEvidenceId, tier: "document" }] },
      }),
    );
    secretBeliefId = (grounded.belief as { id: string }).id;
    const target = await json(
      await h.call(assimilateRoute.POST, "POST", `/scopes/${home}/assimilate`, { scope: home }, {
        token: h.tokens.editor,
        body: { claim: "Our key rotation is audited.", evidence: [{ tier: "model_assertion" }] },
      }),
    );
    targetId = (target.belief as { id: string }).id;
  });
  afterAll(async () => {
    await h?.close();
  });

  /** One request through a route handler, recorded; the answer's text with the probed id masked. */
  const probe = async (id: string, send: (id: string) => Promise<Response>) => {
    const { result, queries } = await recordDbQueries(() => send(id));
    return { status: result.status, body: (await result.text()).split(id).join("<ID>"), queries: maskQueries(queries, [id]) };
  };

  /**
   * Moves the database's access counter, as any change of a membership, grant or token does: the next request reads
   * its access rows (token, view) afresh instead of reusing those kept between requests (lib/access/access-cache.ts).
   */
  const forgetAccess = () => h.db.prisma.$executeRaw`UPDATE "access_epoch" SET "epoch" = "epoch" + 1 WHERE "id" = 1`;

  /**
   * Warm once (first-use caches), then hidden, missing, hidden again with the access rows read afresh: all three must
   * agree. Then hidden and missing again with the access rows kept from those requests: those two must agree too.
   */
  const compare = async (hiddenId: string, missingPrefix: string, send: (id: string) => Promise<Response>) => {
    await probe(missing(missingPrefix), send);
    await forgetAccess();
    const hidden = await probe(hiddenId, send);
    await forgetAccess();
    const absent = await probe(missing(missingPrefix), send);
    await forgetAccess();
    const hiddenAgain = await probe(hiddenId, send);
    expect(hidden.queries.length).toBeGreaterThan(1);
    expect(hidden.queries).toEqual(absent.queries);
    expect(hiddenAgain.queries).toEqual(absent.queries);
    expect({ status: hidden.status, body: hidden.body }).toEqual({ status: absent.status, body: absent.body });
    const hiddenKept = await probe(hiddenId, send);
    const absentKept = await probe(missing(missingPrefix), send);
    expect(hiddenKept.queries).toEqual(absentKept.queries);
    expect({ status: hiddenKept.status, body: hiddenKept.body }).toEqual({ status: absentKept.status, body: absentKept.body });
    return { hidden, absent };
  };

  const call = (handler: Handler, method: string, path: string, params: Record<string, string>, body?: unknown) =>
    h.call(handler, method, path, params, { token: h.tokens.editor, ...(body !== undefined ? { body } : {}) });

  it("getBelief: another scope's private belief and a nonexistent id", async () => {
    const { hidden } = await compare(secretBeliefId, "b", (id) => call(beliefRoute.GET, "GET", `/scopes/${home}/beliefs/${id}`, { scope: home, id }));
    expect(hidden.status).toBe(404);
    // Prisma's statements (token, view) and the store's raw SQL are both in the recording.
    expect(hidden.queries.some((q) => q.text.includes("api_tokens"))).toBe(true);
    expect(hidden.queries.some((q) => q.text.includes(neo4j ? ":Belief" : "graph_beliefs"))).toBe(true);
    console.info(`no-oracle getBelief (${neo4j ? "Neo4j" : "SQL"}): ${hidden.queries.length} statements, identical for hidden and missing`);
  });

  it("assimilate citing: another scope's private grounded belief and a nonexistent id (same statements, same decided entry)", async () => {
    // Each citation writes, so params carry fresh entry and change-set ids: the statement texts must match in order,
    // and the cited id must sit in the same places.
    const cite = (id: string) => call(assimilateRoute.POST, "POST", `/scopes/${home}/assimilate`, { scope: home }, { beliefId: targetId, evidence: [{ sourceId: id, tier: "document" }] });
    await cite(missing("b"));
    const run = async (id: string) => {
      const { result, queries } = await recordDbQueries(() => cite(id));
      const body = (await result.json()) as { entries: Record<string, unknown>[] };
      const entry = body.entries[0];
      // What was decided about the citation (seq, time, change-set and replay outputs differ by construction).
      const decided = entry && { verified: entry.verified, effectiveTier: entry.effectiveTier, launderingReason: entry.launderingReason, sourceKind: entry.sourceKind, ess: entry.ess, tier: entry.tier, weight: entry.weight };
      const idPlaces = queries.map((q) => JSON.stringify(q.params).split(id).length - 1);
      return { status: result.status, texts: queries.map((q) => q.text), idPlaces, entry: decided };
    };
    const hidden = await run(secretBeliefId);
    const absent = await run(missing("b"));
    expect(hidden.status).toBe(200);
    expect(hidden.texts.length).toBeGreaterThan(3);
    expect(hidden.texts).toEqual(absent.texts);
    expect(hidden.idPlaces).toEqual(absent.idPlaces);
    expect(hidden.entry).toEqual(absent.entry);
    expect(hidden.entry?.verified).toBe(false);
    // The credence effect of each is covered in api.test.ts; here a third run confirms the sequence is stable.
    const again = await run(missing("b"));
    expect(again.texts).toEqual(hidden.texts);
  });

  it("retract: another scope's private evidence and a nonexistent id (dry run and for real)", async () => {
    for (const dryRun of [true, false]) {
      const send = (id: string) =>
        h.call(retractionsRoute.POST, "POST", `/scopes/${home}/retractions`, { scope: home }, { token: h.tokens.editor, body: { sourceId: id }, ...(dryRun ? { query: { dryRun: "true" } } : {}) });
      const { hidden } = await compare(secretEvidenceId, "ev", send);
      expect(hidden.status).toBe(404);
    }
  });

  it("a scope the caller may not read and a nonexistent scope: same queries on recall and on a write", async () => {
    const asOutsider = (handler: Handler, method: string, suffixPath: string, body?: unknown) => (slug: string) =>
      h.call(handler, method, `/scopes/${slug}${suffixPath}`, { scope: slug }, { token: h.tokens.outsider, ...(body !== undefined ? { body } : {}), ...(method === "GET" ? { query: { q: "vault keys" } } : {}) });
    const missingScope = () => `nope-${randomBytes(4).toString("hex")}`;
    for (const send of [asOutsider(recallRoute.GET, "GET", "/recall"), asOutsider(evidenceRoute.POST, "POST", "/evidence", { kind: "document", text: "Probe." })]) {
      await probe(missingScope(), send);
      await forgetAccess();
      const hidden = await probe(h.scopes.secret, send);
      await forgetAccess();
      const absentSlug = missingScope();
      const absent = await probe(absentSlug, send);
      expect(hidden.queries).toEqual(absent.queries);
      expect({ status: hidden.status, body: hidden.body }).toEqual({ status: 404, body: absent.body });
      // Asked again under one counter value, each is answered from the access rows it left: hidden or missing alike.
      await probe(h.scopes.secret, send);
      const hiddenKept = await probe(h.scopes.secret, send);
      const absentKept = await probe(absentSlug, send);
      expect(hiddenKept.queries).toEqual(absentKept.queries);
      expect({ status: hiddenKept.status, body: hiddenKept.body }).toEqual({ status: 404, body: absentKept.body });
    }
  });
});
