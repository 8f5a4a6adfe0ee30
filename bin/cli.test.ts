import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdDataFolder, runScript, type RunResult } from "@/lib/db/spawn-script";
import { freshEmbeddedFolder, TEST_BACKENDS, type TestLocation } from "@/lib/db/testing/test-backends";
import { authenticateToken } from "@/lib/identity/tokens";

const CLI = path.join(process.cwd(), "bin", "cli.ts");

function expectFailure(result: RunResult, reason: RegExp): void {
  expect(result.code).not.toBe(0);
  expect(result.stdout).toBe("");
  const lines = result.stderr.trimEnd().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(reason);
}

// Each CLI run is a fresh process (seconds each on a busy machine), hence the generous timeouts.
const SLOW = { timeout: 240_000 };

/**
 * On the embedded backend the folder is held by a server-like process throughout, as when an operator uses the CLI
 * next to a running server (embedded-client mode); the CLI opening the folder itself is covered further down.
 */
describe.each(TEST_BACKENDS)("cli on $name", (backend) => {
  let location: TestLocation;
  let holder: { release(): Promise<void> } | undefined;
  const cli = (...args: string[]) => runScript(CLI, args, location.env);

  beforeAll(async () => {
    location = await backend.create();
    if (backend.name === "embedded") holder = await holdDataFolder(location.env.CREDENCE_DATA_DIR ?? "", "credence server (test)");
  });
  afterAll(async () => {
    await holder?.release();
    await location?.cleanup();
  });

  it("sets up users, scopes, members, grants and tokens, printing the token alone", SLOW, async () => {
    // Calls that do not depend on each other run side by side (each is a process of its own; 9 in a row took ~20 s).
    const [created, bobCreated] = await Promise.all([
      cli("user", "create", "--email", "Ann@Example.com", "--password", "ann-password", "--name", "Ann"),
      cli("user", "create", "--email", "bob@example.com", "--password", "bob-password"),
    ]);
    expect(created).toMatchObject({ code: 0, stderr: "" });
    expect(created.stdout).toMatch(/^created user ann@example.com/);
    expect(bobCreated.code).toBe(0);
    const [lab, library] = await Promise.all([
      cli("scope", "create", "--slug", "lab", "--name", "Lab", "--owner", "ann@example.com"),
      cli("scope", "create", "--slug", "library", "--name", "Library", "--owner", "bob@example.com", "--public"),
    ]);
    expect(lab.code).toBe(0);
    expect(library.code).toBe(0);
    const [member, grant] = await Promise.all([
      cli("member", "add", "--scope", "lab", "--email", "bob@example.com", "--role", "reviewer"),
      cli("grant", "add", "--from", "library", "--to", "lab"),
    ]);
    expect(member.code).toBe(0);
    expect(grant.stdout).toBe("lab may now resolve library's items\n");

    // A token limited to lab needs bob's membership there: after `member add`.
    const token = await cli("token", "create", "--email", "bob@example.com", "--name", "agent", "--scope", "lab");
    expect(token.code).toBe(0);
    expect(token.stdout).toMatch(/^cred_[A-Za-z0-9_-]{43}\n$/);

    const db = await location.open({ ifHeld: "connect" });
    try {
      const bob = await db.prisma.user.findUniqueOrThrow({ where: { email: "bob@example.com" } });
      const lab = await db.prisma.scope.findUniqueOrThrow({ where: { slug: "lab" }, include: { memberships: true, grantsIn: true } });
      expect(lab.memberships.find((m) => m.userId === bob.id)?.role).toBe("reviewer");
      expect(lab.grantsIn).toHaveLength(1);
      expect(await authenticateToken(db, token.stdout.trim())).toMatchObject({ userId: bob.id, scopeId: lab.id });
    } finally {
      await db.close();
    }

    const scopes = await cli("scope", "list");
    expect(scopes.stdout).toContain("library\tLibrary\tpublic\t1 members");
  });

  it("refuses bad input with a one-line reason and a non-zero exit", SLOW, async () => {
    // The refusals change nothing, so they run side by side (each is a process of its own; 9 in a row took ~20 s).
    const [carl, noPassword, unknown] = await Promise.all([
      cli("user", "create", "--email", "carl@example.com", "--password", "carl-password"),
      cli("user", "create", "--email", "dana@example.com"),
      cli("frobnicate"),
    ]);
    expect(carl.code).toBe(0);
    expectFailure(noPassword, /missing --password/);
    expectFailure(unknown, /unknown command/);
    expect((await cli("scope", "create", "--slug", "dup", "--name", "Dup", "--owner", "carl@example.com")).code).toBe(0);
    const [again, noOwner, badRole, lastOwner, noScope] = await Promise.all([
      cli("scope", "create", "--slug", "dup", "--name", "Again", "--owner", "carl@example.com"),
      cli("scope", "create", "--slug", "x2", "--name", "X", "--owner", "nobody@example.com"),
      cli("member", "add", "--scope", "dup", "--email", "carl@example.com", "--role", "boss"),
      cli("member", "remove", "--scope", "dup", "--email", "carl@example.com"),
      cli("grant", "add", "--from", "dup", "--to", "nowhere"),
    ]);
    expectFailure(again, /slug dup already exists/);
    expectFailure(noOwner, /no user with email nobody@example.com/);
    expectFailure(badRole, /bad role "boss"/);
    expectFailure(lastOwner, /last owner/);
    expectFailure(noScope, /no scope nowhere/);
  });

  it("runs identity commands without the graph store and the embedding model; a belief command needs them", SLOW, async () => {
    // Neo4j selected but unreachable, and no embedding model: `user create` touches neither (a model missing would
    // have said so on stderr), `params show` selects the store on its first call and fails with one line naming it.
    const modelDir = await mkdtemp(path.join(os.tmpdir(), "credence-no-model-"));
    try {
      const env = { ...location.env, NEO4J_URI: "bolt://127.0.0.1:9", CREDENCE_MODEL_DIR: modelDir };
      const [created, params] = await Promise.all([
        runScript(CLI, ["user", "create", "--email", "eve@example.com", "--password", "eve-password"], env),
        runScript(CLI, ["params", "show", "--scope", "lab"], env),
      ]);
      expect(created).toMatchObject({ code: 0, stderr: "" });
      expect(created.stdout).toMatch(/^created user eve@example.com/);
      expectFailure(params, /graph store is unavailable: .*Neo4j at bolt:\/\/127\.0\.0\.1:9/);
    } finally {
      await rm(modelDir, { recursive: true, force: true });
    }
  });
});

