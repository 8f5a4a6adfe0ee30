import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "./local-embedder";
import { OpenAiEmbedder } from "./openai-embedder";
import { selectEmbedder } from "./select-embedder";

function capture() {
  const lines: string[] = [];
  return { lines, log: (line: string) => void lines.push(line) };
}

describe("selectEmbedder", () => {
  it("selects the local model by default when it is in the cache folder", () => {
    const { lines, log } = capture();
    const embedder = selectEmbedder({ CREDENCE_MODEL_DIR: process.env.CREDENCE_MODEL_DIR }, { log });
    expect(embedder).toBeInstanceOf(LocalEmbedder);
    expect(embedder?.model).toEqual({ name: "all-minilm-l6-v2-q", version: "1.19.0-beta29", dimensions: 384 });
    expect(lines).toEqual([]);
  });

  it("falls back to words only, in one line, when the model is missing", () => {
    const { lines, log } = capture();
    expect(selectEmbedder({ CREDENCE_MODEL_DIR: "/nonexistent/models" }, { log })).toBeNull();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/npm run model:fetch/);
  });

  it("selects the OpenAI-compatible endpoint when configured, and nothing when turned off", () => {
    const openai = selectEmbedder({
      CREDENCE_EMBEDDINGS: "openai",
      OPENAI_BASE_URL: "http://127.0.0.1:9/v1",
      OPENAI_EMBEDDING_MODEL: "nomic-embed-text",
      OPENAI_EMBEDDING_DIMENSIONS: "768",
    });
    expect(openai).toBeInstanceOf(OpenAiEmbedder);
    expect(openai?.model).toEqual({ name: "openai:nomic-embed-text", version: "nomic-embed-text", dimensions: 768 });
    expect(selectEmbedder({ CREDENCE_EMBEDDINGS: "none" }, { log: () => undefined })).toBeNull();
    expect(() => selectEmbedder({ CREDENCE_EMBEDDINGS: "bogus" })).toThrow();
  });
});
