/**
 * OpenAI-compatible servers without structured outputs (a real local HTTP server, the fake one, told to refuse
 * `json_schema`, or every `response_format`): the assessor falls back to JSON mode, then to the schema in the prompt,
 * validates every answer with the prompt's zod schema, and repairs one malformed answer.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAiAssessor } from "./openai-assessor";
import { chatCompletion, startFakeOpenAiServer, type FakeOpenAiServer } from "./testing/fake-openai-server";

const BELIEF = { id: "b1", text: "The team deploys to production from the main branch." };
const formatOf = (body: unknown) => (body as { response_format?: { type?: string } }).response_format?.type ?? "none";

describe("OpenAI-compatible servers without structured outputs", () => {
  let jsonModeOnly: FakeOpenAiServer;
  let promptOnly: FakeOpenAiServer;
  beforeAll(async () => {
    jsonModeOnly = await startFakeOpenAiServer({ responseFormats: ["json_object"] });
    promptOnly = await startFakeOpenAiServer({ responseFormats: [] });
  });
  afterAll(async () => {
    await jsonModeOnly?.close();
    await promptOnly?.close();
  });

  it("falls back to JSON mode once, and stays there", async () => {
    const a = createOpenAiAssessor({ baseURL: jsonModeOnly.baseURL, model: "local", maxRetries: 0 });
    expect(await a.assessRelation("Deploys go out from release.", BELIEF)).toMatchObject({ relation: "SUPPORTS", confidence: 0.9 });
    expect(await a.assessEvidence("A measurement.")).toMatchObject({ ess: 0.6 });
    expect(jsonModeOnly.chatRequests().map((r) => formatOf(r.body))).toEqual(["json_schema", "json_object", "json_object"]);
    expect((jsonModeOnly.chatRequests()[1]?.body as { messages: { content: string }[] }).messages[0]?.content).toContain("one JSON object named evidence_relation");
  });

  it("with no response_format at all, puts the schema in the prompt and repairs one malformed answer", async () => {
    promptOnly.reset();
    const a = createOpenAiAssessor({ baseURL: promptOnly.baseURL, model: "local", maxRetries: 0 });
    // The first answer in prompt mode is cut off, the repair turn gets a valid one (the default model's).
    promptOnly.enqueueChat({ body: chatCompletion('{"relation": "REBUTS", "strength": 0.') });
    const r = await a.assessRelation("Deploys go out from release.", BELIEF);
    expect(r).toMatchObject({ relation: "SUPPORTS", strength: 0.7 });
    const requests = promptOnly.chatRequests();
    expect(requests.map((q) => formatOf(q.body))).toEqual(["json_schema", "json_object", "none", "none"]);
    const repair = (requests[3]?.body as { messages: { role: string; content: string }[] }).messages;
    expect(repair.at(-2)).toEqual({ role: "assistant", content: '{"relation": "REBUTS", "strength": 0.' });
    expect(repair.at(-1)?.content).toMatch(/not valid JSON/);
  });

  it("an answer that never fits the schema is malformed, and says so", async () => {
    promptOnly.reset();
    const a = createOpenAiAssessor({ baseURL: promptOnly.baseURL, model: "local", maxRetries: 0 });
    const wrong = { body: chatCompletion({ relation: "MAYBE", strength: 2, confidence: 0.5, guess: null, reasoning: "?" }) };
    promptOnly.enqueueChat(wrong, wrong, wrong, wrong, wrong);
    await expect(a.assessRelation("x", BELIEF)).rejects.toMatchObject({ code: "malformed" });
    const last = (promptOnly.chatRequests().at(-1)?.body as { messages: { content: string }[] }).messages.at(-1)?.content;
    expect(last).toMatch(/relation: /);
  });
});