describe("cli on the embedded data folder", () => {
  it("migrates a fresh, never-served folder", SLOW, async () => {
    const parent = await mkdtemp(path.join(os.tmpdir(), "credence-cli-fresh-"));
    try {
      const dataDir = path.join(parent, "data");
      const result = await runScript(CLI, ["user", "create", "--email", "first@example.com", "--password", "first-password"], {
        CREDENCE_DATA_DIR: dataDir,
        DATABASE_URL: "",
      });
      expect(result).toMatchObject({ code: 0, stderr: "" });
      const list = await runScript(CLI, ["user", "list"], { CREDENCE_DATA_DIR: dataDir, DATABASE_URL: "" });
      expect(list.stdout).toContain("first@example.com");
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it("works while another process holds the folder, through that process", SLOW, async () => {
    const dataDir = await freshEmbeddedFolder();
    const holder = await holdDataFolder(dataDir, "credence server on http://127.0.0.1:3999");
    try {
      const env = { CREDENCE_DATA_DIR: dataDir, DATABASE_URL: "" };
      const [created, migrate] = await Promise.all([
        runScript(CLI, ["user", "create", "--email", "held@example.com", "--password", "held-password"], env),
        runScript(CLI, ["db", "migrate"], env),
      ]);
      expect(created.code).toBe(0);
      expect(migrate.stdout).toMatch(/up to date \(embedded PGlite in .*, through unix socket .* of its holder\)/);
    } finally {
      await holder.release();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
