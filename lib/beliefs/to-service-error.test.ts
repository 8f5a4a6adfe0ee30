import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { AssessmentError, EngineError, validationFailed } from "@/lib/engine";
import { ChangeSetRejected, GraphStoreError, VersionConflict } from "@/lib/graph/errors";
import { BELIEF_SERVICE_ERROR_CODES, BeliefServiceError, httpStatusOf, parseServiceInput } from "@/lib/errors/belief-service-error";
import { toServiceError } from "./to-service-error";

const codeOf = (error: unknown) => (toServiceError(error) as BeliefServiceError).code;

describe("toServiceError", () => {
  it("maps every layer's errors to one stable code", () => {
    expect(codeOf(new EngineError("not_frozen", "not frozen"))).toBe("invalid");
    expect(codeOf(new EngineError("not_pending", "decided already"))).toBe("conflict");
    expect(codeOf(new AssessmentError("timeout", "slow"))).toBe("assessment_failed");
    expect((toServiceError(new AssessmentError("refused", "no")) as BeliefServiceError).details.assessorCode).toBe("refused");
    expect(codeOf(new VersionConflict("b", "version", "lost"))).toBe("conflict");
    expect(codeOf(new ChangeSetRejected("duplicate_id", "dup"))).toBe("conflict");
    expect(codeOf(new ChangeSetRejected("invalid", "bad"))).toBe("invalid");
    expect(codeOf(new GraphStoreError("store_unavailable", "down"))).toBe("unavailable");
    const mutation = toServiceError(validationFailed([{ field: "reason", message: "must cite" }])) as BeliefServiceError;
    expect(mutation.code).toBe("invalid");
    expect(mutation.details.fields).toEqual([{ field: "reason", message: "must cite" }]);
  });

  it("leaves unknown errors alone (the boundary logs them as a 500)", () => {
    const bug = new TypeError("x is undefined");
    expect(toServiceError(bug)).toBe(bug);
  });

  it("names every invalid field", () => {
    const schema = z.object({ a: z.string(), b: z.object({ c: z.number() }) });
    const error = (() => {
      try {
        parseServiceInput(schema, { a: 1, b: { c: "x" } });
      } catch (e) {
        return e as BeliefServiceError;
      }
      throw new Error("expected a failure");
    })();
    expect(error.code).toBe("invalid");
    expect(error.details.fields?.map((f) => f.field)).toEqual(["a", "b.c"]);
  });

  it("gives every code an HTTP status", () => {
    expect(BELIEF_SERVICE_ERROR_CODES.map((c) => [c, httpStatusOf(c)])).toEqual([
      ["not_found", 404],
      ["forbidden", 403],
      ["invalid", 422],
      ["conflict", 409],
      ["oscillation_hard_stop", 409],
      ["topic_frozen", 409],
      ["assessment_failed", 502],
      ["unavailable", 503],
    ]);
  });
});

describe("BeliefServiceError across module copies", () => {
  it("is recognised by instanceof when another copy of the module made it (as in separate Next.js bundles)", async () => {
    const { BeliefServiceError: Original } = await import("@/lib/errors/belief-service-error");
    vi.resetModules();
    const { BeliefServiceError: Copy } = await import("@/lib/errors/belief-service-error");
    expect(Copy).not.toBe(Original);
    const error = new Copy("not_found", "no user with that email");
    expect(error instanceof Original).toBe(true);
    expect(new Error("plain") instanceof Original).toBe(false);
    expect({ code: "not_found" } instanceof Original).toBe(false);
  });
});

describe("graph store errors across module copies", () => {
  it("a version conflict made by another copy of lib/graph/errors (the server script's store) is retried as one, not a 500", async () => {
    const original = await import("@/lib/graph/errors");
    vi.resetModules();
    const copy = await import("@/lib/graph/errors");
    expect(copy.VersionConflict).not.toBe(original.VersionConflict);
    const conflict = new copy.VersionConflict("b_1", "version", "another writer got there first");
    expect(original.isVersionConflict(conflict)).toBe(true);
    expect(conflict instanceof original.GraphStoreError).toBe(true);
    expect(conflict instanceof original.ChangeSetRejected).toBe(false);
    const rejected = new copy.ChangeSetRejected("duplicate_id", "exists");
    expect(rejected instanceof original.ChangeSetRejected).toBe(true);
    expect(rejected instanceof original.VersionConflict).toBe(false);
    expect(new Error("plain") instanceof original.GraphStoreError).toBe(false);
    expect(new original.GraphStoreError("store_unavailable", "down") instanceof original.VersionConflict).toBe(false);
  });
});

describe("the ambient idempotency claim across module copies", () => {
  it("a store wrapped by one copy of lib/graph/idempotency-mark sees a claim run by another (the job worker's)", async () => {
    const original = await import("@/lib/graph/idempotency-mark");
    vi.resetModules();
    const copy = await import("@/lib/graph/idempotency-mark");
    expect(copy.runUnderIdempotencyClaim).not.toBe(original.runUnderIdempotencyClaim);
    const seen: unknown[] = [];
    const store = original.withAmbientIdempotency({
      apply: async (_changeSet: unknown, options?: { idempotency?: unknown }) => {
        seen.push(options?.idempotency);
        return { changeSetId: "cs_1" };
      },
    } as unknown as Parameters<typeof original.withAmbientIdempotency>[0]) as unknown as { apply(changeSet: unknown): Promise<unknown> };
    const { committed } = await copy.runUnderIdempotencyClaim({ principal: "job", key: "job_1", claimId: "job_1" }, () => store.apply({}));
    expect(seen).toEqual([{ principal: "job", key: "job_1", claimId: "job_1", ordinal: 1 }]);
    expect(committed).toBe(1);
  });
});
