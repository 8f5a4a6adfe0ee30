/**
 * `npm run cli -- embeddings status|rebuild`: beliefs written while no embedder was configured get their vectors from
 * the rebuild (the real offline model), with progress on stderr; a second rebuild has nothing to do.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATOR } from "@/lib/access/principal";
import { composeServices } from "@/lib/beliefs/get-belief-services";
import { runScript } from "@/lib/db/spawn-script";
import { embeddedBackend, type TestLocation } from "@/lib/db/testing/test-backends";
import { fetchModel } from "@/lib/embed/fetch-model";

const CLI = path.join(process.cwd(), "bin", "cli.ts");
const SLOW = { timeout: 240_000 };

describe("cli embeddings (embedded)", () => {
  let location: TestLocation;
  const cli = (...args: string[]) => runScript(CLI, args, location.env);

  beforeAll(async () => {
    await fetchModel();
    location = await embeddedBackend.create();
    const db = await location.open();
    try {
      const { services, close } = await composeServices(db, { embedder: null });
      try {
        await services.createUser(OPERATOR, { email: "ann@example.com", password: "ann-password" });
        await services.createScope(OPERATOR, { slug: "lab", name: "Lab", ownerEmail: "ann@example.com" });
        await services.assimilate(OPERATOR, "lab", {
          claim: "Database migrations are approved by the platform on-call engineer.",
          evidence: [{ sourceId: null, tier: "model_assertion" }],
        });
      } finally {
        await close();
      }
    } finally {
      await db.close();
    }
  }, 240_000);
  afterAll(async () => {
    await location?.cleanup();
  });

  it("reports, rebuilds with progress on stderr, and then has nothing left to do", SLOW, async () => {
    const before = await cli("embeddings", "status", "--scope", "lab");
    expect(before).toMatchObject({ code: 0, stdout: "lab\tall-minilm-l6-v2-q@1.19.0-beta29\tbeliefs 0/1\tevidence 0/0\n" });

    const rebuilt = await cli("embeddings", "rebuild", "--scope", "lab");
    expect(rebuilt.code).toBe(0);
    expect(rebuilt.stdout).toBe("lab\tall-minilm-l6-v2-q@1.19.0-beta29\tembedded 1\tbeliefs 1/1\tevidence 0/0\n");
    expect(rebuilt.stderr).toContain("embeddings rebuild: lab 0/1\nembeddings rebuild: lab 1/1\n");

    const again = await cli("embeddings", "rebuild");
    expect(again.stdout).toContain("lab\tall-minilm-l6-v2-q@1.19.0-beta29\tembedded 0\tbeliefs 1/1");
  });
});
