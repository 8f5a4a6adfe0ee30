/**
 * Event time through the REST API and MCP: `observedAt` on evidence, assimilate, ingest and harvest (validated, kept
 * beside the recorded time), cooling by event time (a history spanning weeks written in seconds keeps its weight),
 * the same state whatever the import order, and `asOf` on search and recall (REST and MCP) answering from the
 * beliefs as they stood then.
 */
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import * as mcpRoute from "@/app/api/mcp/route";
import * as assimilateRoute from "@/app/api/v1/scopes/[scope]/assimilate/route";
import * as beliefRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/route";
import * as replayRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/replay/route";
import * as beliefsRoute from "@/app/api/v1/scopes/[scope]/beliefs/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as harvestRoute from "@/app/api/v1/scopes/[scope]/harvest/route";
import * as ingestRoute from "@/app/api/v1/scopes/[scope]/ingest/route";
import * as recallRoute from "@/app/api/v1/scopes/[scope]/recall/route";
import { callTool } from "@/lib/mcp/testing/mcp-client-kit";
import { json, openApiHarness, type ApiHarness } from "./testing/api-harness";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

interface Entry {
  type: string;
  seq: number;
  sourceId?: string | null;
  relation?: string;
  time: string;
  observedAt?: string;
  weight: number;
  ess: number;
  effectiveWeight: number;
  contribution: number;
}
interface BeliefBody {
  id: string;
  text: string;
  credence: number;
  confidence: number;
  validFrom: string;
  history: Entry[];
}

let h: ApiHarness;
let home: string;
let mcp: Client;
const run = randomBytes(3).toString("hex");

beforeAll(async () => {
  h = await openApiHarness(`evt${run}`);
  home = h.scopes.home;
  mcp = new Client({ name: "credence-event-time-test", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL("http://localhost/api/mcp"), {
      fetch: (input, init) => {
        const request = new Request(input, init);
        request.headers.set("authorization", `Bearer ${h.tokens.editor}`);
        if (request.method === "POST") return mcpRoute.POST(request);
        return Promise.resolve(request.method === "GET" ? mcpRoute.GET() : mcpRoute.DELETE());
      },
    }),
  );
});

afterAll(async () => {
  await mcp?.close().catch(() => {});
  await h?.close();
});

const scoped = (suffix: string) => `/scopes/${home}${suffix}`;
const post = async (handler: typeof evidenceRoute.POST, suffix: string, body: unknown) => h.call(handler, "POST", scoped(suffix), { scope: home }, { token: h.tokens.editor, body });
const get = async (handler: typeof beliefsRoute.GET, suffix: string, params: Record<string, string>, query: Record<string, string>) =>
  h.call(handler, "GET", scoped(suffix), { scope: home, ...params }, { token: h.tokens.editor, query });

async function registerEvidence(text: string, observedAt?: string): Promise<string> {
  const response = await post(evidenceRoute.POST, "/evidence", { kind: "measurement", text, assess: false, ...(observedAt ? { observedAt } : {}) });
  expect(response.status).toBe(201);
  return ((await json(response)).evidence as { id: string }).id;
}

async function assimilate(body: Record<string, unknown>): Promise<BeliefBody> {
  const response = await post(assimilateRoute.POST, "/assimilate", body);
  const answer = await json(response);
  expect(response.status, JSON.stringify(answer)).toBe(200);
  return answer.belief as BeliefBody;
}

/** The cooling factor the replay gave the newest entry: effectiveWeight ÷ (weight × ess × resistance before it). */
function coolingOfLast(after: BeliefBody, confidenceBefore: number): number {
  const entry = after.history.filter((i) => i.type === "entry").at(-1) as Entry;
  return entry.effectiveWeight / (entry.weight * entry.ess * (1 / (confidenceBefore + 1)));
}

const day = (d: string, hour = 9) => `2026-${d}T${String(hour).padStart(2, "0")}:00:00.000Z`;

