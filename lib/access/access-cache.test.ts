import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { TEST_BACKENDS, type TestLocation } from "@/lib/db/testing/test-backends";
import { addGrant } from "@/lib/identity/grants";
import { addMember, changeRole, removeMember } from "@/lib/identity/members";
import { scopeParamsRepository } from "@/lib/identity/scope-params";
import { createScope, setScopePublic } from "@/lib/identity/scopes";
import { authenticateToken, createToken, revokeToken } from "@/lib/identity/tokens";
import { createUser } from "@/lib/identity/users";
import { runWithRequestContext } from "@/lib/ops/request-context";
import { buildAuthorisedViewWithParams, requireScopeRole } from "./authorised-view";
import { sessionPrincipal } from "./principal";

let counter = 0;
const unique = (label: string) => `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

/** Runs `fn` as one request (its own context, so its own read of the access counter). */
let requests = 0;
const inRequest = <T>(fn: () => Promise<T>) => runWithRequestContext({ requestId: `access-cache-${requests++}`, route: "test" }, fn);

/** `db` whose raw statements are counted (the view, the token and the counter are each one `$queryRaw`). */
function counted(db: Database): { db: Pick<Database, "prisma">; statements: () => number } {
  let n = 0;
  const prisma = new Proxy(db.prisma, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (property !== "$queryRaw" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        n++;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db: { prisma }, statements: () => n };
}

describe.each(TEST_BACKENDS)("access rows kept between requests on $name", (backend) => {
  let location: TestLocation;
  let db: Database;
  /** A second server on the same database (embedded: through the first one's socket). */
  let other: Database;

  beforeAll(async () => {
    location = await backend.create();
    db = await location.open();
    other = await location.open({ ifHeld: "connect" });
  });
  afterAll(async () => {
    await other?.close();
    await db?.close();
    await location?.cleanup();
  });

  async function user(label: string) {
    return createUser(db, { email: `${unique(label)}@example.com`, password: "correct horse battery", name: label });
  }

  it("reuses a view's rows and a token's principal while nothing changes: one read of the counter per request", async () => {
    const alice = await user("kept-alice");
    const scope = await createScope(db, { slug: unique("kept"), name: "Kept", ownerId: alice.id });
    const { token } = await createToken(db, alice.id, { name: "kept" });
    const { db: watched, statements } = counted(db);
    const request = () =>
      inRequest(async () => {
        const principal = await authenticateToken(watched, token);
        const { view } = await buildAuthorisedViewWithParams(watched, sessionPrincipal(alice.id), scope.slug, { cached: true });
        return { principal, role: view.roleIn(scope.id) };
      });
    const first = await request();
    expect(statements()).toBe(3); // the counter, the token, the view
    const second = await request();
    expect(statements()).toBe(4); // the counter only
    expect(second).toEqual(first);
    expect(second.role).toBe("owner");
    // Outside a request nothing is kept: the view's own statement every time.
    await buildAuthorisedViewWithParams(watched, sessionPrincipal(alice.id), scope.slug, { cached: true });
    expect(statements()).toBe(5);
  });

  it("applies a membership, role, grant, visibility or parameter change, made by another server, to the next request", async () => {
    const alice = await user("change-alice");
    const bob = await user("change-bob");
    const home = await createScope(db, { slug: unique("home"), name: "Home", ownerId: alice.id });
    const granting = await createScope(db, { slug: unique("granting"), name: "Granting", ownerId: bob.id });
    const view = (who: string, slug: string) =>
      inRequest(async () => (await buildAuthorisedViewWithParams(db, sessionPrincipal(who), slug, { cached: true })).view);
    const editorIn = (who: string, slug: string) => inRequest(() => requireScopeRole(db, sessionPrincipal(who), slug, "editor", { cached: true }));

    expect((await view(bob.id, home.slug)).home).toBeNull();
    await addMember(other, alice.id, { scopeSlug: home.slug, email: bob.email, role: "viewer" });
    expect((await view(bob.id, home.slug)).roleIn(home.id)).toBe("viewer");
    await expect(editorIn(bob.id, home.slug)).rejects.toMatchObject({ code: "forbidden" });

    await changeRole(other, alice.id, { scopeSlug: home.slug, userId: bob.id, role: "editor" });
    expect((await editorIn(bob.id, home.slug)).home.role).toBe("editor");

    expect((await view(alice.id, home.slug)).canRead(granting.id)).toBe(false);
    await addGrant(other, bob.id, { fromSlug: granting.slug, toSlug: home.slug });
    expect((await view(alice.id, home.slug)).canRead(granting.id)).toBe(true);

    const carol = await user("change-carol");
    expect((await view(carol.id, granting.slug)).home).toBeNull();
    await setScopePublic(other, bob.id, { scopeSlug: granting.slug, isPublic: true });
    expect((await view(carol.id, granting.slug)).home?.id).toBe(granting.id);

    const params = () => inRequest(async () => (await buildAuthorisedViewWithParams(db, sessionPrincipal(alice.id), home.slug, { cached: true })).homeParams);
    expect(await params()).toBeNull();
    await scopeParamsRepository(other).create(home.id, { twinSimilarity: 0.97 }, alice.id);
    expect((await params())?.version).toBe(1);

    await removeMember(other, alice.id, { scopeSlug: home.slug, userId: bob.id });
    await expect(editorIn(bob.id, home.slug)).rejects.toMatchObject({ code: "not_found" });
  });

  it("refuses a token revoked by another server at the next request", async () => {
    const dave = await user("revoke-dave");
    const created = await createToken(db, dave.id, { name: "revoked" });
    const authenticate = () => inRequest(() => authenticateToken(db, created.token));
    expect((await authenticate())?.tokenId).toBe(created.id);
    expect((await authenticate())?.tokenId).toBe(created.id);
    await revokeToken(other, dave.id, created.id);
    expect(await authenticate()).toBeNull();
  });
});
