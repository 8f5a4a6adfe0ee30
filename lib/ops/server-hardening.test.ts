/**
 * The production server (`bin/serve.ts`, the `.next` build) under odd methods, oversized request heads, cookie
 * writes from other origins, a port it cannot bind and output nobody reads any more. Needs `npx next build` first (a missing build fails, never skips).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { execFileSync, spawn } from "node:child_process";
import { request as httpRequest } from "node:http";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { readLiveLock } from "@/lib/db/data-folder-lock";
import { freshEmbeddedFolder } from "@/lib/db/testing/test-backends";
import { runScript } from "@/lib/db/spawn-script";
import { freePort, startAppServer, type AppServer } from "@/lib/testing/app-server";
import { compiledScript } from "./compiled-script";

type ErrorBody = { error: { code: string; message: string; details: Record<string, unknown> } };

/**
 * One raw HTTP request (any method, any target length), answered as status, headers and text. A body is framed with
 * its Content-Length: Node sends a DELETE's body unframed, and the server would rightly read those bytes as the start
 * of the next request on the kept-alive socket.
 */
function raw(baseUrl: string, method: string, target: string, headers: Record<string, string> = {}, body?: string) {
  const url = new URL(baseUrl);
  const framed = body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) };
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path: target, headers: framed }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("the production server under hostile requests", () => {
  let server: AppServer;
  const id = randomBytes(3).toString("hex");
  const home = `hard-${id}`;
  const email = `cookie-${id}@server.test`;
  const password = `pw-${id}-secret`;

  beforeAll(async () => {
    server = await startAppServer();
    await server.operator(async (ops, operator) => {
      await ops.createUser(operator, { email, password, name: "Cookie" });
      await ops.createScope(operator, { slug: home, name: "Hardening", ownerEmail: email, isPublic: false });
    });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("TRACE on any path is a JSON 405 with Allow", async () => {
    for (const [target, allow] of [
      ["/", "GET, HEAD, POST"],
      ["/api/v1/scopes", "GET, HEAD, POST"],
      [`/api/v1/scopes/${home}/recall?q=x`, "GET, HEAD"],
    ] as const) {
      const response = await raw(server.baseUrl, "TRACE", target);
      expect(response.status, target).toBe(405);
      expect(response.headers.allow).toBe(allow);
      expect(response.headers["content-type"]).toMatch(/application\/json/);
      expect((JSON.parse(response.text) as ErrorBody).error.code).toBe("method_not_allowed");
    }
  });

  it("PUT, DELETE and PATCH on a POST-only route are a JSON 405 naming POST", async () => {
    for (const method of ["PUT", "DELETE", "PATCH"]) {
      const response = await raw(server.baseUrl, method, `/api/v1/scopes/${home}/evidence`, { "content-type": "application/json" }, "{}");
      expect(response.status, method).toBe(405);
      expect(response.headers.allow).toBe("POST");
      const body = JSON.parse(response.text) as ErrorBody;
      expect(body.error.code).toBe("method_not_allowed");
      expect(body.error.details.allow).toEqual(["POST"]);
    }
    // A path no route has stays a JSON 404, whatever the method.
    const missing = await raw(server.baseUrl, "PUT", "/api/v1/nothing-here");
    expect(missing.status).toBe(404);
    expect((JSON.parse(missing.text) as ErrorBody).error.code).toBe("not_found");
  });

  it("a 100 kB query string is a JSON 431", async () => {
    const response = await raw(server.baseUrl, "GET", `/api/v1/scopes/${home}/recall?q=${"a".repeat(100_000)}`);
    expect(response.status).toBe(431);
    expect(response.headers["content-type"]).toMatch(/application\/json/);
    expect((JSON.parse(response.text) as ErrorBody).error.code).toBe("headers_too_large");
  });

  it("a cookie session's writes land only from the same origin, as JSON", async () => {
    // Sign in as a browser does: the CSRF cookie and token, then the credentials form.
    const csrf = await fetch(`${server.baseUrl}/api/auth/csrf`);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const csrfCookie = csrf.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    const signIn = await fetch(`${server.baseUrl}/api/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: new URLSearchParams({ csrfToken, email, password }).toString(),
    });
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0] ?? "")
      .filter((c) => c.includes("session-token"))
      .join("; ");
    expect(cookie).not.toBe("");
    const host = new URL(server.baseUrl).host;
    const write = (headers: Record<string, string>, body = JSON.stringify({ kind: "observation", text: `Cookie write ${randomBytes(4).toString("hex")}.`, assess: false })) =>
      fetch(`${server.baseUrl}/api/v1/scopes/${home}/evidence`, { method: "POST", headers: { cookie, ...headers }, body });

    const otherPort = await write({ origin: `http://${new URL(server.baseUrl).hostname}:1`, "content-type": "application/json" });
    expect(otherPort.status).toBe(403);
    const foreign = await write({ origin: "https://elsewhere.example", "content-type": "text/plain" });
    expect(foreign.status).toBe(403);
    const form = await write({ origin: `http://${host}`, "content-type": "application/x-www-form-urlencoded" }, "kind=observation&text=hello");
    expect(form.status).toBe(415);
    const listed = await fetch(`${server.baseUrl}/api/v1/scopes/${home}/beliefs?liveOnly=false`, { headers: { cookie } });
    expect(listed.status).toBe(200);
    const same = await write({ origin: `http://${host}`, "content-type": "application/json" });
    expect(same.status).toBe(201);
  });
});

describe("a server that cannot bind its port", () => {
  it("exits non-zero with a one-line reason and releases the data folder", async () => {
    const first = await startAppServer();
    const dataDir = await freshEmbeddedFolder();
    try {
      const result = await runScript(path.join("bin", "serve.ts"), ["--port", String(first.port)], { NODE_ENV: "production", CREDENCE_DATA_DIR: dataDir, DATABASE_URL: "" });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/credence: port \d+ on 127\.0\.0\.1 is already in use/);
      expect(result.stdout).not.toMatch(/serving on/);
      expect(await readLiveLock(dataDir)).toBeNull();
    } finally {
      await first.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});

describe("a server whose output is no longer read", () => {
  it("keeps serving, and a SIGTERM still ends it cleanly", async () => {
    const dataDir = await freshEmbeddedFolder();
    const port = await freePort();
    const baseUrl = `http://127.0.0.1:${port}`;
    const statusFile = path.join(dataDir, "exit-status");
    // Its stdout and stderr go into a pipe whose reader (head) leaves after the first byte: every later write (the
    // rest of the start-up lines, request logs, the shutdown's lines) fails with EPIPE, as when a log collector stops.
    // The shell records the server's exit status.
    const script = compiledScript(path.join("bin", "serve.ts"));
    const shell = spawn("bash", ["-c", `"${process.execPath}" "${script}" --port ${port} 2>&1 | head -c 1 > /dev/null; echo "\${PIPESTATUS[0]}" > "${statusFile}"`], {
      env: { ...process.env, NODE_ENV: "production", CREDENCE_DATA_DIR: dataDir, DATABASE_URL: "" },
      stdio: "ignore",
      detached: true,
    });
    const pause = () => new Promise((resolve) => setTimeout(resolve, 250));
    const exitStatus = () => readFile(statusFile, "utf8").then((text) => text.trim(), () => null);
    try {
      let serving = false;
      // Unfixed, the server spins on its failed writes and never answers: give up after two minutes.
      const giveUp = Date.now() + 120_000;
      while (!serving && (await exitStatus()) === null && Date.now() < giveUp) {
        serving = (await fetch(`${baseUrl}/signin`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status, () => 0)) === 200;
        if (!serving) await pause();
      }
      expect(serving, `the server is not serving (exit status ${await exitStatus()})`).toBe(true);
      // Requests that log, their lines going nowhere; the server still answers the next one.
      for (let i = 0; i < 3; i++) expect((await fetch(`${baseUrl}/api/v1/no-such-route`, { signal: AbortSignal.timeout(10_000) })).status).toBe(404);
      expect((await fetch(`${baseUrl}/signin`, { signal: AbortSignal.timeout(10_000) })).status).toBe(200);
      process.kill(Number(execFileSync("pgrep", ["-f", "-n", `${script} --port ${port}`], { encoding: "utf8" }).trim()), "SIGTERM");
      // The shutdown's own log lines fail to write as well; the server must still drain and exit 0 (else this times out).
      let status: string | null;
      while ((status = await exitStatus()) === null) await pause();
      expect(status).toBe("0");
    } finally {
      if (shell.pid !== undefined) {
        try {
          process.kill(-shell.pid, "SIGKILL");
        } catch {
          // already gone
        }
      }
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
