/**
 * A real HTTP server (node:http on 127.0.0.1, an ephemeral port) in front of the `/api/v1` route handlers, for tests
 * that drive the API as a client would (a generated client, the contract test) without a production build. Each
 * request is matched against the OpenAPI document's path templates and handed to the route's handler as a Fetch
 * `Request`, exactly as Next would; the `Response` is written back as is. Use beside `openApiHarness` (its database).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import * as openApiRoute from "@/app/api/v1/openapi.json/route";
import * as scopesRoute from "@/app/api/v1/scopes/route";
import * as assimilateRoute from "@/app/api/v1/scopes/[scope]/assimilate/route";
import * as beliefRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/route";
import * as replayRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/replay/route";
import * as revisionsRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/revisions/route";
import * as readingDecisionRoute from "@/app/api/v1/scopes/[scope]/beliefs/[id]/readings/[seq]/decision/route";
import * as readingsRoute from "@/app/api/v1/scopes/[scope]/readings/route";
import * as beliefsRoute from "@/app/api/v1/scopes/[scope]/beliefs/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as evidenceRelationRoute from "@/app/api/v1/scopes/[scope]/evidence/[id]/relation/route";
import * as graphRoute from "@/app/api/v1/scopes/[scope]/graph/route";
import * as graphOverviewRoute from "@/app/api/v1/scopes/[scope]/graph/overview/route";
import * as graphExpandRoute from "@/app/api/v1/scopes/[scope]/graph/expand/route";
import * as harvestRoute from "@/app/api/v1/scopes/[scope]/harvest/route";
import * as ingestRoute from "@/app/api/v1/scopes/[scope]/ingest/route";
import * as decisionRoute from "@/app/api/v1/scopes/[scope]/mutations/[id]/decision/route";
import * as undoReviewRoute from "@/app/api/v1/scopes/[scope]/mutations/[id]/undo/route";
import * as mutationsRoute from "@/app/api/v1/scopes/[scope]/mutations/route";
import * as recallRoute from "@/app/api/v1/scopes/[scope]/recall/route";
import * as retractionsRoute from "@/app/api/v1/scopes/[scope]/retractions/route";
import * as dismissalsRoute from "@/app/api/v1/scopes/[scope]/syntheses/dismissals/route";
import * as synthesesRoute from "@/app/api/v1/scopes/[scope]/syntheses/route";
import * as unfreezeRoute from "@/app/api/v1/scopes/[scope]/topics/[topic]/unfreeze/route";
import * as membersRoute from "@/app/api/v1/scopes/[scope]/members/route";
import * as memberRoute from "@/app/api/v1/scopes/[scope]/members/[userId]/route";
import * as grantsRoute from "@/app/api/v1/scopes/[scope]/grants/route";
import * as grantRoute from "@/app/api/v1/scopes/[scope]/grants/[toScope]/route";
import * as jobsRoute from "@/app/api/v1/jobs/route";
import * as jobRoute from "@/app/api/v1/jobs/[id]/route";
import * as jobEventsRoute from "@/app/api/v1/jobs/[id]/events/route";

type RouteHandler = (request: Request, route: { params: Promise<Record<string, string>> }) => Promise<Response>;
type RouteModule = Partial<Record<"GET" | "POST" | "PATCH" | "DELETE", RouteHandler>>;

/** Path template (as in the OpenAPI document) → the route module Next would serve it from. */
export const ROUTE_MODULES: Readonly<Record<string, RouteModule>> = {
  "/api/v1/scopes": scopesRoute,
  "/api/v1/scopes/{scope}/evidence": evidenceRoute,
  "/api/v1/scopes/{scope}/evidence/{id}/relation": evidenceRelationRoute,
  "/api/v1/scopes/{scope}/assimilate": assimilateRoute,
  "/api/v1/scopes/{scope}/harvest": harvestRoute,
  "/api/v1/scopes/{scope}/ingest": ingestRoute,
  "/api/v1/scopes/{scope}/retractions": retractionsRoute,
  "/api/v1/scopes/{scope}/beliefs": beliefsRoute,
  "/api/v1/scopes/{scope}/beliefs/{id}": beliefRoute,
  "/api/v1/scopes/{scope}/beliefs/{id}/revisions": revisionsRoute,
  "/api/v1/scopes/{scope}/beliefs/{id}/readings/{seq}/decision": readingDecisionRoute,
  "/api/v1/scopes/{scope}/readings": readingsRoute,
  "/api/v1/scopes/{scope}/beliefs/{id}/replay": replayRoute,
  "/api/v1/scopes/{scope}/recall": recallRoute,
  "/api/v1/scopes/{scope}/mutations": mutationsRoute,
  "/api/v1/scopes/{scope}/mutations/{id}/decision": decisionRoute,
  "/api/v1/scopes/{scope}/mutations/{id}/undo": undoReviewRoute,
  "/api/v1/scopes/{scope}/topics/{topic}/unfreeze": unfreezeRoute,
  "/api/v1/scopes/{scope}/syntheses": synthesesRoute,
  "/api/v1/scopes/{scope}/syntheses/dismissals": dismissalsRoute,
  "/api/v1/scopes/{scope}/graph": graphRoute,
  "/api/v1/scopes/{scope}/graph/overview": graphOverviewRoute,
  "/api/v1/scopes/{scope}/graph/expand": graphExpandRoute,
  "/api/v1/scopes/{scope}/members": membersRoute,
  "/api/v1/scopes/{scope}/members/{userId}": memberRoute,
  "/api/v1/scopes/{scope}/grants": grantsRoute,
  "/api/v1/scopes/{scope}/grants/{toScope}": grantRoute,
  "/api/v1/jobs": jobsRoute,
  "/api/v1/jobs/{id}": jobRoute,
  "/api/v1/jobs/{id}/events": jobEventsRoute,
};