describe("event time (observedAt) over REST", () => {
  it("a history spanning weeks written in seconds is not cooled: every update keeps its weight, and both times are kept", async () => {
    const weeks = ["09-01", "09-08", "09-15", "09-22"].map((d) => day(d));
    const sources = await Promise.all(weeks.map((_, i) => registerEvidence(`Freight lift round trip timed at 4 minutes, run ${i + 1} (${run})`)));
    const claim = `The freight lift completes a round trip in four minutes (${run})`;
    let before = 0;
    let last: BeliefBody | null = null;
    for (const [i, observedAt] of weeks.entries()) {
      last = await assimilate({ claim, observedAt, evidence: [{ sourceId: sources[i], tier: "measurement", weight: 0.6 }] });
      if (i > 0) expect(coolingOfLast(last, before)).toBeCloseTo(1, 9);
      before = last.confidence;
    }
    const entries = (last as BeliefBody).history.filter((i) => i.type === "entry");
    expect(entries.map((e) => e.observedAt)).toEqual(weeks);
    // Recorded today, observed weeks ago: both times are in the history.
    for (const e of entries) expect(Date.parse(e.time)).toBeGreaterThan(Date.parse(day("12-01", 0)));
    expect((last as BeliefBody).validFrom).toBe(weeks[0]);

    // The same updates observed at one instant are cooled to the floor (one actor within the cooling window).
    const sameInstant = `The freight lift is serviced every quarter (${run})`;
    const control = await Promise.all(weeks.map((_, i) => registerEvidence(`Service log entry ${i + 1} (${run})`)));
    before = 0;
    for (const [i, id] of control.entries()) {
      const after = await assimilate({ claim: sameInstant, observedAt: weeks[0], evidence: [{ sourceId: id, tier: "measurement", weight: 0.6 }] });
      if (i > 0) expect(coolingOfLast(after, before)).toBeCloseTo(0.25, 9);
      before = after.confidence;
    }
  });

  it("an import in any order gives the same state, and the stored state is the replay of its history", async () => {
    const at = [day("10-01"), day("10-03", 14), day("10-09"), day("10-20", 8)];
    const relations = ["SUPPORTS", "SUPPORTS", "REBUTS", "SUPPORTS"] as const;
    const write = async (claim: string, order: readonly number[]) => {
      const ids = await Promise.all(at.map((_, i) => registerEvidence(`Kiln reading ${i} for ${claim}`)));
      let last: BeliefBody | null = null;
      // Verbatim: the two claims are written apart (the reader would read the second as restating the first).
      for (const i of order) last = await assimilate({ claim, match: "exact", observedAt: at[i], evidence: [{ sourceId: ids[i], tier: "measurement", relation: relations[i], weight: 0.7 }] });
      return last as BeliefBody;
    };
    const inOrder = await write(`The kiln reaches 1200 degrees within two hours (${run})`, [0, 1, 2, 3]);
    const shuffled = await write(`The kiln reaches 1200 degrees within two hours, as imported (${run})`, [3, 1, 0, 2]);
    expect(shuffled.credence).toBe(inOrder.credence);
    expect(shuffled.confidence).toBe(inOrder.confidence);
    expect(shuffled.validFrom).toBe(at[0]);
    const check = await get(replayRoute.GET, `/beliefs/${shuffled.id}/replay`, { id: shuffled.id }, {});
    expect(check.status).toBe(200);
    expect(await json(check)).toMatchObject({ matches: true, replayed: { ok: true, checked: 1 } });
  });

  it("refuses an observedAt in the future or that is not a time, naming the field, and writes nothing", async () => {
    const future = new Date(Date.now() + 24 * 3_600_000).toISOString();
    const counts = await h.counts();
    const attempts: [typeof evidenceRoute.POST, string, Record<string, unknown>][] = [
      [assimilateRoute.POST, "/assimilate", { claim: `Never written (${run})`, evidence: [{ tier: "observation" }] }],
      [evidenceRoute.POST, "/evidence", { kind: "document", text: `Never registered (${run})` }],
      [ingestRoute.POST, "/ingest", { text: `The archive room stays locked at night (${run}).` }],
      [harvestRoute.POST, "/harvest", { text: `The archive room has two doors (${run}).`, producedBy: { name: "probe" }, commit: true }],
    ];
    for (const [handler, suffix, body] of attempts) {
      for (const observedAt of [future, "last tuesday"]) {
        const response = await post(handler, suffix, { ...body, observedAt });
        const answer = await json(response);
        expect(response.status, `${suffix} ${observedAt}`).toBe(422);
        const fields = (answer.error as { details: { fields: { field: string }[] } }).details.fields.map((f) => f.field);
        expect(fields).toContain("observedAt");
      }
    }
    expect(await h.counts()).toEqual(counts);
  });

  it("ingest and harvest stamp their evidence and entries with the event time", async () => {
    const observedAt = day("11-02", 16);
    const ingest = await post(ingestRoute.POST, "/ingest", { text: `The east stairwell lights stay on all night (${run}).`, observedAt });
    const ingested = (await json(ingest)) as { evidence: { id: string; observedAt?: string; createdAt: string }; changes: { created: { beliefId: string }[] } };
    expect(ingest.status).toBe(200);
    expect(ingested.evidence.observedAt).toBe(observedAt);
    const id = ingested.changes.created[0]?.beliefId as string;
    const detail = await json(await get(beliefRoute.GET, `/beliefs/${id}`, { id }, {}));
    expect((detail.belief as BeliefBody).history.map((i) => i.observedAt)).toEqual([observedAt]);

    const harvest = await post(harvestRoute.POST, "/harvest", { text: `The west loading bay floods after heavy rain (${run}).`, producedBy: { name: "site-agent" }, commit: true, observedAt });
    const harvested = (await json(harvest)) as { assimilated: { beliefId: string }[] };
    expect(harvest.status).toBe(200);
    const harvestedId = harvested.assimilated[0]?.beliefId as string;
    const claim = await json(await get(beliefRoute.GET, `/beliefs/${harvestedId}`, { id: harvestedId }, {}));
    expect((claim.belief as BeliefBody).history.map((i) => i.observedAt)).toEqual([observedAt]);
  });
});

