import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { EmbeddingError, cosine } from "@/lib/engine";
import { startFakeOpenAiServer, type FakeOpenAiServer } from "@/lib/assess/openai/testing/fake-openai-server";
import { OpenAiEmbedder, type OpenAiEmbedderConfig } from "./openai-embedder";

let server: FakeOpenAiServer;
beforeAll(async () => {
  server = await startFakeOpenAiServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

// The fake server's default "model" hashes words into 64 buckets.
const make = (overrides: Partial<OpenAiEmbedderConfig> = {}) =>
  new OpenAiEmbedder({ baseURL: server.baseURL, apiKey: "sk-test", model: "test-embed", dimensions: 64, ...overrides });

function need<T>(value: T | undefined): T {
  if (value === undefined) throw new Error("missing value");
  return value;
}

function vectorsBody(vectors: number[][]): unknown {
  return { object: "list", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })) };
}

describe("OpenAiEmbedder", () => {
  it("posts the texts to /embeddings and returns unit vectors in input order", async () => {
    const embedder = make();
    const vectors = await embedder.embed(["deploy from main", "deploy from main", "coffee machine"]);
    const a = need(vectors[0]);
    const b = need(vectors[1]);
    const c = need(vectors[2]);
    expect(cosine(a, b)).toBeCloseTo(1, 6);
    expect(cosine(a, c)).toBeLessThan(0.5);
    expect(Math.hypot(...a)).toBeCloseTo(1, 6);
    const request = need(server.requests[0]);
    expect(request.path).toMatch(/\/embeddings$/);
    expect(request.headers.authorization).toBe("Bearer sk-test");
    expect(request.body).toMatchObject({ model: "test-embed", dimensions: 64, input: ["deploy from main", "deploy from main", "coffee machine"] });
    expect(embedder.model).toEqual({ name: "openai:test-embed", version: "test-embed", dimensions: 64 });
  });

  it("puts answers back in input order by their index and splits large inputs into batches", async () => {
    server.enqueueEmbeddings({
      body: { data: [{ index: 1, embedding: [0, 2] }, { index: 0, embedding: [3, 0] }] },
    });
    const vectors = await make({ dimensions: 2 }).embed(["x", "y"]);
    expect(vectors.map((v) => Array.from(v))).toEqual([[1, 0], [0, 1]]);

    server.reset();
    expect(await make({ batchSize: 2 }).embed(["a", "b", "c", "d", "e"])).toHaveLength(5);
    expect(server.requests).toHaveLength(3);
  });

  it.each([
    ["a body that is not JSON", { raw: "<html>oops</html>" }],
    ["a body without data", { body: { object: "list" } }],
    ["one vector for two texts", { body: vectorsBody([[1, 0]]) }],
    ["a vector of the wrong length", { body: vectorsBody([[1, 0, 0], [0, 1, 0]]) }],
    ["a repeated index", { body: { data: [{ index: 0, embedding: [1, 0] }, { index: 0, embedding: [0, 1] }] } }],
    ["an HTTP 400", { status: 400, body: { error: { message: "bad" } } }],
  ])("rejects %s with an EmbeddingError", async (_label, reply) => {
    server.enqueueEmbeddings(reply);
    await expect(make({ dimensions: 2 }).embed(["x", "y"])).rejects.toBeInstanceOf(EmbeddingError);
  });

  it("retries 429 and 5xx, then gives up with an EmbeddingError", async () => {
    server.enqueueEmbeddings({ status: 429, body: {} }, { status: 503, body: {} });
    expect(await make({ maxRetries: 2 }).embed(["x"])).toHaveLength(1);
    expect(server.requests).toHaveLength(3);

    server.reset();
    server.enqueueEmbeddings({ status: 500, body: {} }, { status: 500, body: {} });
    await expect(make({ maxRetries: 1 }).embed(["x"])).rejects.toThrow(/HTTP 500/);
  });

  it("gives up on a server slower than the timeout", async () => {
    server.enqueueEmbeddings({ delayMs: 500, body: vectorsBody([[1, 0]]) });
    await expect(make({ dimensions: 2, timeoutMs: 100 }).embed(["x"])).rejects.toThrow(/no answer within 100 ms/);
  });
});
