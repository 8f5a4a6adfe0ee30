/**
 * `docs/api-walkthrough.md` is produced here: the walkthrough script (lib/api/testing/walkthrough-script.ts) runs
 * against a fresh production server (`bin/serve.ts`, the `.next` build, embedded PGlite, the offline reader with the
 * local embedding model), and the page rendered from its real commands and answers must equal the committed one.
 * `UPDATE_DOCS=1` (`npm run docs:walkthrough`) writes the page instead. Needs `npx next build`, `curl`, `jq` and the
 * fetched embedding model (`npm run model:fetch`); a missing one fails, never skips.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { startAppServer, type AppServer } from "@/lib/testing/app-server";
import { curlCommand, firstDifferences, renderCommand, runWalkthrough, shellJson, WalkthroughNormaliser } from "./testing/walkthrough-runner";
import { WALKTHROUGH } from "./testing/walkthrough-script";

const PAGE = path.join(process.cwd(), "docs", "api-walkthrough.md");
const REGENERATE = "UPDATE_DOCS=1 npx vitest run lib/api/api-walkthrough.test.ts   (or: npm run docs:walkthrough)";

describe("the walkthrough's rendering", () => {
  it("numbers ids and server times in order of appearance, keeps the times the script sent, rounds floats", () => {
    const normaliser = new WalkthroughNormaliser(new Set(["2026-03-02T09:00:00.000Z"]));
    const a = "b_2b20b391-d213-4c62-8d5e-300849ad525c";
    const b = "b_332b582b-48d3-4c78-8d4a-58385f2ead1d";
    expect(normaliser.normalise(`${b} ${a} ${b} ev_575a2e9c-fb73-42a6-be44-73988e634457`)).toBe("b_1 b_2 b_1 ev_1");
    expect(normaliser.normalise("2026-12-05T09:05:28.622Z 2026-03-02T09:00:00.000Z 2026-12-05T09:05:28.622Z 2026-12-05T09:05:29.446Z")).toBe(
      "<time 1> 2026-03-02T09:00:00.000Z <time 1> <time 2>",
    );
    expect(normaliser.normalise('{"user":"cmxa6rnjf00000b7duuc56nqn","t":"cred_sMBMVKe9GbPG2G1Cc9Xrpa","a":"heuristic@46cbea9ffb76"}')).toBe(
      '{"user":"id_1","t":"cred_…","a":"heuristic@<version>"}',
    );
    expect(normaliser.normalise('{"credence":0.5136869510002277,"ess":0.4,"c":-0.14523851511434857,"n":15,"v":"policy 1.5"}')).toBe(
      '{"credence":0.5137,"ess":0.4,"c":-0.1452,"n":15,"v":"policy 1.5"}',
    );
  });

  it("renders a step as the command a reader types: variables spliced into bodies, queries encoded", () => {
    expect(shellJson({ sourceId: "$EV", tier: "document", ids: ["$A", 1] })).toBe(`'{"sourceId": "'$EV'", "tier": "document", "ids": ["'$A'", 1]}'`);
    expect(() => shellJson({ text: "it's" })).toThrow("single quote");
    expect(curlCommand({ kind: "http", path: "/scopes/x/recall", token: "TOKEN", status: 200, query: [["q", "Which branch?"], ["asOf", "2026-03-03"]] })).toBe(
      `curl -s $API/scopes/x/recall --get --data-urlencode 'q=Which branch?' -d asOf=2026-03-03 -H "authorization: Bearer $TOKEN"`,
    );
    expect(renderCommand({ kind: "http", path: "/scopes/x/ingest", token: "T", status: 200, query: [["dryRun", "true"]], body: { text: "a" }, jq: "-c ." })).toBe(
      `curl -s "$API/scopes/x/ingest?dryRun=true" -H "authorization: Bearer $T" -H 'content-type: application/json' -d '{"text": "a"}' | jq -c .`,
    );
    expect(renderCommand({ kind: "cli", args: ["token", "create", "--name", "deploy agent"], assign: "TOKEN" })).toBe(`TOKEN=$(npm run --silent cli -- token create --name 'deploy agent')`);
    expect(() => renderCommand({ kind: "http", path: "/x", token: "T", status: 200, jq: ".", showStatus: true })).toThrow("showStatus");
  });

  it("renders every step of the script (before a server is started for it)", () => {
    const commands = WALKTHROUGH.sections.flatMap((section) => section.steps.map(renderCommand));
    expect(commands.length).toBeGreaterThan(30);
    expect(commands.filter((command) => command.startsWith("curl ") || command.includes("=$(curl ")).length).toBeGreaterThan(25);
  });
});

describe("docs/api-walkthrough.md", () => {
  let server: AppServer;

  beforeAll(async () => {
    // The page shows the offline reader with the local embedding model, whatever this shell's environment selects.
    server = await startAppServer({ env: { OPENAI_API_KEY: "", OPENAI_BASE_URL: "", CREDENCE_EMBEDDINGS: "local", NEO4J_URI: "", REDIS_URL: "", CREDENCE_RATE_LIMIT_PER_MINUTE: "600" } });
  }, 240_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("is what the walkthrough produces against a fresh server", async () => {
    const ready = (await (await fetch(`${server.baseUrl}/api/health/ready`)).json()) as { checks: { embedder?: { status: string; detail?: string } } };
    expect(ready.checks.embedder?.status, "the walkthrough shows reading by meaning: run `npm run model:fetch` first").toBe("ok");

    // WALKTHROUGH_TIMINGS=1 prints each step's time as it finishes.
    const log = process.env.WALKTHROUGH_TIMINGS === "1" ? (line: string) => console.log(line) : undefined;
    const produced = await runWalkthrough(WALKTHROUGH, { api: `${server.baseUrl}/api/v1`, cli: (...args) => server.cli(...args) }, { log });
    if (process.env.UPDATE_DOCS === "1") {
      await writeFile(PAGE, produced);
      return;
    }
    const committed = await readFile(PAGE, "utf8");
    if (committed !== produced) {
      throw new Error(`docs/api-walkthrough.md differs from what the walkthrough produced; regenerate it with\n  ${REGENERATE}\nand review the diff.\n${firstDifferences(committed, produced)}`);
    }
  }, 180_000);
});