const OPENAPI_PATH = "/api/v1/openapi.json";

interface CompiledRoute {
  template: string;
  pattern: RegExp;
  names: string[];
  module: RouteModule;
}

const COMPILED: CompiledRoute[] = Object.entries(ROUTE_MODULES).map(([template, module]) => {
  const names: string[] = [];
  const source = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { template, pattern: new RegExp(`^${source}$`), names, module };
});

/** The template and raw (still percent-encoded) path parameters a pathname matches, or null. */
export function matchRoute(pathname: string): { template: string; params: Record<string, string>; module: RouteModule } | null {
  for (const route of COMPILED) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    return { template: route.template, params: Object.fromEntries(route.names.map((name, i) => [name, match[i + 1] ?? ""])), module: route.module };
  }
  return null;
}

async function readAll(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function dispatch(incoming: IncomingMessage, baseUrl: string): Promise<Response> {
  const url = new URL(incoming.url ?? "/", baseUrl);
  const method = (incoming.method ?? "GET").toUpperCase();
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const body = method === "GET" || method === "HEAD" ? undefined : await readAll(incoming);
  const request = new Request(url, { method, headers, ...(body && body.length > 0 ? { body: new Uint8Array(body) } : {}) });
  if (url.pathname === OPENAPI_PATH && method === "GET") return openApiRoute.GET();
  const route = matchRoute(url.pathname);
  if (!route) return Response.json({ error: { code: "not_found", message: `no route ${url.pathname}`, details: {} } }, { status: 404 });
  const handler = route.module[method as keyof RouteModule];
  if (!handler) return Response.json({ error: { code: "method_not_allowed", message: `${method} is not allowed here`, details: {} } }, { status: 405 });
  return handler(request, { params: Promise.resolve(route.params) });
}

/** Writes the answer as it comes (an event stream included); a client that goes away cancels the body. */
async function write(response: Response, out: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => (headers[name] = value));
  out.writeHead(response.status, headers);
  if (!response.body) {
    out.end();
    return;
  }
  const reader = response.body.getReader();
  out.on("close", () => void reader.cancel().catch(() => {}));
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
    if (done) break;
    out.write(Buffer.from(value));
  }
  out.end();
}

export interface RouteServer {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1 with a port the OS picks. */
export async function startRouteServer(): Promise<RouteServer> {
  let baseUrl = "";
  const server: Server = createServer((incoming, out) => {
    dispatch(incoming, baseUrl)
      .then((response) => write(response, out))
      .catch((error: unknown) => {
        console.error("route-server: dispatch failed", error);
        if (!out.headersSent) out.writeHead(500, { "content-type": "application/json" });
        out.end(JSON.stringify({ error: { code: "internal", message: "route server failure", details: {} } }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