describe("asOf on search and recall (REST and MCP)", () => {
  const claim = `The loading dock closes at six in the evening (${run})`;
  const question = `When does the loading dock close (${run})?`;
  const T = day("09-10");
  let beliefId: string;

  beforeAll(async () => {
    // Backed by two memos on 1 September; three gate logs of 20 September say otherwise.
    const memos = await Promise.all([1, 2].map((i) => registerEvidence(`Facilities memo ${i}: dock hours end at 18:00 (${run})`, day("09-01"))));
    let belief = await assimilate({ claim, observedAt: day("09-01"), evidence: memos.map((sourceId) => ({ sourceId, tier: "document" })) });
    const logs = await Promise.all([1, 2, 3].map((i) => registerEvidence(`Gate log ${i}: dock open past 21:00 (${run})`, day("09-20"))));
    belief = await assimilate({ beliefId: belief.id, observedAt: day("09-20"), evidence: logs.map((sourceId) => ({ sourceId, tier: "measurement", relation: "REBUTS" })) });
    beliefId = belief.id;
  });

  it("search ranks the belief with its credence as it stood then, and not before it existed", async () => {
    const then = await json(await get(beliefRoute.GET, `/beliefs/${beliefId}`, { id: beliefId }, { asOf: T }));
    const thenCredence = (then.belief as BeliefBody).credence;
    const now = (await json(await get(beliefsRoute.GET, "/beliefs", {}, { q: question }))).beliefs as BeliefBody[];
    const past = (await json(await get(beliefsRoute.GET, "/beliefs", {}, { q: question, asOf: T }))).beliefs as BeliefBody[];
    const nowHit = now.find((b) => b.id === beliefId);
    const pastHit = past.find((b) => b.id === beliefId);
    expect(pastHit?.credence).toBe(thenCredence);
    expect(nowHit?.credence).toBeLessThan(0.5);
    expect(thenCredence).toBeGreaterThan(0.7);
    const before = (await json(await get(beliefsRoute.GET, "/beliefs", {}, { q: question, asOf: day("08-01") }))).beliefs as BeliefBody[];
    expect(before.map((b) => b.id)).not.toContain(beliefId);

    const tool = await callTool(mcp, "search_beliefs", { scope: home, q: question, asOf: T });
    expect(tool.isError, tool.text).toBe(false);
    expect((tool.structured.beliefs as BeliefBody[]).find((b) => b.id === beliefId)?.credence).toBe(thenCredence);
  });

  it("recall answers from what was believed then: settled before the gate logs, contested after", async () => {
    const recall = async (query: Record<string, string>) => {
      const response = await get(recallRoute.GET, "/recall", {}, { q: question, ...query });
      expect(response.status).toBe(200);
      return (await json(response)) as { mode: string; dominantAnswer: string | null; dominantBeliefIds: string[] };
    };
    const then = await recall({ asOf: T });
    expect(then.mode).toBe("settled");
    expect(then.dominantBeliefIds).toEqual([beliefId]);
    const now = await recall({});
    expect(now.mode, JSON.stringify(now)).not.toBe("settled");
    expect((await recall({ asOf: day("08-01") })).mode).toBe("no_answer");

    const tool = await callTool(mcp, "recall", { scope: home, q: question, asOf: T });
    expect(tool.isError, tool.text).toBe(false);
    expect(tool.structured).toMatchObject({ mode: "settled", dominantBeliefIds: [beliefId] });
    const bad = await get(recallRoute.GET, "/recall", {}, { q: question, asOf: "yesterday-ish" });
    expect(bad.status).toBe(422);
  });

  it("MCP assimilate accepts observedAt and keeps it in the history", async () => {
    const tool = await callTool(mcp, "assimilate", {
      scope: home,
      claim: `The dock ramp was resurfaced in October (${run})`,
      observedAt: day("10-15"),
      evidence: [{ tier: "observation" }],
    });
    expect(tool.isError, tool.text).toBe(false);
    const belief = tool.structured.belief as BeliefBody;
    expect(belief.history.map((i) => i.observedAt)).toEqual([day("10-15")]);
  });
});

