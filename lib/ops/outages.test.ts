/**
 * Outages of the parts a real server (`bin/serve.ts`, the production build) depends on, each through
 * HTTP: the LLM endpoint (a real local HTTP server speaking the OpenAI API) hangs, answers 429 or 500, answers
 * something that is not JSON or JSON of the wrong shape; Redis (the shared rate limiter) is killed and started again;
 * Neo4j (the graph store) stops answering and comes back, and stops outright and starts again on the same data. Each answer is a clean error in the documented shape within
 * a bounded time, nothing acknowledged is lost, and the same server process recovers without a restart.
 * (The database's own outage — stop, freeze, recover — is lib/db/database-outage.test.ts.)
 *
 * Needs `npx next build`, redis-server, Java + Maven (a Neo4j of the test's own: freezing the shared one would stall
 * other suites); any of them missing fails, never skips.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { chatCompletion, startFakeOpenAiServer, type FakeOpenAiServer, type Reply } from "@/lib/assess/openai/testing/fake-openai-server";
import { openDatabase } from "@/lib/db/database";
import { freshEmbeddedFolder } from "@/lib/db/testing/test-backends";
import { freePort, startAppServer, type AppServer } from "@/lib/testing/app-server";
import { startNeo4jServer, type Neo4jTestServer } from "@/lib/testing/neo4j-server";
import { callApi, errorCode, makeFixtures, summaryLine, until, type Answer, type Fixtures } from "@/lib/testing/reliability";

const RATE_LIMIT = 30;
const LLM_TIMEOUT_MS = 1_500;
/**
 * A hung request must end well within this (the fetch gives up here and the test fails). Generous: it separates
 * "ends" from "hangs for ever", and a shared 2-core machine at load 20 needed more than 60 s.
 */
const BOUND_MS = 120_000;

