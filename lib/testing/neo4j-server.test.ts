import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import { createInterface } from "node:readline";
import neo4j, { type Driver } from "neo4j-driver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEO4J_START_SCRIPT, startNeo4jServer, type Neo4jTestServer } from "./neo4j-server";

// The first run on a machine builds the module and downloads Neo4j from Maven Central.
const START_TIMEOUT_MS = 11 * 60_000;
const DATABASE = "neo4j";

describe("startNeo4jServer", () => {
  let server: Neo4jTestServer | undefined;
  let driver: Driver | undefined;

  function db(): Driver {
    if (!driver) throw new Error("the server did not start");
    return driver;
  }

  beforeAll(async () => {
    server = await startNeo4jServer();
    driver = neo4j.driver(server.uri, undefined, { disableLosslessIntegers: true });
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await driver?.close();
    await server?.stop();
  });

  it("serves Bolt on a loopback port", () => {
    expect(server?.uri).toMatch(/^bolt:\/\/127\.0\.0\.1:\d+$/);
  });

  it("answers RETURN 1", async () => {
    const result = await db().executeQuery("RETURN 1 AS one", {}, { database: DATABASE });
    expect(result.records.map((record) => record.get("one"))).toEqual([1]);
  });

  it("accepts any basic-auth token, since auth is disabled", async () => {
    const withPassword = neo4j.driver(server?.uri ?? "", neo4j.auth.basic("neo4j", "any-test-password"));
    try {
      const result = await withPassword.executeQuery("RETURN 2 AS two", {}, { database: DATABASE });
      expect(result.records.map((record) => record.get("two").toNumber())).toEqual([2]);
    } finally {
      await withPassword.close();
    }
  });

  it("reads back a write in the named database through managed transactions", async () => {
    const session = db().session({ database: DATABASE });
    try {
      const written = await session.executeWrite(async (tx) => {
        const result = await tx.run("CREATE (c:ServerProbe {id: $id, credence: $credence}) RETURN c.id AS id", {
          id: "probe-write-read",
          credence: 0.7,
        });
        return result.records.map((record) => record.get("id"));
      });
      expect(written).toEqual(["probe-write-read"]);

      const read = await session.executeRead(async (tx) => {
        const result = await tx.run("MATCH (c:ServerProbe {id: $id}) RETURN c.credence AS credence", {
          id: "probe-write-read",
        });
        return result.records.map((record) => record.get("credence"));
      });
      expect(read).toEqual([0.7]);
    } finally {
      await session.close();
    }
  });

  it("creates a uniqueness constraint idempotently and enforces it", async () => {
    const create =
      "CREATE CONSTRAINT server_probe_key_unique IF NOT EXISTS FOR (n:ServerProbeKey) REQUIRE n.key IS UNIQUE";
    await db().executeQuery(create, {}, { database: DATABASE });
    await db().executeQuery(create, {}, { database: DATABASE });

    const shown = await db().executeQuery(
      "SHOW CONSTRAINTS YIELD name, type WHERE name = $name RETURN type",
      { name: "server_probe_key_unique" },
      { database: DATABASE },
    );
    expect(shown.records.map((record) => record.get("type"))).toEqual(["UNIQUENESS"]);

    const insert = "CREATE (:ServerProbeKey {key: 'k1'})";
    await db().executeQuery(insert, {}, { database: DATABASE });
    await expect(db().executeQuery(insert, {}, { database: DATABASE })).rejects.toMatchObject({
      code: "Neo.ClientError.Schema.ConstraintValidationFailed",
    });
  });

  it("queries a full-text index with db.index.fulltext.queryNodes", async () => {
    const create =
      "CREATE FULLTEXT INDEX server_probe_text IF NOT EXISTS FOR (n:ServerProbeText) ON EACH [n.statement]";
    await db().executeQuery(create, {}, { database: DATABASE });
    await db().executeQuery(create, {}, { database: DATABASE });
    await db().executeQuery("CALL db.awaitIndex('server_probe_text', 120)", {}, { database: DATABASE });

    const session = db().session({ database: DATABASE });
    try {
      await session.executeWrite((tx) =>
        tx.run("UNWIND $rows AS row CREATE (:ServerProbeText {id: row.id, statement: row.statement})", {
          rows: [
            { id: "a", statement: "Calibrated forecasters revise their credence after rebuttals" },
            { id: "b", statement: "Coffee consumption is unrelated to forecasting skill" },
            { id: "c", statement: "Evidence supports the claim about calibrated credence" },
          ],
        }),
      );
      const hits = await session.executeRead(async (tx) => {
        const result = await tx.run(
          "CALL db.index.fulltext.queryNodes('server_probe_text', $query) YIELD node, score " +
            "RETURN node.id AS id, score ORDER BY id",
          { query: "calibrated" },
        );
        return result.records.map((record) => ({ id: record.get("id"), score: record.get("score") }));
      });
      expect(hits.map((hit) => hit.id)).toEqual(["a", "c"]);
      for (const hit of hits) expect(hit.score).toBeGreaterThan(0);
    } finally {
      await session.close();
    }
  });

  // Last in this block (its cases run in order): the server the cases above used is the one stopped, so the file
  // starts one JVM fewer than with a server of its own for this case.
  it("stop() ends the server and can be called twice", async () => {
    if (!server) throw new Error("the server did not start");
    const port = Number(new URL(server.uri).port);
    await expect(canConnect(port)).resolves.toBe(true);
    await driver?.close();
    driver = undefined;
    await server.stop();
    await expect(canConnect(port)).resolves.toBe(false);
    await expect(server.stop()).resolves.toBeUndefined();
  });
});

