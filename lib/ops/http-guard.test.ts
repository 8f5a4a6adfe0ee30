/**
 * The custom server's guard and the unmatched-path answer, over a real HTTP server: a broken
 * percent-encoding under /api/ is a JSON 400 in the API's error shape, never reaching the fallback handler; good paths
 * and pages pass through; an unmatched /api/v1 path answers the JSON 404 (the catch-all route's handler).
 */
import { createServer, type Server } from "node:http";
import { connect as netConnect, type AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as unmatched from "@/app/api/v1/[...unmatched]/route";
import { Agent, request } from "node:http";
import { allowedMethods } from "@/lib/api/openapi";
import { answerClientError, answerConnect, decodablePath, guardApiRequest, keepConnectionsAlive } from "./http-guard";

/** One request with any method and target (fetch refuses TRACE), answered as status, Allow and body. */
function raw(base: string, method: string, target: string) {
  return new Promise<{ status: number; allow: string | undefined; type: string | undefined; body: string }>((resolve, reject) => {
    const url = new URL(base);
    const req = request({ host: url.hostname, port: url.port, method, path: target }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, type: res.headers["content-type"], body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("http guard", () => {
  let server: Server;
  let base: string;
  const reached: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (guardApiRequest(req, res, { restMethods: allowedMethods })) return;
      reached.push(req.url ?? "");
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("next");
    });
    server.on("clientError", answerClientError);
    server.on("connect", answerConnect);
    keepConnectionsAlive(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each(["/api/v1/scopes/%zz/beliefs", "/api/v1/scopes/%/beliefs", "/api/v1/scopes/%E0%A4%A/beliefs?q=x", "/api/mcp/%ff%"])("%s → JSON 400 malformed_path", async (path) => {
    const response = await fetch(`${base}${path}`);
    expect(response.status).toBe(400);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({ error: { code: "malformed_path", message: expect.any(String), details: {} } });
    expect(reached).not.toContain(path);
  });

  it("a method no route serves is a JSON 405 with Allow, before anything else runs", async () => {
    const cases: [string, string, string][] = [
      ["TRACE", "/", "GET, HEAD, POST"],
      ["TRACE", "/api/v1/scopes", "GET, HEAD, POST"],
      ["PUT", "/api/v1/scopes/home/evidence", "POST"],
      ["DELETE", "/api/v1/scopes/home/recall?q=x", "GET, HEAD"],
      ["PATCH", "/api/v1/scopes/home/members", "GET, HEAD, POST"],
      ["POST", "/api/v1/openapi.json", "GET, HEAD"],
      ["PUT", "/api/mcp", "DELETE, GET, HEAD, POST"],
      ["PROPFIND", "/api/health/live", "GET, HEAD"],
    ];
    for (const [method, target, allow] of cases) {
      const answer = await raw(base, method, target);
      expect(answer.status, `${method} ${target}`).toBe(405);
      expect(answer.allow).toBe(allow);
      expect(answer.type).toBe("application/json");
      expect(JSON.parse(answer.body)).toEqual({ error: { code: "method_not_allowed", message: expect.any(String), details: { method, allow: allow.split(", ") } } });
    }
    expect(reached).toEqual([]);
    // CONNECT never reaches a request handler in Node: its own event answers the same JSON 405.
    const connectAnswer = await new Promise<string>((resolve, reject) => {
      const url = new URL(base);
      const socket = netConnect(Number(url.port), url.hostname, () => socket.write("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n"));
      let text = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (text += chunk));
      socket.on("end", () => resolve(text));
      socket.on("error", reject);
    });
    expect(connectAnswer).toMatch(/^HTTP\/1\.1 405 /);
    expect(connectAnswer).toMatch(/\r\nallow: GET, HEAD, POST\r\n/);
    expect(JSON.parse(connectAnswer.split("\r\n\r\n")[1] ?? "")).toMatchObject({ error: { code: "method_not_allowed" } });
    // Served methods pass: PATCH on a member, DELETE on a grant, OPTIONS anywhere, PUT on a path no route has (its 404).
    for (const [method, target] of [["PATCH", "/api/v1/scopes/home/members/u1"], ["DELETE", "/api/v1/scopes/home/grants/other"], ["OPTIONS", "/api/v1/scopes"], ["PUT", "/api/v1/nothing"]]) {
      expect((await raw(base, method as string, target as string)).status, `${method} ${target}`).toBe(200);
    }
    reached.length = 0;
  });

  it("a request head past the size limit (a 100 kB query string) is a JSON 431", async () => {
    const answer = await raw(base, "GET", `/api/v1/scopes/home/recall?q=${"a".repeat(100_000)}`);
    expect(answer.status).toBe(431);
    expect(answer.type).toBe("application/json");
    expect(JSON.parse(answer.body)).toEqual({ error: { code: "headers_too_large", message: expect.any(String), details: {} } });
  });

  it("lets well-formed API paths and every page through", async () => {
    for (const path of ["/api/v1/scopes/a%20b/beliefs", "/scopes/%zz", "/api/v1/scopes/x/beliefs?q=%zz"]) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(200);
    }
    expect(decodablePath("/api/v1/scopes/%E2%9C%93/beliefs")).toBe(true);
  });

  it("an unmatched /api/v1 path answers the API's JSON 404 for every method", async () => {
    for (const handler of [unmatched.GET, unmatched.POST, unmatched.DELETE]) {
      const response = handler(new Request("http://localhost/api/v1/nothing/here", { method: "GET" }));
      expect(response.status).toBe(404);
      const body = (await response.json()) as { error: { code: string; details: { path: string } } };
      expect(body.error.code).toBe("not_found");
      expect(body.error.details.path).toBe("/api/v1/nothing/here");
    }
  });

  it("keeps an idle connection open past Node's 5 s default, so a client reusing it is answered, not reset", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; reused: boolean }>((resolve, reject) => {
        const url = new URL(base);
        const req = request({ host: url.hostname, port: url.port, path: "/signin", agent }, (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, reused: req.reusedSocket }));
        });
        req.on("error", reject);
        req.end();
      });
    try {
      expect(await get()).toEqual({ status: 200, reused: false });
      await new Promise((resolve) => setTimeout(resolve, 6_000));
      expect(await get()).toEqual({ status: 200, reused: true });
    } finally {
      agent.destroy();
    }
  }, 20_000);
});
