/**
 * `POST …/ingest` with `edits` through its route handler (no server): a relation the dry run found and the caller left
 * out is not written; an edit naming anything the reading did not produce is 422, a plan that no longer holds 409.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { json, openApiHarness, type ApiHarness, type Handler } from "./testing/api-harness";
import * as beliefRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/route";
import * as ingestRoute from "@/app/api/v1/scopes/[scope]/ingest/route";

// next-auth imports `next/server`, which does not resolve outside Next: Bearer tokens only here.
vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

describe("REST ingest with edits (Bearer tokens, embedded PGlite)", () => {
  let h: ApiHarness;
  let home: string;
  beforeAll(async () => {
    h = await openApiHarness(randomBytes(3).toString("hex"));
    home = h.scopes.home;
  });
  afterAll(async () => {
    await h?.close();
  });

  const post = (handler: Handler, path: string, params: Record<string, string>, token: string | null, body?: unknown) => h.call(handler, "POST", path, params, { token, body });
  const errorOf = async (response: Response) => ((await json(response)) as { error: { details: { fields?: { field: string }[] } } }).error;

  it("a dry run's relation left out is not written; an edit naming anything else is 422, a stale plan 409", async () => {
    const path = `/scopes/${home}/ingest`;
    const seeded = await post(ingestRoute.POST, path, { scope: home }, h.tokens.editor, { text: "The badge printer in the lobby jams every morning." });
    expect(seeded.status).toBe(200);
    const text = "The badge printer in the lobby never jams in the morning.";
    type Relation = { claimIndex: number; beliefId: string; relation: string; readerRelation: string | null };
    type Answer = { planId: string; relations: Relation[]; excluded: { claims: number[]; relations: Relation[] }; evidence: { id: string } };
    const dry = await h.call(ingestRoute.POST, "POST", path, { scope: home }, { token: h.tokens.editor, body: { text }, query: { dryRun: "true" } });
    expect(dry.status).toBe(200);
    const plan = (await dry.json()) as Answer;
    const [first] = plan.relations;
    expect(first).toBeTruthy();
    const leaveOut = { claim: first?.claimIndex as number, beliefId: first?.beliefId as string };

    const bad = await post(ingestRoute.POST, path, { scope: home }, h.tokens.editor, { text, edits: { excludeClaims: [9] } });
    expect(bad.status).toBe(422);
    expect((await errorOf(bad)).details.fields?.map((f) => f.field)).toEqual(["edits.excludeClaims"]);
    const stale = await post(ingestRoute.POST, path, { scope: home }, h.tokens.editor, { text, edits: { planId: "plan_0", excludeRelations: [leaveOut] } });
    expect(stale.status).toBe(409);
    expect((await errorOf(stale)).details.fields?.map((f) => f.field)).toEqual(["edits.planId"]);

    const committed = await post(ingestRoute.POST, path, { scope: home }, h.tokens.editor, { text, edits: { planId: plan.planId, excludeRelations: [leaveOut] } });
    expect(committed.status).toBe(200);
    const answer = (await committed.json()) as Answer;
    expect(answer.relations.map((r) => [r.claimIndex, r.beliefId])).not.toContainEqual([leaveOut.claim, leaveOut.beliefId]);
    expect(answer.excluded.relations.map((r) => [r.claimIndex, r.beliefId])).toEqual([[leaveOut.claim, leaveOut.beliefId]]);
    const detail = await h.call(beliefRoute.GET, "GET", `/scopes/${home}/beliefs/${leaveOut.beliefId}`, { scope: home, id: leaveOut.beliefId }, { token: h.tokens.viewer });
    const { belief } = (await detail.json()) as { belief: { history: { sourceId?: string | null }[] } };
    expect(belief.history.filter((i) => i.sourceId === answer.evidence.id)).toEqual([]);
  });

});
