/**
 * Text Postgres cannot store: a lone UTF-16 surrogate (`"\ud800"`, valid in a JSON string, refused by jsonb)
 * in any text field is a 422 `invalid` naming the field, like U+0000, with nothing written, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import fc from "fast-check";
import { randomBytes } from "node:crypto";
import { textProblem, unstorableText } from "./nul-path";
import { json, openApiHarness, type ApiHarness } from "./testing/api-harness";
import * as assimilateRoute from "@/app/api/v1/scopes/[scope]/assimilate/route";
import * as evidenceRoute from "@/app/api/v1/scopes/[scope]/evidence/route";
import * as ingestRoute from "@/app/api/v1/scopes/[scope]/ingest/route";
import * as beliefsRoute from "@/app/api/v1/scopes/[scope]/beliefs/route";

vi.mock("@/lib/auth/auth", () => ({ auth: async () => null }));

describe("lone surrogates and NUL", () => {
  it("finds a lone high or low surrogate anywhere, and accepts proper pairs", () => {
    expect(textProblem("a\ud800b")).toMatch(/surrogate/);
    expect(textProblem("\udc00")).toMatch(/surrogate/);
    expect(textProblem("end\ud83d")).toMatch(/surrogate/);
    expect(textProblem("emoji 😀 ok")).toBeNull();
    expect(textProblem("nul\u0000")).toMatch(/NUL/);
    expect(unstorableText({ a: [{ b: "x" }, { c: "\ud800" }] })).toEqual({ field: "a.1.c", message: expect.stringMatching(/surrogate/) });
    expect(unstorableText({ ["k\udfff"]: 1 })).toEqual({ field: "k\udfff", message: expect.stringMatching(/surrogate/) });
  });

  it("agrees with the platform's own well-formedness check on any string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        const wellFormed = !/[\ud800-\udfff]/.test(text.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""));
        expect(textProblem(text.replaceAll("\u0000", "")) === null).toBe(wellFormed);
      }),
    );
  });
});

describe("the REST API refuses unstorable text as invalid (embedded PGlite)", () => {
  let h: ApiHarness;
  let home: string;

  beforeAll(async () => {
    h = await openApiHarness(`sur${randomBytes(3).toString("hex")}`);
    home = h.scopes.home;
  });
  afterAll(async () => h?.close());

  const post = (handler: typeof evidenceRoute.POST, path: string, raw: string) =>
    h.call(handler, "POST", `/scopes/${home}${path}`, { scope: home }, { token: h.tokens.editor, raw });

  it.each([
    ["evidence text", evidenceRoute.POST, "/evidence", String.raw`{"kind":"document","text":"memo \ud800"}`, "text"],
    ["evidence uri", evidenceRoute.POST, "/evidence", String.raw`{"kind":"document","text":"memo","uri":"https://x.test/\udc00"}`, "uri"],
    ["ingest text", ingestRoute.POST, "/ingest", String.raw`{"text":"Deploys go out \ud800 from main.","source":{"kind":"observation"}}`, "text"],
    ["assimilate claim", assimilateRoute.POST, "/assimilate", String.raw`{"claim":"\ud800","evidence":[{"tier":"observation"}]}`, "claim"],
  ])("%s → 422 invalid naming the field, nothing written", async (_name, handler, path, raw, field) => {
    const before = await h.counts();
    const response = await post(handler, path, raw);
    expect(response.status).toBe(422);
    const error = (await json(response)).error as { code: string; details: { fields: { field: string; message: string }[] } };
    expect(error.code).toBe("invalid");
    expect(error.details.fields).toEqual([{ field, message: expect.stringMatching(/surrogate/) }]);
    expect(await h.counts()).toEqual(before);
  });

  it("a lone surrogate in a query parameter is never a 500", async () => {
    const response = await h.call(beliefsRoute.GET, "GET", `/scopes/${home}/beliefs`, { scope: home }, { token: h.tokens.editor, query: { q: "deploy \ud800" } });
    // URLSearchParams turns a lone surrogate into U+FFFD on the way into the URL: a plain search, never a 500.
    expect(response.status).toBe(200);
  });
});
