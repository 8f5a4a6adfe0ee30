import { describe, expect, it } from "vitest";
import { handleApiError } from "@/lib/api/api-error";
import { GraphStoreError } from "./errors";
import { graphDeadlineMs, withDeadline } from "./graph-deadline";
import type { GraphStore } from "./graph-store";

const never = () => new Promise<never>(() => {});

function fakeStore() {
  let closed = false;
  const data = { beliefs: [{ id: "b_1" }], [Symbol.for("x")]: 1 };
  const store = {
    kind: "neo4j",
    describe: () => "fake",
    check: () => new Promise<void>((resolve) => setTimeout(resolve, 120)),
    hang: never,
    read: async () => data,
    fail: async () => {
      throw new GraphStoreError("version_conflict", "raced");
    },
    resolverFor: () => ({ resolve: never }),
    idempotency: { list: never, note: "kept" },
    close: async () => {
      closed = true;
    },
  };
  return { store: store as unknown as GraphStore & typeof store, data, closed: () => closed };
}

describe("a deadline on every graph store call", () => {
  it("a call past the deadline fails store_unavailable (503); answers and errors in time pass through untouched", async () => {
    const { store, data } = fakeStore();
    const timed = withDeadline(store, 50) as typeof store;
    await expect(timed.hang()).rejects.toMatchObject({ code: "store_unavailable", message: expect.stringContaining("hang within 50 ms") });
    expect(await timed.read()).toBe(data);
    await expect(timed.fail()).rejects.toMatchObject({ code: "version_conflict" });
    expect(timed.describe()).toBe("fake");
    expect(timed.kind).toBe("neo4j");
  });

  it("reaches the objects a store hands out (resolvers, idempotency marks); close and the startup check are left alone", async () => {
    const { store, closed } = fakeStore();
    const timed = withDeadline(store, 50) as typeof store;
    await expect(timed.resolverFor().resolve()).rejects.toBeInstanceOf(GraphStoreError);
    await expect(timed.idempotency.list()).rejects.toMatchObject({ code: "store_unavailable" });
    expect(timed.idempotency.note).toBe("kept");
    await timed.check();
    await timed.close();
    expect(closed()).toBe(true);
  });

  it("CREDENCE_GRAPH_TIMEOUT_MS: default 60 s, an integer 100–600000, named when wrong", () => {
    expect(graphDeadlineMs(undefined)).toBe(60_000);
    expect(graphDeadlineMs("3000")).toBe(3_000);
    for (const bad of ["99", "1.5", "soon", "600001"]) expect(() => graphDeadlineMs(bad), bad).toThrow("CREDENCE_GRAPH_TIMEOUT_MS");
  });
});

describe("a graph store that does not answer, at the HTTP boundary", () => {
  it("is 503 unavailable with Retry-After, like a database outage (other store errors stay 500)", async () => {
    const answer = handleApiError(new GraphStoreError("store_unavailable", "the graph store did not answer listBeliefs within 50 ms"));
    expect(answer.status).toBe(503);
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("unavailable");
    expect(handleApiError(new GraphStoreError("store_misconfigured", "bad")).status).toBe(500);
  });
});