describe("assimilate relates a claim like ingest (REST, the local model and the offline reader)", () => {
  async function cite(text: string): Promise<string> {
    const response = await post(evidenceRoute.POST, "/evidence", { kind: "document", text, assess: false });
    return ((await json(response)).evidence as { id: string }).id;
  }
  const send = async (body: Record<string, unknown>) => {
    const response = await post(assimilateRoute.POST, "/assimilate", body);
    const answer = await json(response);
    expect(response.status, JSON.stringify(answer)).toBe(200);
    return answer as { belief: BeliefBody; match: string | null; relations: { beliefId: string; relation: string; strength: number }[]; cascade: { beliefId: string }[] };
  };

  it("a paraphrase reinforces the belief it restates; match: exact writes the claim verbatim", async () => {
    const first = await send({ claim: `The nightly database backup finishes before two in the morning ${run}`, evidence: [{ sourceId: await cite(`Backup job log, week 40 ${run}`), tier: "document" }] });
    expect(first.match).toBeNull();
    const again = await send({ claim: `The nightly backup of the database finishes before 2 in the morning ${run}`, evidence: [{ sourceId: await cite(`Backup job log, week 41 ${run}`), tier: "document" }] });
    expect(again.match).toBe("restatement");
    expect(again.belief.id).toBe(first.belief.id);
    expect(again.belief.history.filter((i) => i.type === "entry")).toHaveLength(2);
    expect(again.belief.credence).toBeGreaterThan(first.belief.credence);

    const verbatim = await send({ claim: `The nightly backup of the database finishes before 2 in the morning ${run}`, match: "exact", evidence: [{ sourceId: await cite(`Backup job log, week 42 ${run}`), tier: "document" }] });
    expect(verbatim.match).toBeNull();
    expect(verbatim.belief.id).not.toBe(first.belief.id);
    expect(verbatim.relations).toEqual([]);
  });

  it("a changed value competes: the old belief is rebutted by the new claim's source", async () => {
    const old = await send({ claim: `The staging cluster runs twelve worker nodes ${run}`, evidence: [{ sourceId: await cite(`Capacity plan, spring ${run}`), tier: "document" }] });
    const source = await cite(`Capacity plan, autumn ${run}`);
    const changed = await send({ claim: `The staging cluster runs sixteen worker nodes ${run}`, evidence: [{ sourceId: source, tier: "document" }] });
    expect(changed.belief.id).not.toBe(old.belief.id);
    expect(changed.relations).toContainEqual(expect.objectContaining({ beliefId: old.belief.id, relation: "REBUTS" }));
    expect(changed.cascade.map((c) => c.beliefId)).toContain(old.belief.id);
    const after = await json(await get(beliefRoute.GET, `/beliefs/${old.belief.id}`, { id: old.belief.id }, {}));
    const oldNow = after.belief as BeliefBody;
    expect(oldNow.history.filter((i) => i.type === "entry").map((i) => [i.sourceId, i.relation])).toContainEqual([source, "REBUTS"]);
    expect(oldNow.credence).toBeLessThan(old.belief.credence);
    const check = await get(replayRoute.GET, `/beliefs/${old.belief.id}/replay`, { id: old.belief.id }, {});
    expect(await json(check)).toMatchObject({ matches: true, replayed: { ok: true } });
  });
});
