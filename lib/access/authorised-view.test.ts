import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { TEST_BACKENDS, type TestLocation } from "@/lib/db/testing/test-backends";
import { addGrant } from "@/lib/identity/grants";
import { createScope } from "@/lib/identity/scopes";
import { authenticateToken, createToken } from "@/lib/identity/tokens";
import { createUser } from "@/lib/identity/users";
import { buildAuthorisedView } from "./authorised-view";
import { sessionPrincipal, tokenPrincipal } from "./principal";

let counter = 0;
const unique = (label: string) => `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;

describe.each(TEST_BACKENDS)("authorised view on $name", (backend) => {
  let location: TestLocation;
  let db: Database;

  beforeAll(async () => {
    location = await backend.create();
    db = await location.open();
  });
  afterAll(async () => {
    await db?.close();
    await location?.cleanup();
  });

  async function user(label: string) {
    return createUser(db, { email: `${unique(label)}@example.com`, password: "correct horse battery", name: label });
  }

  it("is the home scope if a member ∪ scopes granted to it ∪ public scopes, with roles", async () => {
    const alice = await user("view-alice");
    const bob = await user("view-bob");
    const home = await createScope(db, { slug: unique("home"), name: "Home", ownerId: alice.id });
    const granting = await createScope(db, { slug: unique("granting"), name: "Granting", ownerId: bob.id });
    const hidden = await createScope(db, { slug: unique("hidden"), name: "Hidden", ownerId: bob.id });
    const open = await createScope(db, { slug: unique("open"), name: "Open", ownerId: bob.id, isPublic: true });
    const mineElsewhere = await createScope(db, { slug: unique("elsewhere"), name: "Elsewhere", ownerId: alice.id });
    await addGrant(db, bob.id, { fromSlug: granting.slug, toSlug: home.slug });

    const view = await buildAuthorisedView(db, sessionPrincipal(alice.id), home.slug);
    expect(view.home?.id).toBe(home.id);
    expect(view.home?.role).toBe("owner");
    expect(view.canRead(home.id)).toBe(true);
    expect(view.canRead(granting.id)).toBe(true);
    expect(view.canRead(open.id)).toBe(true);
    expect(view.canRead(hidden.id)).toBe(false);
    // Membership elsewhere does not widen this home's view.
    expect(view.canRead(mineElsewhere.id)).toBe(false);
    expect(view.roleIn(home.id)).toBe("owner");
    expect(view.roleIn(granting.id)).toBeNull();
    expect(view.hasRole(home.id, "reviewer")).toBe(true);
    expect(view.visibleScopeIds).toEqual([...view.visibleScopeIds].sort());
    expect(Object.isFrozen(view) && Object.isFrozen(view.visibleScopeIds)).toBe(true);

    // Bob is not a member of alice's private home: no home, no grants, public scopes only.
    const outsider = await buildAuthorisedView(db, sessionPrincipal(bob.id), home.slug);
    expect(outsider.home).toBeNull();
    expect(outsider.canRead(home.id)).toBe(false);
    expect(outsider.canRead(granting.id)).toBe(false);
    const missing = await buildAuthorisedView(db, sessionPrincipal(bob.id), unique("missing"));
    expect(missing.home).toBeNull();
    expect(missing.visibleScopeIds).toEqual(outsider.visibleScopeIds);
  });

  it("gives a scope-limited token only its scope as home", async () => {
    const alice = await user("view-token");
    const a = await createScope(db, { slug: unique("limit-a"), name: "A", ownerId: alice.id });
    const b = await createScope(db, { slug: unique("limit-b"), name: "B", ownerId: alice.id });
    const token = await createToken(db, alice.id, { name: "a only", scopeSlug: a.slug });
    const principal = tokenPrincipal((await authenticateToken(db, token.token))!);
    const inA = await buildAuthorisedView(db, principal, a.slug);
    expect(inA.home?.id).toBe(a.id);
    expect(inA.canRead(b.id)).toBe(false);
    const inB = await buildAuthorisedView(db, principal, b.slug);
    expect(inB.home).toBeNull();
    expect(inB.visibleScopeIds).toEqual([]);
  });
});
