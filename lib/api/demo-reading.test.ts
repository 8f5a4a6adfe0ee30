/**
 * Four misreadings of the demo, tried as a new user would: the demo's stories seeded into a scope, then the REST route
 * handlers with the process's embedder — the real offline model (CI fetches it first; without it this suite fails,
 * never skips).
 *
 * 1. Ingesting "Deploys still go out from the protected release branch." is not read as a rebuttal of the release
 *    belief (its own "never" is not a contradiction), nor as support for "Deploys go from the main branch".
 * 2. That restatement reinforces the release belief instead of creating a duplicate.
 * 3. Paraphrased questions, with few or no words in common, find the belief they mean (hybrid ranking).
 * 4. A question nothing in the scope answers is not answered with the backups dispute.
 * 5. Nor with the deploy-branch dispute, whose main-branch belief is only loosely near a question about schema
 *    migrations; the demo's own questions are still answered.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { sessionPrincipal } from "@/lib/access/principal";
import { seedDemoStories, type DemoSeedReport } from "@/lib/beliefs/demo-stories";
import { composeServices } from "@/lib/beliefs/get-belief-services";
import { settableClock } from "@/lib/beliefs/settable-clock";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { getGraphStore } from "@/lib/graph/select-graph-store";
import * as beliefRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/route";
import * as beliefsRoute from "@/app/api/v1/scopes/[scope]/beliefs/route";
import * as ingestRoute from "@/app/api/v1/scopes/[scope]/ingest/route";
import * as recallRoute from "@/app/api/v1/scopes/[scope]/recall/route";
import { json, openApiHarness, type ApiHarness } from "./testing/api-harness";

// next-auth imports `next/server`, which does not resolve outside Next: Bearer tokens only (as in api.test.ts).
vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

type HistoryItem = { type: string; relation?: string; sourceId?: string };
type Belief = { id: string; text: string; history: HistoryItem[] };

describe("the demo, read by meaning through the REST API (real embedding model)", () => {
  let h: ApiHarness;
  let home: string;
  let demo: DemoSeedReport;

  beforeAll(async () => {
    expect(getEmbedder(), "the embedding model must be fetched (npm run model:fetch)").not.toBeNull();
    h = await openApiHarness("demo-reading");
    home = h.scopes.home;
    const clock = settableClock();
    const { services } = await composeServices(h.db, { store: await getGraphStore(), clock });
    const as = (id: string) => sessionPrincipal(id);
    demo = await seedDemoStories(services, {
      scopeSlug: home,
      clock,
      users: { owner: as(h.userIds.owner), editor: as(h.userIds.editor), reviewer: as(h.userIds.owner) },
    });
  }, 240_000);
  afterAll(async () => {
    await h?.close();
  });

  const belief = async (id: string) => {
    const response = await h.call(beliefRoute.GET, "GET", `/scopes/${home}/beliefs/${id}`, { scope: home, id }, { token: h.tokens.viewer });
    expect(response.status).toBe(200);
    return ((await json(response)) as { belief: Belief }).belief;
  };
  const search = async (q: string, k = 3) => {
    const response = await h.call(beliefsRoute.GET, "GET", `/scopes/${home}/beliefs`, { scope: home }, { token: h.tokens.viewer, query: { q, k: String(k) } });
    expect(response.status).toBe(200);
    return ((await json(response)) as { beliefs: { id: string }[] }).beliefs.map((b) => b.id);
  };

  it("a restatement of the release belief supports it, reinforces it without a duplicate, and leaves the main-branch belief alone", async () => {
    const release = demo.beliefs.deployRelease as string;
    const main = demo.beliefs.deployMain as string;
    const before = await search("deploy branch", 50);
    const response = await h.call(ingestRoute.POST, "POST", `/scopes/${home}/ingest`, { scope: home }, {
      token: h.tokens.editor,
      body: { text: "Deploys still go out from the protected release branch.", source: { kind: "observation" } },
    });
    expect(response.status).toBe(200);
    const body = (await json(response)) as { evidence: { id: string }; changes: { created: unknown[] }; disagreements: { beliefId: string }[] };
    expect(body.changes.created).toEqual([]);
    expect(body.disagreements.map((d) => d.beliefId)).not.toContain(release);

    const entries = (b: Belief) => b.history.filter((i) => i.type === "entry" && i.sourceId === body.evidence.id).map((i) => i.relation);
    expect(entries(await belief(release))).toEqual(["SUPPORTS"]);
    expect(entries(await belief(main))).not.toContain("SUPPORTS");
    expect((await search("deploy branch", 50)).length).toBe(before.length);
  });

  it("paraphrased questions find the belief they mean", async () => {
    expect(await search("How many calls a minute may a client make to the public API?")).toContain(demo.beliefs.rateLimit100);
    expect(await search("Which git branch do releases ship from?")).toContain(demo.beliefs.deployRelease);
    expect(await search("Is the left-pad 2.0 library malicious?")).toContain(demo.beliefs.leftpad);
  });

  it("a question nothing answers is not answered with the backups dispute", async () => {
    const response = await h.call(recallRoute.GET, "GET", `/scopes/${home}/recall`, { scope: home }, {
      token: h.tokens.viewer,
      query: { q: "What port does the canary service run on?" },
    });
    expect(response.status).toBe(200);
    const answer = (await json(response)) as { mode: string; beliefIds: string[] };
    expect(answer.beliefIds).not.toContain(demo.beliefs.backupsHourly);
    expect(answer.beliefIds).not.toContain(demo.beliefs.backupsDaily);
    expect(["insufficient", "no_answer"]).toContain(answer.mode);
  });

  const recall = async (q: string) => {
    const response = await h.call(recallRoute.GET, "GET", `/scopes/${home}/recall`, { scope: home }, { token: h.tokens.viewer, query: { q } });
    expect(response.status).toBe(200);
    return (await json(response)) as { mode: string; beliefIds: string[]; dominantBeliefIds: string[] };
  };

  it("says it has nothing on schema migrations instead of answering with the deploy-branch dispute", async () => {
    expect(await recall("who signs off on schema migrations?")).toMatchObject({ mode: "no_answer", beliefIds: [] });
  });

  it("still answers the demo's own questions", async () => {
    const deploy = await recall("Which branch do we deploy from?");
    expect(deploy.mode).toBe("contested");
    expect(deploy.beliefIds).toEqual(expect.arrayContaining([demo.beliefs.deployMain, demo.beliefs.deployRelease]));
    expect((await recall("How many calls a minute may a client make to the public API?")).beliefIds).toContain(demo.beliefs.rateLimit100);
    expect((await recall("Is the left-pad 2.0 library malicious?")).beliefIds).toContain(demo.beliefs.leftpad);
  });
});
