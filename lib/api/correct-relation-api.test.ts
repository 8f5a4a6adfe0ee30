/**
 * `POST /api/v1/scopes/{scope}/evidence/{id}/relation` through its route handler (Bearer tokens, embedded PGlite): a
 * correction answers the belief, what changed and the figures before and after, and the undo is the same call back to
 * `correction.from`; invalid fields are named (422), another scope's evidence or belief answers exactly like a missing
 * one (404), a viewer is refused (403), and the OpenAPI document describes the operation.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as assimilateRoute from "@/app/api/v1/scopes/[scope]/assimilate/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as relationRoute from "@/app/api/v1/scopes/[scope]/evidence/[id]/relation/route";
import { openApiDocument } from "./openapi";
import { json, openApiHarness, type ApiHarness } from "./testing/api-harness";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

type Correction = {
  belief: { id: string; credence: number; tension: number; history: { type: string; seq: number; actor: string; time: string }[] };
  correction: { evidenceId: string; beliefId: string; from: string; to: string; reason: string; actor: string; time: string; entrySeqs: number[]; revisionSeqs: number[] };
  before: { credence: number; tension: number };
  after: { credence: number; tension: number };
};
type ErrorBody = { error: { code: string; message: string; details: { fields?: { field: string; message: string }[] } } };

describe("POST /scopes/{scope}/evidence/{id}/relation", () => {
  let h: ApiHarness;
  let home: string;
  beforeAll(async () => {
    h = await openApiHarness(`rel${randomBytes(3).toString("hex")}`);
    home = h.scopes.home;
  });
  afterAll(async () => {
    await h?.close();
  });

  const registerIn = async (scope: string, token: string, text: string) => {
    const r = await h.call(evidenceRoute.POST, "POST", `/scopes/${scope}/evidence`, { scope }, { token, body: { kind: "document", text, assess: false } });
    expect(r.status).toBe(201);
    return ((await json(r)) as { evidence: { id: string } }).evidence.id;
  };
  const correct = (scope: string, evidenceId: string, token: string, body: unknown) =>
    h.call(relationRoute.POST, "POST", `/scopes/${scope}/evidence/${encodeURIComponent(evidenceId)}/relation`, { scope, id: evidenceId }, { token, body });

  async function beliefWithRebuttal(claim: string) {
    const pro = await registerIn(home, h.tokens.editor, `${claim} Confirmed in the handbook.`);
    const con = await registerIn(home, h.tokens.editor, `${claim} An incident note, read as against it.`);
    const a = await h.call(assimilateRoute.POST, "POST", `/scopes/${home}/assimilate`, { scope: home }, {
      token: h.tokens.editor,
      body: { claim, evidence: [{ sourceId: pro, tier: "document" }, { sourceId: con, tier: "document", relation: "REBUTS" }] },
    });
    expect(a.status).toBe(200);
    const body = (await json(a)) as { belief: { id: string; credence: number; tension: number } };
    return { belief: body.belief, pro, con };
  }

  it("corrects, answers what changed with before and after, and undoes by correcting back to `from`", async () => {
    const { belief, con } = await beliefWithRebuttal("Release tags are signed by the build server.");
    const r = await correct(home, con, h.tokens.editor, { beliefId: belief.id, relation: "SUPPORTS", reason: "The note confirms it; misread." });
    expect(r.status).toBe(200);
    const fixed = (await json(r)) as Correction;
    expect(fixed.correction).toMatchObject({ evidenceId: con, beliefId: belief.id, from: "REBUTS", to: "SUPPORTS", reason: "The note confirms it; misread.", actor: h.userIds.editor });
    expect(fixed.before).toMatchObject({ credence: belief.credence, tension: belief.tension });
    expect(fixed.after.credence).toBeGreaterThan(belief.credence);
    expect(fixed.after.tension).toBeLessThan(belief.tension);
    const revision = fixed.belief.history.find((i) => i.seq === fixed.correction.revisionSeqs[0]);
    expect(revision).toMatchObject({ type: "revised", actor: h.userIds.editor, time: fixed.correction.time });

    const undo = await correct(home, con, h.tokens.editor, { beliefId: belief.id, relation: fixed.correction.from, reason: "Undo: wrong note." });
    expect(undo.status).toBe(200);
    const undone = (await json(undo)) as Correction;
    expect(undone.correction).toMatchObject({ from: "SUPPORTS", to: "REBUTS" });
    expect(undone.after.credence).toBeCloseTo(belief.credence, 12);
    expect(undone.after.tension).toBeCloseTo(belief.tension, 12);
  });

  it("422 names each invalid field; 404 is the same for another scope's evidence and a missing one; 403 for a viewer", async () => {
    const { belief, pro } = await beliefWithRebuttal("The staging database is reset every Sunday.");
    const invalid = await correct(home, pro, h.tokens.editor, { beliefId: belief.id, relation: "AGREES", reason: " ", extra: 1 });
    expect(invalid.status).toBe(422);
    expect(((await json(invalid)) as ErrorBody).error.details.fields?.map((f) => f.field).sort()).toEqual(["input", "reason", "relation"]);
    const same = await correct(home, pro, h.tokens.editor, { beliefId: belief.id, relation: "SUPPORTS", reason: "already" });
    expect(same.status).toBe(422);
    expect(((await json(same)) as ErrorBody).error.details.fields?.map((f) => f.field)).toEqual(["relation"]);

    const secret = await registerIn(h.scopes.secret, h.tokens.secretOwner, "Another team's memo about resets.");
    const missing = `ev_${randomBytes(6).toString("hex")}`;
    const hidden = await correct(home, secret, h.tokens.editor, { beliefId: belief.id, relation: "REBUTS", reason: "probe" });
    const absent = await correct(home, missing, h.tokens.editor, { beliefId: belief.id, relation: "REBUTS", reason: "probe" });
    expect([hidden.status, absent.status]).toEqual([404, 404]);
    const strip = (body: unknown, id: string) => JSON.parse(JSON.stringify(body).split(id).join("<ID>"));
    expect(strip(await json(hidden), secret)).toEqual(strip(await json(absent), missing));
    // A scope the caller is not in answers like a missing scope.
    const otherScope = await correct(h.scopes.secret, secret, h.tokens.editor, { beliefId: belief.id, relation: "REBUTS", reason: "probe" });
    expect(otherScope.status).toBe(404);
    const viewer = await correct(home, pro, h.tokens.viewer, { beliefId: belief.id, relation: "REBUTS", reason: "probe" });
    expect(viewer.status).toBe(403);
  });

  it("is documented: operationId, the evidence id path parameter, a typed body without evidenceId, a named answer", () => {
    const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { operationId: string; parameters: { name: string; in: string }[]; requestBody: { content: Record<string, { schema: { $ref?: string; properties?: Record<string, unknown>; required?: string[] } }> }; responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }> }>> };
    const op = doc.paths["/api/v1/scopes/{scope}/evidence/{id}/relation"]?.post;
    expect(op?.operationId).toBe("correctRelation");
    expect(op?.parameters.filter((p) => p.in === "path").map((p) => p.name).sort()).toEqual(["id", "scope"]);
    const body = op?.requestBody.content["application/json"]?.schema;
    expect(Object.keys(body?.properties ?? {}).sort()).toEqual(["beliefId", "reason", "relation", "seq"]);
    expect(body?.required?.sort()).toEqual(["beliefId", "reason", "relation"]);
    expect(op?.responses["200"]?.content?.["application/json"]?.schema.$ref).toBe("#/components/schemas/CorrectRelationResult");
  });
});
