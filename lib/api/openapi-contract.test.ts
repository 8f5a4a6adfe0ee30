/**
 * The OpenAPI document is the contract: every operation has an `operationId` and a typed success schema (the zod
 * schema its presenter parses with); a third-party linter (Redocly's `recommended` rules) finds no error; and the real
 * answers of the API — the seeds' scenarios driven by the client generated from the document, over real HTTP on
 * embedded PGlite — validate against it with Ajv (JSON Schema 2020-12, formats), errors included.
 */
import path from "node:path";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ScenarioOptions, ScenarioReport } from "@/tools/api-client/scenario-types";
import { defaultParams, emptyChangeSet, undecidedItem, writeBelief } from "@/lib/engine";
import { getGraphStore } from "@/lib/graph/select-graph-store";
import { API_OPERATIONS, openApiDocument } from "./openapi";
import { openApiHarness, type ApiHarness } from "./testing/api-harness";
import { matchRoute, startRouteServer, type RouteServer } from "./testing/route-server";

// next-auth imports `next/server`, which does not resolve outside Next: Bearer tokens only here.
vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

/**
 * The scenario script, loaded when the test runs: it compiles against types generated from the document (not committed;
 * generated-client.test.ts type-checks it against a fresh generation), so the repository's type check does not follow it.
 */
const SCENARIO_SCRIPT = path.join(process.cwd(), "tools", "api-client", "seed-scenarios.ts");
const runSeedScenarios = async (options: ScenarioOptions): Promise<ScenarioReport> =>
  ((await import(/* @vite-ignore */ SCENARIO_SCRIPT)) as { runSeedScenarios: (options: ScenarioOptions) => Promise<ScenarioReport> }).runSeedScenarios(options);

interface Exchange {
  method: string;
  template: string;
  status: number;
  body: unknown;
}

type Document = ReturnType<typeof openApiDocument>;
type OperationDoc = { operationId?: string; responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }> };

/** The named schema of an operation's success answer: its JSON body's, or each event's data for an event stream. */
function successRef(content: Record<string, { schema: unknown }> | undefined): string {
  const json = content?.["application/json"]?.schema as { $ref?: string } | undefined;
  const events = content?.["text/event-stream"]?.schema as { "x-event-data"?: { $ref?: string } } | undefined;
  return json?.$ref ?? events?.["x-event-data"]?.$ref ?? "";
}

function operationOf(doc: Document, template: string, method: string): OperationDoc {
  const op = (doc.paths[template] as Record<string, OperationDoc> | undefined)?.[method.toLowerCase()];
  if (!op) throw new Error(`the document has no ${method} ${template}`);
  return op;
}

/** The `$ref` of the JSON body schema the document gives for this answer. */
function schemaRefFor(doc: Document, exchange: Exchange): string {
  const responses = operationOf(doc, exchange.template, exchange.method).responses;
  const response = responses[String(exchange.status)];
  if (!response) throw new Error(`${exchange.method} ${exchange.template} answered ${exchange.status}, which the document does not list`);
  if (response.$ref) return "#/components/schemas/Error";
  const schema = response.content?.["application/json"]?.schema as { $ref?: string } | undefined;
  if (!schema?.$ref) throw new Error(`${exchange.method} ${exchange.template} ${exchange.status} has no named schema`);
  return schema.$ref;
}