describe("the server's lifecycle", () => {
  it(
    "start.sh honours --port, prints exactly one stdout line, and exits cleaning up when stdin closes",
    async () => {
      const port = await freePort();
      const child = spawn("bash", [NEO4J_START_SCRIPT, "--port", String(port)], { stdio: ["pipe", "pipe", "pipe"] });
      const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
      const stdoutLines: string[] = [];
      const stderrLines: string[] = [];
      createInterface({ input: child.stderr }).on("line", (line) => stderrLines.push(line));
      const firstLine = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on("line", (line) => {
          stdoutLines.push(line);
          resolve(line);
        });
        void exited.then((code) => reject(new Error(`start.sh exited with ${code}:\n${stderrLines.join("\n")}`)));
      });
      expect(firstLine).toBe(`NEO4J_URI=bolt://127.0.0.1:${port}`);
      const dataDir = stderrLines.join("\n").match(/data in (\S+)/)?.[1];
      expect(dataDir && existsSync(dataDir)).toBe(true);

      const driver = neo4j.driver(`bolt://127.0.0.1:${port}`);
      try {
        await driver.verifyConnectivity({ database: DATABASE });
      } finally {
        await driver.close();
      }

      child.stdin.end();
      expect(await exited).toBe(0);
      expect(stdoutLines).toEqual([firstLine]);
      expect(dataDir && existsSync(dataDir)).toBe(false);
      await expect(canConnect(port)).resolves.toBe(false);
    },
    START_TIMEOUT_MS,
  );

  it.each([
    { stdin: "pipe", stoppedBy: /stdin closed|parent process \d+ exited/ },
    { stdin: "ignore", stoppedBy: /parent process \d+ exited/ },
  ] as const)(
    "leaves no orphan when its parent is killed with SIGKILL (server stdin: $stdin)",
    async ({ stdin, stoppedBy }) => {
      // A parent that cannot clean up: it spawns start.sh, reports, and is then SIGKILLed by this test. With stdin
      // "ignore" the server gets /dev/null, so only the parent-pid watch can stop it.
      const parentScript = `
        const { spawn } = require("node:child_process");
        const server = spawn("bash", [${JSON.stringify(NEO4J_START_SCRIPT)}], { stdio: [${JSON.stringify(stdin)}, "pipe", "inherit"] });
        server.stdout.once("data", (chunk) => process.stdout.write(String(chunk)));
        setInterval(() => {}, 60_000);
      `;
      const parent = spawn(process.execPath, ["-e", parentScript], { stdio: ["ignore", "pipe", "pipe"] });
      const stderrLines: string[] = [];
      createInterface({ input: parent.stderr }).on("line", (line) => stderrLines.push(line));
      const line = await new Promise<string>((resolve) => createInterface({ input: parent.stdout }).once("line", resolve));
      const port = Number(line.match(/^NEO4J_URI=bolt:\/\/127\.0\.0\.1:(\d+)$/)?.[1]);
      const dataDir = stderrLines.join("\n").match(/data in (\S+)/)?.[1];
      expect(port).toBeGreaterThan(0);
      expect(dataDir && existsSync(dataDir)).toBe(true);

      parent.kill("SIGKILL");
      // Bounded by the test timeout: the JVM notices, shuts down and deletes its folder.
      await waitUntil(async () => !(await canConnect(port)) && !(dataDir && existsSync(dataDir)));
      expect(stderrLines.some((entry) => stoppedBy.test(entry))).toBe(true);
    },
    START_TIMEOUT_MS,
  );

  it(
    "rejects with the server's log when the port is taken",
    async () => {
      const blocker = await listen(0);
      const address = blocker.address();
      try {
        if (address === null || typeof address === "string") throw new Error("no TCP address");
        await expect(startNeo4jServer({ port: address.port })).rejects.toThrow(
          /exited before it was ready[\s\S]*failed to start: .*Address already in use/,
        );
      } finally {
        await new Promise<void>((resolve) => blocker.close(() => resolve()));
      }
    },
    START_TIMEOUT_MS,
  );
});

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

async function freePort(): Promise<number> {
  const server = await listen(0);
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no TCP address");
  return address.port;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function waitUntil(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 100));
}
