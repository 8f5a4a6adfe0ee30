/**
 * An LLM endpoint whose answer is not JSON at all: a truncated body, or a 200 with an HTML page (a proxy's
 * error page), on chat completions or embeddings. Each is a 502 `assessment_failed` (code `malformed`) through the
 * REST API with nothing written, never a 500 (the embeddings answers are checked on the assessor: no REST request
 * path asks for embeddings). Real HTTP: the fake OpenAI server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { randomBytes } from "node:crypto";
import { AssessmentError } from "@/lib/engine";
import { json, openApiHarness, type ApiHarness } from "@/lib/api/testing/api-harness";
import * as ingestRoute from "@/app/api/v1/scopes/[scope]/ingest/route";
import { createOpenAiAssessor } from "./openai-assessor";
import { startFakeOpenAiServer, type FakeOpenAiServer, type Reply } from "./testing/fake-openai-server";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

const HTML: Reply = { status: 200, headers: { "content-type": "text/html" }, raw: "<!doctype html><html><body><h1>502 Bad Gateway</h1></body></html>" };
const TRUNCATED: Reply = { status: 200, raw: '{"object":"list","data":[{"object":"embedding","index":0,"embedding":[0.1,0.2' };
const TRUNCATED_CHAT: Reply = { status: 200, raw: '{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"{\\"re' };

describe("LLM answers that are not JSON", () => {
  let server: FakeOpenAiServer;
  beforeAll(async () => {
    server = await startFakeOpenAiServer();
  });
  afterAll(async () => server?.close());
  beforeEach(() => server.reset());

  const assessor = () => createOpenAiAssessor({ baseURL: server.baseURL, model: "m", maxRetries: 0 });
  const codeOf = async (promise: Promise<unknown>) => {
    try {
      await promise;
    } catch (error) {
      expect(error).toBeInstanceOf(AssessmentError);
      return (error as AssessmentError).code;
    }
    throw new Error("expected a rejection");
  };

  it.each([
    ["an HTML page", HTML],
    ["a truncated body", TRUNCATED],
  ])("embeddings: %s → AssessmentError malformed", async (_name, reply) => {
    server.enqueueEmbeddings(reply);
    expect(await codeOf(assessor().similarity("a", "b"))).toBe("malformed");
  });

  it.each([
    ["an HTML page", HTML],
    ["a truncated body", TRUNCATED_CHAT],
  ])("chat: %s (every attempt) → AssessmentError malformed", async (_name, reply) => {
    server.enqueueChat(reply, reply, reply);
    expect(await codeOf(assessor().assessEvidence("A memo about deploys."))).toBe("malformed");
  });

  describe("through the REST API: 502, nothing written", () => {
    let h: ApiHarness;
    let home: string;
    const saved = { ...process.env };
    beforeAll(async () => {
      process.env.OPENAI_BASE_URL = server.baseURL;
      process.env.OPENAI_MODEL = "m";
      process.env.OPENAI_MAX_RETRIES = "0";
      h = await openApiHarness(`llm${randomBytes(3).toString("hex")}`);
      home = h.scopes.home;
    });
    afterAll(async () => {
      for (const key of ["OPENAI_BASE_URL", "OPENAI_MODEL", "OPENAI_MAX_RETRIES"]) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
      await h?.close();
    });

    const seed = async () => {
      server.reset();
      const seeded = await h.call(ingestRoute.POST, "POST", `/scopes/${home}/ingest`, { scope: home }, {
        token: h.tokens.editor,
        body: { text: "Deploys go out from the release branch.", source: { kind: "observation" } },
      });
      expect([200, 201]).toContain(seeded.status);
    };
    const expect502 = async (response: Response, before: Record<string, number>) => {
      expect(response.status).toBe(502);
      const error = (await json(response)).error as { code: string };
      expect(error.code).toBe("assessment_failed");
      expect(await h.counts()).toEqual(before);
    };

    it.each([
      ["an HTML page", HTML],
      ["a truncated body", TRUNCATED_CHAT],
    ])("ingest while chat answers %s → 502 assessment_failed", async (_name, reply) => {
      await seed();
      server.enqueueChat(...Array.from({ length: 9 }, () => reply));
      const before = await h.counts();
      const response = await h.call(ingestRoute.POST, "POST", `/scopes/${home}/ingest`, { scope: home }, {
        token: h.tokens.editor,
        body: { text: "Deploys never go out from the release branch; main ships.", source: { kind: "observation" } },
      });
      await expect502(response, before);
    });

  });
});
