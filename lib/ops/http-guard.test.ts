/**
 * The custom server's guard and the unmatched-path answer, over a real HTTP server: a broken
 * percent-encoding under /api/ is a JSON 400 in the API's error shape, never reaching the fallback handler; good paths
 * and pages pass through; an unmatched /api/v1 path answers the JSON 404 (the catch-all route's handler).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as unmatched from "@/app/api/v1/[...unmatched]/route";
import { decodablePath, guardApiRequest } from "./http-guard";

describe("http guard", () => {
  let server: Server;
  let base: string;
  const reached: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (guardApiRequest(req, res)) return;
      reached.push(req.url ?? "");
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("next");
    });
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
});