describe("the OpenAPI document as the API's contract", () => {
  let h: ApiHarness;
  let server: RouteServer;
  const exchanges: Exchange[] = [];

  /** fetch that records every exchange (method, matched path template, status, JSON body). */
  const recordingFetch: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    const template = matchRoute(new URL(request.url).pathname)?.template ?? new URL(request.url).pathname;
    // An event stream is checked event by event by its reader; a 204 has no body.
    const streamed = response.headers.get("content-type")?.startsWith("text/event-stream") ?? false;
    const body = streamed || response.status === 204 ? null : await response.clone().json();
    exchanges.push({ method: request.method, template, status: response.status, body });
    return response;
  };

  beforeAll(async () => {
    h = await openApiHarness(`contract${Date.now().toString(36)}`);
    server = await startRouteServer();
  });
  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  it("names every operation (unique operationIds) and types every success answer with a named schema", async () => {
    const doc = (await (await fetch(`${server.baseUrl}/api/v1/openapi.json`)).json()) as Document;
    const ids: string[] = [];
    for (const [template, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item as Record<string, OperationDoc>)) {
        expect(op.operationId, `${method} ${template}`).toMatch(/^[a-z][A-Za-z]+$/);
        ids.push(op.operationId ?? "");
        const success = Object.entries(op.responses).filter(([status]) => status.startsWith("2"));
        expect(success, `${method} ${template}`).toHaveLength(1);
        // A 204 answers nothing: no schema to name.
        if (success[0]?.[0] === "204") {
          expect(success[0][1].content, `${method} ${template} 204`).toBeUndefined();
          continue;
        }
        const ref = successRef(success[0]?.[1].content);
        const name = ref.replace("#/components/schemas/", "");
        expect((doc.components.schemas as Record<string, { type?: string; properties?: object }>)[name]?.type, `${method} ${template} → ${ref}`).toBe("object");
        expect(matchRoute(template.replace(/\{[^}]+\}/g, "x"))?.template, `a route serves ${template}`).toBe(template);
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(API_OPERATIONS.map((op) => op.operationId).sort());
  });

  it("passes Redocly's recommended lint rules with no error and no warning", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(openApiDocument()), absoluteRef: "/api/v1/openapi.json", config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? "?"}`)).toEqual([]);
  });

  it("the seeds' scenarios, driven by the generated client over HTTP, answer exactly what the document says", async () => {
    const report = await runSeedScenarios({ baseUrl: server.baseUrl, scope: h.scopes.home, editorToken: h.tokens.editor, reviewerToken: h.tokens.owner, fetch: recordingFetch });
    expect(report.recallMode).toBe("contested");
    expect(report.frozenTopic).toBe("database-backups");
    expect(report.retractionTouched.map((t) => t.id)).toEqual(expect.arrayContaining([report.beliefs.leftpad, report.beliefs.leftpadRemoval]));

    // Answers the scenarios do not reach: errors of several kinds, a viewer's scope list, the synthesis pair endpoints.
    const viewer = { authorization: `Bearer ${h.tokens.viewer}` };
    const base = `${server.baseUrl}/api/v1/scopes/${h.scopes.home}`;
    await recordingFetch(`${server.baseUrl}/api/v1/scopes`, { headers: viewer });
    await recordingFetch(`${base}/assimilate`, { method: "POST", headers: { ...viewer, "content-type": "application/json" }, body: JSON.stringify({ claim: "Viewers cannot write.", evidence: [{ tier: "observation" }] }) });
    await recordingFetch(`${base}/recall`, { headers: viewer });
    await recordingFetch(`${base}/beliefs/b_missing`, { headers: viewer });
    const overview = (await (await recordingFetch(`${base}/graph/overview?notable=5`, { headers: viewer })).json()) as { topics: { topic: string }[] };
    await recordingFetch(`${base}/graph/expand?topic=${encodeURIComponent(overview.topics[0]?.topic ?? "none")}&limit=2`, { headers: viewer });
    await recordingFetch(`${base}/graph/expand?belief=${encodeURIComponent(report.beliefs.deployMain ?? "none")}&depth=2`, { headers: viewer });
    await recordingFetch(`${base}/graph/expand?topic=x&belief=y`, { headers: viewer });
    await recordingFetch(`${base}/syntheses`, { method: "POST", headers: { authorization: `Bearer ${h.tokens.editor}`, "content-type": "application/json" }, body: JSON.stringify({ beliefIds: [report.beliefs.deployMain, report.beliefs.deployRelease] }) });
    await recordingFetch(`${base}/syntheses/dismissals`, { method: "POST", headers: { authorization: `Bearer ${h.tokens.editor}`, "content-type": "application/json" }, body: JSON.stringify({ beliefIds: ["a", "b", "c"] }) });
    await recordingFetch(`${base}/evidence`, { method: "POST", headers: { authorization: `Bearer ${h.tokens.editor}`, "content-type": "application/json" }, body: "{not json" });
    // An undecided reading on a belief (what an ingest the reader cannot decide leaves), listed and decided over HTTP.
    const scopeId = (await h.db.prisma.scope.findUniqueOrThrow({ where: { slug: h.scopes.home } })).id;
    const store = await getGraphStore();
    const record = await store.loadBelief({ homeScopeId: scopeId, visibleScopeIds: [scopeId] }, report.beliefs.deployMain ?? "");
    if (!record) throw new Error("the scenarios' deploy belief is missing");
    const now = new Date().toISOString();
    const reading = undecidedItem({ sourceId: record.history.find((i) => i.type === "entry")?.sourceId ?? "x", sourceKind: "evidence", guess: "REBUTS", confidence: 0.4, weight: 0.6, tier: "observation", verified: true, effectiveTier: "observation", ess: 0.8, reasoning: "unclear", assessor: "test", time: now, actor: "test", changeSet: "cs-undecided" });
    const written = writeBelief(record, [reading], defaultParams, now, false);
    await store.apply({ ...emptyChangeSet("cs-undecided", "test", now), beliefs: [written.upsert], history: [written.append], entryOutputs: written.outputs });
    await recordingFetch(`${base}/readings`, { headers: viewer });
    const decision = { decision: "UNRELATED", reason: "not about the branch" };
    const seq = written.append.items[0]?.seq ?? 0;
    await recordingFetch(`${base}/beliefs/${report.beliefs.deployMain}/readings/${seq}/decision`, { method: "POST", headers: { authorization: `Bearer ${h.tokens.editor}`, "content-type": "application/json" }, body: JSON.stringify(decision) });
    await recordingFetch(`${base}/beliefs/${report.beliefs.deployMain}/readings/${seq}/decision`, { method: "POST", headers: { authorization: `Bearer ${h.tokens.editor}`, "content-type": "application/json" }, body: JSON.stringify(decision) });
    // A relation corrected and undone over HTTP, and one refused with its fields named.
    const corrected = record.history.find((i) => i.type === "entry" && i.sourceKind === "evidence");
    const relationUrl = `${base}/evidence/${encodeURIComponent(corrected?.type === "entry" ? (corrected.sourceId ?? "x") : "x")}/relation`;
    const editorJson = { authorization: `Bearer ${h.tokens.editor}`, "content-type": "application/json" };
    const fixed = (await (await recordingFetch(relationUrl, { method: "POST", headers: editorJson, body: JSON.stringify({ beliefId: report.beliefs.deployMain, relation: "UNRELATED", reason: "not about the branch" }) })).json()) as { correction: { from: string } };
    await recordingFetch(relationUrl, { method: "POST", headers: editorJson, body: JSON.stringify({ beliefId: report.beliefs.deployMain, relation: fixed.correction.from, reason: "undo" }) });
    await recordingFetch(relationUrl, { method: "POST", headers: editorJson, body: JSON.stringify({ beliefId: report.beliefs.deployMain, relation: "MAYBE" }) });
    // The scenarios' approved supersede, undone over HTTP and approved again.
    const reviewerJson = { authorization: `Bearer ${h.tokens.owner}`, "content-type": "application/json" };
    const journal = (await (await recordingFetch(`${base}/mutations?status=approved`, { headers: viewer })).json()) as { mutations: { id: string; review: { resolution?: string } | null }[] };
    const superseding = journal.mutations.find((m) => m.review?.resolution === "supersede");
    if (!superseding) throw new Error("the scenarios approve no supersede");
    const undone = await recordingFetch(`${base}/mutations/${superseding.id}/undo`, { method: "POST", headers: reviewerJson, body: JSON.stringify({ note: "Approved too early." }) });
    expect(undone.status).toBe(200);
    await recordingFetch(`${base}/mutations/${superseding.id}/decision`, { method: "POST", headers: reviewerJson, body: JSON.stringify({ decision: "approve", resolution: "supersede", note: "Checked again." }) });

    const doc = openApiDocument();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc, "openapi.json");
    const failures: string[] = [];
    const statuses = new Set<number>();
    for (const exchange of exchanges) {
      statuses.add(exchange.status);
      if (exchange.body === null) continue;
      const validate = ajv.getSchema(`openapi.json${schemaRefFor(doc, exchange)}`);
      if (!validate) throw new Error(`no schema ${schemaRefFor(doc, exchange)}`);
      if (!validate(exchange.body)) failures.push(`${exchange.method} ${exchange.template} ${exchange.status}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(failures).toEqual([]);
    // The validator is not vacuous: a body missing the belief's history, or with a retraction item without `id`, fails.
    const assimilated = exchanges.find((e) => e.template.endsWith("/assimilate") && e.status === 200)?.body as { belief: Record<string, unknown> };
    const { history: _dropped, ...withoutHistory } = assimilated.belief;
    expect(ajv.getSchema("openapi.json#/components/schemas/AssimilateResult")?.({ ...assimilated, belief: withoutHistory })).toBe(false);
    expect(ajv.getSchema("openapi.json#/components/schemas/RetractResult")?.({ sourceId: "s", dryRun: true, changeSetId: null, touched: [{ beliefId: "b", retractedSeqs: [1], strippedSeqs: [] }] })).toBe(false);
    // Every operation answered at least once with its success status, and errors of each kind were checked too.
    const succeeded = new Set(
      exchanges.filter((e) => e.status < 300).map((e) => operationOf(doc, e.template, e.method).operationId),
    );
    // (No synthesis candidate arises in the scenarios: its two POSTs are checked with their error answers.)
    const unanswered = API_OPERATIONS.map((op) => op.operationId).filter((id) => !succeeded.has(id) && id !== "acceptSynthesis" && id !== "dismissSynthesis");
    expect(unanswered).toEqual([]);
    expect([...statuses].filter((s) => s >= 400).sort()).toEqual(expect.arrayContaining([400, 403, 404, 409, 422]));
  }, 600_000);

  it("a presenter refuses a body that does not fit its schema as our bug (500), never as the caller's 422", async () => {
    const { presentRecall, ResponseShapeError } = await import("./present");
    const broken = { mode: "settled", question: "q" } as unknown as Parameters<typeof presentRecall>[0];
    expect(() => presentRecall(broken)).toThrow(ResponseShapeError);
    const { handleApiError } = await import("./api-error");
    const { createLogger, setLogger } = await import("@/lib/ops/logger");
    const { Writable } = await import("node:stream");
    const logged: { msg?: string; err?: { type?: string; message?: string } }[] = [];
    setLogger(createLogger(new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString("utf8").split("\n").filter(Boolean)) logged.push(JSON.parse(line) as (typeof logged)[number]);
        done();
      },
    })));
    let status = 0;
    try {
      presentRecall(broken);
    } catch (error) {
      status = handleApiError(error).status;
    } finally {
      setLogger(undefined);
    }
    expect(status).toBe(500);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ msg: "api: unhandled error", err: { type: "ResponseShapeError" } });
    expect(logged[0]!.err!.message).toContain("does not fit RecallAnswer");
  });
});
