/**
 * Reading by meaning, through the services on PGlite with the real offline embedding model (CI fetches it first):
 * a restatement reinforces instead of duplicating, paraphrased questions find the belief they mean, and a question
 * nothing answers gets no answer instead of a loosely worded match.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHeuristicAssessor } from "@/lib/reading/reader";
import { LocalEmbedder } from "@/lib/embed/local-embedder";
import type { BeliefServices, Caller } from "@/lib/beliefs/belief-services";
import { openBeliefHarness, type BeliefHarness } from "@/lib/beliefs/testing/belief-harness";

describe("reading by meaning with the local model (PGlite)", () => {
  let h: BeliefHarness;
  let services: BeliefServices;
  let ed: Caller;
  let home: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    h = await openBeliefHarness("pglite");
    const embedder = new LocalEmbedder();
    expect(embedder.available()).toBe(true);
    services = h.withAssessor(createHeuristicAssessor(), { embedder });
    ed = h.callers.editor;
    home = h.scopes.home;
    const seed = async (name: string, text: string) => {
      const r = await services.assimilate(ed, home, { claim: text, evidence: [{ sourceId: null, tier: "model_assertion" }] });
      ids[name] = r.belief.id;
    };
    const release = await services.ingest(ed, home, { text: "Deploys go out from the protected release branch; nothing is ever deployed from the main branch." });
    ids.release = release.changes.find((c) => c.created)?.beliefId as string;
    await seed("migrations", "Database migrations are approved by the platform on-call engineer.");
    await seed("hourly", "Production database backups run hourly.");
    await seed("daily", "Production database backups run daily.");
    await seed("scans", "Open-source dependencies are scanned for known vulnerabilities on every build.");
  }, 120_000);
  afterAll(async () => {
    await h?.close();
  });

  it("ingesting a restatement reinforces the belief it restates: no duplicate", async () => {
    const before = await services.listBeliefs(h.callers.viewer, home, {});
    const again = await services.ingest(ed, home, { text: "Deploys still go out from the protected release branch." });
    expect(again.changes.filter((c) => c.created)).toEqual([]);
    expect(again.changes.map((c) => c.beliefId)).toContain(ids.release);
    expect(await services.listBeliefs(h.callers.viewer, home, {})).toHaveLength(before.length);
    const detail = await services.getBelief(h.callers.viewer, home, { beliefId: ids.release as string });
    expect(detail.history.some((i) => i.type === "entry" && i.relation === "SUPPORTS" && i.sourceId === again.evidence.id)).toBe(true);
  });

  it("a harvested claim behind a framing label reinforces the belief it restates", async () => {
    const out = await services.harvest(ed, home, {
      text: "Post-incident review, 28 November: deploys still go out from the protected release branch.",
      producedBy: { name: "reviewer-bot" },
      commit: true,
    });
    expect(out.claims.map((c) => c.text)).toEqual(["Deploys still go out from the protected release branch."]);
    expect(out.assimilated.map((a) => [a.belief.id, a.created])).toEqual([[ids.release, false]]);
  });

  it("a paraphrased question with no shared word finds the belief it means", async () => {
    const found = await services.retrieve(h.callers.viewer, home, { q: "Who signs off schema changes?", k: 3 });
    expect(found[0]?.belief.id).toBe(ids.migrations);
    const answer = await services.recall(h.callers.viewer, home, { q: "Who signs off schema changes?" });
    expect(answer.dominantBeliefIds[0]).toBe(ids.migrations);
  });

  it("a question nothing answers is not answered with the backups dispute", async () => {
    const answer = await services.recall(h.callers.viewer, home, { q: "What port does the canary service run on?" });
    expect(answer.beliefIds).not.toContain(ids.hourly);
    expect(answer.beliefIds).not.toContain(ids.daily);
    expect(answer.mode).toBe("no_answer");
  });

  it("a question sharing only a common word with the backups beliefs ('run') is not answered with them", async () => {
    const answer = await services.recall(h.callers.viewer, home, { q: "When do load tests run?" });
    expect(answer.beliefIds).not.toContain(ids.hourly);
    expect(answer.beliefIds).not.toContain(ids.daily);
    expect(answer.mode).toBe("no_answer");
  });

  it("values that differ are not a restatement: a daily claim does not reinforce the hourly belief", async () => {
    const out = await services.harvest(ed, home, { text: "Production database backups run weekly.", producedBy: { name: "bot" }, commit: true });
    expect(out.assimilated[0]?.created).toBe(true);
    expect([ids.hourly, ids.daily]).not.toContain(out.assimilated[0]?.belief.id);
  });
});