describe("outages through a real server: LLM, Redis, Neo4j", () => {
  let llm: FakeOpenAiServer;
  let neo4j: Neo4jTestServer;
  let neo4jPort: number;
  let neo4jDir: string;
  let redis: ChildProcess | undefined;
  let redisPort: number;
  let server: AppServer;
  let fx: Fixtures;
  let dataDir: string;
  // Letters only: the claims below tell runners and builders apart by their number, and a tag with digits in it
  // ("3f9a01") could state that number too, so both claims would state the same values and read as one claim.
  const suffix = [...randomBytes(6)].map((b) => String.fromCharCode(97 + (b % 26))).join("");
  const figures = { requests: 0, cleanErrors: 0, lostWrites: 0, slowestErrorMs: 0 };
  const families: string[] = [];

  const startRedis = async () => {
    if (!existsSync("/usr/bin/redis-server")) throw new Error("redis-server is missing (apt-get install redis-server): the outage test needs its own Redis.");
    const child = spawn("/usr/bin/redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" });
    // A worker that dies without afterAll must not leave its Redis behind.
    const killOnExit = () => child.kill("SIGKILL");
    process.once("exit", killOnExit);
    child.once("exit", () => process.removeListener("exit", killOnExit));
    redis = child;
    await until("redis to answer", async () => {
      const client = new Redis({ port: redisPort, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      try {
        await client.connect();
        return (await client.ping()) === "PONG" ? true : undefined;
      } catch {
        return undefined;
      } finally {
        client.disconnect();
      }
    }, 20_000, 100);
  };
  const killRedis = async () => {
    const child = redis;
    redis = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  };

  beforeAll(async () => {
    redisPort = await freePort();
    // Its own port and data folder: a stopped Neo4j is started again on both, as a restarted database server would be.
    neo4jPort = await freePort();
    neo4jDir = await mkdtemp(path.join(os.tmpdir(), "credence-outage-neo4j-"));
    const [fake, graph] = await Promise.all([startFakeOpenAiServer(), startNeo4jServer({ port: neo4jPort, dataDir: neo4jDir }), startRedis()]);
    llm = fake;
    neo4j = graph;
    dataDir = await freshEmbeddedFolder();
    const db = await openDatabase({ dataDir });
    try {
      fx = await makeFixtures(db, suffix, 6);
    } finally {
      await db.close();
    }
    server = await startAppServer({
      dataDir,
      env: {
        NEO4J_URI: neo4j.uri,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        OPENAI_BASE_URL: llm.baseURL,
        OPENAI_API_KEY: "sk-test",
        OPENAI_MODEL: "test-model",
        OPENAI_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
        OPENAI_MAX_RETRIES: "1",
        OPENAI_BUDGET_MS: "4000",
        CREDENCE_EMBEDDINGS: "none",
        CREDENCE_GRAPH_TIMEOUT_MS: "8000",
        CREDENCE_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT),
        LOG_LEVEL: "warn",
      },
    });
  }, 600_000);
  afterAll(async () => {
    if (figures.requests > 0) summaryLine("outages", { ...figures, families: families.join("+") });
    neo4j?.thaw();
    await server?.stop();
    await Promise.all([llm?.close(), neo4j?.stop(), killRedis()]);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    if (neo4jDir) await rm(neo4jDir, { recursive: true, force: true });
  });

  const api = async (method: string, apiPath: string, token: string, body?: unknown): Promise<Answer> => {
    figures.requests += 1;
    return callApi(server.baseUrl, method, `/api/v1${apiPath}`, token, { ...(body === undefined ? {} : { body }), timeoutMs: BOUND_MS });
  };
  /** A clean error: the status and code documented, a JSON body with the request id, within the bound. */
  const expectCleanError = (answer: Answer, status: number, code: string) => {
    expect(answer.status, `${answer.text}\n${server.logs()}`).toBe(status);
    expect(errorCode(answer)).toBe(code);
    expect(answer.json<{ error: { requestId: string } }>().error.requestId).toBe(answer.headers?.get("x-request-id"));
    figures.cleanErrors += 1;
    figures.slowestErrorMs = Math.max(figures.slowestErrorMs, Math.round(answer.ms));
  };
  const evidenceTexts = async (token: string) => {
    const answer = await api("GET", `/scopes/${fx.scope}/beliefs?limit=100`, token);
    expect(answer.status, answer.text).toBe(200);
    return answer.text;
  };

  describe("the LLM endpoint", () => {
    const html: Reply = { status: 200, headers: { "content-type": "text/html" }, raw: "<!doctype html><html><body>Bad Gateway</body></html>" };
    const faults: [string, () => Reply][] = [
      ["hangs past the timeout", () => ({ delayMs: LLM_TIMEOUT_MS * 4, body: chatCompletion({}) })],
      ["answers 429 (rate limited)", () => ({ status: 429, headers: { "retry-after": "1" }, body: { error: { message: "slow down", type: "rate_limit" } } })],
      ["answers 500", () => ({ status: 500, body: { error: { message: "boom", type: "server_error" } } })],
      ["answers an HTML page (not JSON)", () => html],
      ["answers JSON of the wrong shape", () => ({ body: chatCompletion({ unexpected: ["nothing", "the", "schema", "asks", "for"] }) })],
    ];

    it.each(faults)("%s: 502 assessment_failed, nothing written; the next ingest succeeds without a restart", { timeout: 300_000 }, async (_name, reply) => {
      const token = fx.editorTokens[0] as string;
      llm.reset();
      // Every attempt of every call of this ingest meets the fault (the default model answers once the queue is empty).
      llm.enqueueChat(...Array.from({ length: 6 }, reply));
      const tag = `fault${randomBytes(3).toString("hex")}`;
      expectCleanError(await api("POST", `/scopes/${fx.scope}/ingest`, token, { text: `During the LLM ${tag} the cache is warmed before each deploy.` }), 502, "assessment_failed");
      llm.reset();
      expect(await evidenceTexts(token)).not.toContain(tag);
      const after = `After the LLM fault ${suffix}-${randomBytes(2).toString("hex")}: the cache is warmed before each deploy.`;
      const recovered = await api("POST", `/scopes/${fx.scope}/ingest`, token, { text: after });
      expect(recovered.status, recovered.text).toBe(200);
      expect(recovered.json()).toMatchObject({ outcome: "committed" });
      if (!families.includes("llm")) families.push("llm");
    });
  });

  describe("Redis (the shared rate limiter)", () => {
    const burst = async (token: string, n: number) => {
      const answers = await Promise.all(Array.from({ length: n }, () => api("GET", `/scopes/${fx.scope}/beliefs?limit=1`, token)));
      for (const answer of answers) expect([200, 429], answer.text).toContain(answer.status);
      return answers.filter((a) => a.status === 200).length;
    };

    it("killed: the limiter fails open to the server's own bucket (documented) — every request answered, none 5xx or hung", async () => {
      expect(await burst(fx.editorTokens[1] as string, RATE_LIMIT + 10)).toBe(RATE_LIMIT);
      await killRedis();
      expect(await burst(fx.editorTokens[2] as string, RATE_LIMIT + 10)).toBe(RATE_LIMIT);
      families.push("redis");
    });

    it("started again: the server's buckets are back in Redis without a restart", async () => {
      await startRedis();
      const client = new Redis({ port: redisPort });
      try {
        await until("the server to use Redis again", async () => {
          await burst(fx.editorTokens[3] as string, 1);
          return (await client.dbsize()) > 0 ? true : undefined;
        }, 30_000, 500);
      } finally {
        client.disconnect();
      }
    });
  });

  describe("Neo4j (the graph store)", () => {
    it("stops answering (SIGSTOP): reads and writes end 503 unavailable; back: the same server answers, acknowledged writes all there", async () => {
      // Each claim is its own belief (another runner's number): the test counts acknowledged writes by their text.
      const token = fx.editorTokens[4] as string;
      const acknowledged: string[] = [];
      const assimilate = (claim: string) => api("POST", `/scopes/${fx.scope}/assimilate`, token, { claim, evidence: [{ tier: "observation", direction: "+" }] });
      for (let i = 0; i < 3; i++) {
        const claim = `Before the graph outage ${suffix}: runner ${i} is healthy.`;
        const answer = await assimilate(claim);
        expect(answer.status, answer.text).toBe(200);
        acknowledged.push(claim);
      }
      neo4j.freeze();
      try {
        const [read, write] = await Promise.all([api("GET", `/scopes/${fx.scope}/beliefs?limit=5`, token), assimilate(`During the graph outage ${suffix}.`)]);
        expectCleanError(read, 503, "unavailable");
        expectCleanError(write, 503, "unavailable");
        expect(Number(write.headers?.get("retry-after"))).toBeGreaterThanOrEqual(1);
      } finally {
        neo4j.thaw();
      }
      const back = await until("the graph store to answer again", async () => {
        const answer = await assimilate(`After the graph outage ${suffix}: runner 9 is healthy.`);
        return answer.status === 200 ? answer : undefined;
      }, 60_000, 500);
      expect(back.status).toBe(200);
      acknowledged.push(`After the graph outage ${suffix}: runner 9 is healthy.`);
      const listed = await evidenceTexts(token);
      const lost = acknowledged.filter((claim) => !listed.includes(claim));
      figures.lostWrites += lost.length;
      expect(lost).toEqual([]);
      families.push("neo4j");
    });

    it("stops (the process ends): reads and writes end 503 unavailable; started again on the same data: the same server answers, acknowledged writes all there", async () => {
      const token = fx.editorTokens[5] as string;
      const acknowledged: string[] = [];
      const assimilate = (claim: string) => api("POST", `/scopes/${fx.scope}/assimilate`, token, { claim, evidence: [{ tier: "observation", direction: "+" }] });
      for (let i = 0; i < 3; i++) {
        const claim = `Before the graph restart ${suffix}: builder ${i} is idle.`;
        const answer = await assimilate(claim);
        expect(answer.status, answer.text).toBe(200);
        acknowledged.push(claim);
      }
      await neo4j.stop();
      const [read, write] = await Promise.all([api("GET", `/scopes/${fx.scope}/beliefs?limit=5`, token), assimilate(`While the graph is down ${suffix}.`)]);
      expectCleanError(read, 503, "unavailable");
      expectCleanError(write, 503, "unavailable");
      neo4j = await startNeo4jServer({ port: neo4jPort, dataDir: neo4jDir });
      const back = await until("the restarted graph store to answer", async () => {
        const answer = await assimilate(`After the graph restart ${suffix}: builder 9 is idle.`);
        return answer.status === 200 ? answer : undefined;
      }, 60_000, 500);
      expect(back.status).toBe(200);
      acknowledged.push(`After the graph restart ${suffix}: builder 9 is idle.`);
      const listed = await evidenceTexts(token);
      const lost = acknowledged.filter((claim) => !listed.includes(claim));
      figures.lostWrites += lost.length;
      expect(lost).toEqual([]);
      families.push("neo4j-restart");
    }, 240_000);
  });
});
