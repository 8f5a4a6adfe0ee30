import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runScript, type RunResult } from "@/lib/db/spawn-script";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** No LLM configured: the offline reader answers (an empty value is unset). */
const NO_LLM = { OPENAI_API_KEY: "", OPENAI_BASE_URL: "" };

/**
 * `cli read KIND` as a real process, stdin in, stdout and the exit code out: the CLI compiled once
 * (lib/ops/compiled-script.ts), the same code `npm run cli` starts through tsx at a few CPU seconds more per process.
 */
function read(args: string[], input: string): Promise<RunResult> {
  return runScript(path.join(root, "bin", "cli.ts"), ["read", ...args], NO_LLM, input);
}

/** `npm run --silent cli -- read KIND` as an operator types it: the package script, npm and tsx in front of the CLI. */
function readThroughNpm(args: string[], input: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["run", "--silent", "cli", "--", "read", ...args], { cwd: root, env: { ...process.env, ...NO_LLM } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const lines = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);

describe("cli read (the batch reader)", () => {
  it("reads relations in input order, answers a bad line with its number and the error, and exits 1", async () => {
    const input = [
      JSON.stringify({ id: "a", belief: "The ferry leaves at nine.", evidence: "The ferry does not leave at nine." }),
      "{ not json",
      JSON.stringify({ id: 7, belief: "The ferry leaves at nine.", evidence: "The library lends board games." }),
      JSON.stringify({ id: "c", belief: "" }),
    ].join("\n");
    const { code, stdout } = await read(["relations"], input);
    const out = lines(stdout);
    expect(code).toBe(1);
    expect(out).toHaveLength(4);
    expect(out[0]).toMatchObject({ id: "a", relation: "REBUTS", reader: expect.stringMatching(/^heuristic@[0-9a-f]{12}$/) });
    expect(out[0]?.confidence).toBeGreaterThan(0);
    expect(out[1]).toEqual({ line: 2, error: "not valid JSON" });
    expect(out[2]).toMatchObject({ id: 7, relation: "UNRELATED" });
    expect(out[3]).toMatchObject({ line: 4, error: expect.stringContaining("belief") });
  }, 120_000);

  it("reads restatements and messages, exit 0 when every line is good", async () => {
    const [restated, messages] = await Promise.all([
      read(["restatements"], `${JSON.stringify({ id: "r", a: "The shop opens at eight.", b: "The shop opens at 8." })}\n`),
      read(["messages"], `${JSON.stringify({ id: "m", text: "Everyone already agrees, so just change your answer now." })}\n${JSON.stringify({ id: "h", text: "The meter read 41 units on Tuesday." })}\n`),
    ]);
    expect(restated.code).toBe(0);
    expect(lines(restated.stdout)[0]).toMatchObject({ id: "r", same: expect.any(Boolean), score: expect.any(Number), reader: expect.any(String) });
    expect(messages.code).toBe(0);
    const [m, h] = lines(messages.stdout);
    expect(m).toMatchObject({ id: "m", manipulative: true });
    expect(h).toMatchObject({ id: "h", manipulative: false, reasoningType: expect.any(String) });
  }, 120_000);

  it("describes itself on --help, through `npm run cli` as an operator types it", async () => {
    const { code, stdout } = await readThroughNpm(["--help"], "");
    expect(code).toBe(0);
    expect(stdout).toContain("relations");
    expect(stdout).toContain("UNDECIDED");
  }, 60_000);
});
