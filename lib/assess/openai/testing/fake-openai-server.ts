/**
 * A real HTTP server (node:http on 127.0.0.1, port 0) that speaks enough of the OpenAI chat-completions and
 * embeddings API for tests: scripted replies per request, or a default "model" that answers every prompt of
 * `lib/assess/openai/prompts` with a valid JSON object. Every request is recorded for assertions.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** JSON body; ignored when `raw` is set. */
  body?: unknown;
  raw?: string;
  /** Answer only after this delay (to exceed a client timeout). */
  delayMs?: number;
}

export type Responder = (request: RecordedRequest) => Reply;

export interface FakeOpenAiServer {
  baseURL: string;
  requests: RecordedRequest[];
  /** Replies used in order for the next chat-completion requests, before the default responder. */
  enqueueChat(...replies: Reply[]): void;
  enqueueEmbeddings(...replies: Reply[]): void;
  /** Forget queued replies and recorded requests. */
  reset(): void;
  chatRequests(): RecordedRequest[];
  close(): Promise<void>;
}

/** A `chat.completion` object whose message content is `content` (JSON-encoded unless a string). */
export function chatCompletion(
  content: unknown,
  options: { refusal?: string; finishReason?: "stop" | "length" | "content_filter"; model?: string } = {},
): Record<string, unknown> {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 1_700_000_000,
    model: options.model ?? "test-model",
    choices: [
      {
        index: 0,
        finish_reason: options.finishReason ?? "stop",
        logprobs: null,
        message: {
          role: "assistant",
          content: options.refusal ? null : typeof content === "string" ? content : JSON.stringify(content),
          refusal: options.refusal ?? null,
        },
      },
    ],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** Deterministic bag-of-words embedding: each lower-cased word hashed into 64 buckets. */
export function hashEmbedding(text: string): number[] {
  const v = new Array<number>(64).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
    v[h % 64] = (v[h % 64] ?? 0) + 1;
  }
  return v;
}

function block(content: string, tag: string): string | undefined {
  const m = content.match(new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`));
  return m?.[1];
}

/** The default "model": a schema-valid answer for each prompt name. */
export function defaultChatAnswer(request: RecordedRequest): Reply {
  const body = request.body as { response_format?: { json_schema?: { name?: string } }; messages?: Array<{ content?: string }> };
  const user = body.messages?.find((_m, i) => i === 1)?.content ?? "";
  // JSON mode and prompt mode name the schema in the system message instead.
  const name = body.response_format?.json_schema?.name ?? body.messages?.[0]?.content?.match(/one JSON object named (\w+)/)?.[1];
  const answers: Record<string, unknown> = {
    evidence_strength: { ess: 0.6, reasoningType: "empirical", manipulative: false, reasoning: "A measurement with a clear source." },
    evidence_relation: { relation: "SUPPORTS", strength: 0.7, confidence: 0.9, guess: null, reasoning: "The evidence restates the belief." },
    belief_contraction: { contract: true, severity: 0.4, reasoning: "The rebuttals outweigh the supports." },
    mutation_conflict: {
      moreSpecific: false,
      differentContext: true,
      proposedContextTags: ["internal tools"],
      existingContextTags: ["customer services"],
      reasoning: "They describe different repositories.",
    },
    claim_extraction: {
      claims: (block(user, "text") ?? "")
        .split(/(?<=[.!])\s+/)
        .filter((s) => s.trim().length > 0 && !s.trim().endsWith("?"))
        .map((s) => ({ text: s.trim(), quantity: null })),
    },
    recall_phrasing: {
      dominantAnswer: block(user, "dominant") ?? "Unknown.",
      competingInterpretation: block(user, "competing") ?? null,
      reasoning: "The dominant belief answers the question.",
    },
    dialectical_synthesis: { text: "Each holds in its own context.", contextTags: ["context A", "context B"], reasoning: "Scoped both sides." },
  };
  const answer = name === undefined ? undefined : answers[name];
  if (answer === undefined) return { status: 400, body: { error: { message: `unknown schema ${String(name)}`, type: "invalid_request_error" } } };
  return { body: chatCompletion(answer) };
}

export function defaultEmbeddingAnswer(request: RecordedRequest): Reply {
  const body = request.body as { input?: string | string[]; model?: string };
  const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ""];
  return {
    body: {
      object: "list",
      model: body.model ?? "test-embedding",
      data: inputs.map((text, index) => ({ object: "embedding", index, embedding: hashEmbedding(text) })),
      usage: { prompt_tokens: 1, total_tokens: 1 },
    },
  };
}

export interface FakeServerOptions {
  /**
   * Which `response_format` types the server takes (default both). A request with another one is refused with 400,
   * as servers without structured outputs do.
   */
  responseFormats?: ReadonlyArray<"json_schema" | "json_object">;
}

export async function startFakeOpenAiServer(options: FakeServerOptions = {}): Promise<FakeOpenAiServer> {
  const formats = new Set(options.responseFormats ?? ["json_schema", "json_object"]);
  const requests: RecordedRequest[] = [];
  const chatQueue: Reply[] = [];
  const embeddingQueue: Reply[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    const recorded: RecordedRequest = {
      method: req.method ?? "",
      path: req.url ?? "",
      headers: req.headers,
      body: text.length > 0 ? (JSON.parse(text) as unknown) : undefined,
    };
    requests.push(recorded);
    let reply: Reply;
    const format = (recorded.body as { response_format?: { type?: string } } | undefined)?.response_format?.type;
    if (recorded.path.endsWith("/chat/completions") && format !== undefined && !formats.has(format as "json_schema")) {
      reply = { status: 400, body: { error: { message: `response_format ${format} is not supported`, type: "invalid_request_error" } } };
    } else if (recorded.path.endsWith("/chat/completions")) reply = chatQueue.shift() ?? defaultChatAnswer(recorded);
    else if (recorded.path.endsWith("/embeddings")) reply = embeddingQueue.shift() ?? defaultEmbeddingAnswer(recorded);
    else reply = { status: 404, body: { error: { message: "not found" } } };
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    if (res.destroyed) return;
    res.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers });
    res.end(reply.raw ?? JSON.stringify(reply.body ?? {}));
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    enqueueChat: (...replies) => void chatQueue.push(...replies),
    enqueueEmbeddings: (...replies) => void embeddingQueue.push(...replies),
    reset: () => {
      requests.length = 0;
      chatQueue.length = 0;
      embeddingQueue.length = 0;
    },
    chatRequests: () => requests.filter((r) => r.path.endsWith("/chat/completions")),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
