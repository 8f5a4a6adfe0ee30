import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/database";
import { TEST_BACKENDS, type TestLocation } from "@/lib/db/testing/test-backends";
import { BeliefServiceError, type BeliefServiceErrorCode } from "@/lib/errors/belief-service-error";
import { OPERATOR } from "@/lib/access/principal";
import { addGrant, listGrants, listIncomingGrants, removeGrant } from "./grants";
import { addMember, changeRole, listMembers, removeMember } from "./members";
import { createScope, getScopeForViewer, listMyScopes, setScopePublic } from "./scopes";
import { authenticateToken, createToken, listScopeTokens, listTokens, revokeScopeToken, revokeToken } from "./tokens";
import { createUser, ensureUserForEmail, verifyCredentials } from "./users";

/** `last_owner` is a `conflict` whose `details.reason` says so. */
async function expectCode(promise: Promise<unknown>, code: BeliefServiceErrorCode | "last_owner"): Promise<BeliefServiceError & { field?: string }> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BeliefServiceError);
  const failure = error as BeliefServiceError;
  if (code === "last_owner") {
    expect(failure.code).toBe("conflict");
    expect(failure.details.reason).toBe("last_owner");
  } else {
    expect(failure.code).toBe(code);
  }
  return Object.assign(failure, { field: failure.details.fields?.[0]?.field });
}

let counter = 0;
const unique = (label: string) => `${label}-${Date.now().toString(36)}-${(counter++).toString(36)}`;
const email = (label: string) => `${unique(label)}@example.com`;

describe.each(TEST_BACKENDS)("identity services on $name", (backend) => {
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
    return createUser(db, { email: email(label), password: "correct horse battery", name: label });
  }

  describe("users", () => {
    it("stores emails lowercased and refuses a duplicate whatever its case", async () => {
      const address = email("Alice");
      const created = await createUser(db, { email: address.toUpperCase(), password: "long enough" });
      expect(created.email).toBe(address.toLowerCase());
      const error = await expectCode(createUser(db, { email: address, password: "long enough" }), "conflict");
      expect(error.field).toBe("email");
    });

    it("rejects a malformed email and a short password as invalid, naming the field", async () => {
      expect((await expectCode(createUser(db, { email: "nope", password: "long enough" }), "invalid")).field).toBe("email");
      expect((await expectCode(createUser(db, { email: email("p"), password: "short" }), "invalid")).field).toBe("password");
    });

    it("verifies the password and answers null for a wrong one, an unknown email and a password-less user", async () => {
      const alice = await user("verify");
      expect((await verifyCredentials(db, alice.email, "correct horse battery"))?.id).toBe(alice.id);
      expect(await verifyCredentials(db, alice.email, "wrong horse battery")).toBeNull();
      expect(await verifyCredentials(db, email("ghost"), "correct horse battery")).toBeNull();
      const oidc = await ensureUserForEmail(db, email("oidc"), "O");
      expect(await verifyCredentials(db, oidc.email, "")).toBeNull();
    });

    it("never returns the password hash unless asked", async () => {
      const alice = await user("omit");
      const row = await db.prisma.user.findUniqueOrThrow({ where: { id: alice.id } });
      expect(row).not.toHaveProperty("passwordHash");
      const withHash = await db.prisma.user.findUniqueOrThrow({ where: { id: alice.id }, omit: { passwordHash: false } });
      expect(withHash.passwordHash).toMatch(/^\$argon2id\$/);
    });

    it("ensureUserForEmail finds an existing user instead of creating a twin", async () => {
      const alice = await user("ensure");
      expect((await ensureUserForEmail(db, alice.email.toUpperCase())).id).toBe(alice.id);
    });
  });

  describe("scopes and members", () => {
    it("makes the creator owner and lists the scope with the role", async () => {
      const owner = await user("owner");
      const slug = unique("team");
      const scope = await createScope(db, { slug, name: "Team", ownerId: owner.id });
      expect(scope.role).toBe("owner");
      expect((await listMyScopes(db, owner.id)).map((s) => [s.slug, s.role])).toEqual([[slug, "owner"]]);
    });

    it("refuses a duplicate slug and a malformed one", async () => {
      const owner = await user("dup");
      const slug = unique("dup");
      await createScope(db, { slug, name: "A", ownerId: owner.id });
      expect((await expectCode(createScope(db, { slug, name: "B", ownerId: owner.id }), "conflict")).field).toBe("slug");
      await expectCode(createScope(db, { slug: "Not A Slug!", name: "B", ownerId: owner.id }), "invalid");
    });

    it("answers a private scope's non-member exactly as for a missing scope, and shows public scopes without a role", async () => {
      const owner = await user("private-owner");
      const stranger = await user("stranger");
      const slug = unique("private");
      await createScope(db, { slug, name: "Private", ownerId: owner.id });
      expect(await getScopeForViewer(db, stranger.id, slug)).toBeNull();
      expect(await getScopeForViewer(db, stranger.id, unique("missing"))).toBeNull();
      await expectCode(addMember(db, stranger.id, { scopeSlug: slug, email: stranger.email, role: "owner" }), "not_found");
      await expectCode(addMember(db, stranger.id, { scopeSlug: unique("missing"), email: stranger.email, role: "owner" }), "not_found");

      await setScopePublic(db, owner.id, { scopeSlug: slug, isPublic: true });
      const seen = await getScopeForViewer(db, stranger.id, slug);
      expect(seen?.role).toBeNull();
      expect(seen?.isPublic).toBe(true);
      // Visible now, so a missing role is a permission problem, not a missing scope.
      await expectCode(addMember(db, stranger.id, { scopeSlug: slug, email: stranger.email, role: "owner" }), "forbidden");
    });

    it("lets only owners add members, by existing email, once, with a valid role", async () => {
      const owner = await user("adder");
      const editor = await user("editor");
      const viewer = await user("viewer");
      const slug = unique("roster");
      await createScope(db, { slug, name: "Roster", ownerId: owner.id });
      await addMember(db, owner.id, { scopeSlug: slug, email: editor.email.toUpperCase(), role: "editor" });
      await expectCode(addMember(db, editor.id, { scopeSlug: slug, email: viewer.email, role: "viewer" }), "forbidden");
      expect((await expectCode(addMember(db, owner.id, { scopeSlug: slug, email: email("nobody"), role: "viewer" }), "not_found")).field).toBe("email");
      await expectCode(addMember(db, owner.id, { scopeSlug: slug, email: editor.email, role: "viewer" }), "conflict");
      expect((await expectCode(addMember(db, owner.id, { scopeSlug: slug, email: viewer.email, role: "admin" as "owner" }), "invalid")).field).toBe("role");
      const members = await listMembers(db, editor.id, slug);
      expect(members.map((m) => [m.email, m.role]).sort()).toEqual([[editor.email, "editor"], [owner.email, "owner"]].sort());
      expect((await getScopeForViewer(db, editor.id, slug))?.role).toBe("editor");
    });

    it("refuses to demote or remove the last owner, and allows it once there is another", async () => {
      const first = await user("first-owner");
      const second = await user("second-owner");
      const slug = unique("owners");
      await createScope(db, { slug, name: "Owners", ownerId: first.id });
      await expectCode(changeRole(db, first.id, { scopeSlug: slug, userId: first.id, role: "editor" }), "last_owner");
      await expectCode(removeMember(db, first.id, { scopeSlug: slug, userId: first.id }), "last_owner");
      await addMember(db, first.id, { scopeSlug: slug, email: second.email, role: "owner" });
      await changeRole(db, second.id, { scopeSlug: slug, userId: first.id, role: "viewer" });
      expect((await getScopeForViewer(db, first.id, slug))?.role).toBe("viewer");
      await expectCode(removeMember(db, second.id, { scopeSlug: slug, userId: second.id }), "last_owner");
      // A viewer may leave on their own.
      await removeMember(db, first.id, { scopeSlug: slug, userId: first.id });
      expect(await getScopeForViewer(db, first.id, slug)).toBeNull();
    });

    it("never leaves a scope ownerless when two owners demote each other at once", async () => {
      const a = await user("race-a");
      const b = await user("race-b");
      const slug = unique("race");
      await createScope(db, { slug, name: "Race", ownerId: a.id });
      await addMember(db, a.id, { scopeSlug: slug, email: b.email, role: "owner" });
      const results = await Promise.allSettled([
        changeRole(db, a.id, { scopeSlug: slug, userId: b.id, role: "editor" }),
        changeRole(db, b.id, { scopeSlug: slug, userId: a.id, role: "editor" }),
      ]);
      const owners = (await listMembers(db, OPERATOR, slug)).filter((m) => m.role === "owner");
      expect(owners).toHaveLength(1);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    });

    it("changes the public flag for owners only", async () => {
      const owner = await user("pub-owner");
      const editor = await user("pub-editor");
      const slug = unique("pub");
      await createScope(db, { slug, name: "Pub", ownerId: owner.id });
      await addMember(db, owner.id, { scopeSlug: slug, email: editor.email, role: "editor" });
      await expectCode(setScopePublic(db, editor.id, { scopeSlug: slug, isPublic: true }), "forbidden");
      await setScopePublic(db, owner.id, { scopeSlug: slug, isPublic: true });
      expect((await getScopeForViewer(db, editor.id, slug))?.isPublic).toBe(true);
    });
  });

  describe("grants", () => {
    it("lets the owner of `from` grant `to`, once, and remove it", async () => {
      const owner = await user("grantor");
      const other = await user("grantee");
      const from = unique("from");
      const to = unique("to");
      await createScope(db, { slug: from, name: "From", ownerId: owner.id });
      await createScope(db, { slug: to, name: "To", ownerId: other.id });
      const grant = await addGrant(db, owner.id, { fromSlug: from, toSlug: to });
      expect([grant.fromSlug, grant.toSlug]).toEqual([from, to]);
      await expectCode(addGrant(db, owner.id, { fromSlug: from, toSlug: to }), "conflict");
      await expectCode(addGrant(db, owner.id, { fromSlug: from, toSlug: from }), "invalid");
      await expectCode(addGrant(db, owner.id, { fromSlug: from, toSlug: unique("nowhere") }), "not_found");
      await expectCode(addGrant(db, other.id, { fromSlug: to, toSlug: from }).then(() => addGrant(db, other.id, { fromSlug: from, toSlug: to })), "not_found");
      expect((await listGrants(db, owner.id, from)).map((g) => g.toSlug)).toEqual([to]);
      expect((await listIncomingGrants(db, other.id, to)).map((g) => g.fromSlug)).toEqual([from]);
      await removeGrant(db, owner.id, { fromSlug: from, toSlug: to });
      expect(await listGrants(db, owner.id, from)).toEqual([]);
      await expectCode(removeGrant(db, owner.id, { fromSlug: from, toSlug: to }), "not_found");
    });
  });

  describe("tokens", () => {
    it("shows the secret once, stores only its hash, authenticates it and stops after revocation", async () => {
      const alice = await user("token");
      const created = await createToken(db, alice.id, { name: "agent" });
      expect(created.token).toMatch(/^cred_[A-Za-z0-9_-]{43}$/);
      expect(created.token.startsWith(created.prefix)).toBe(true);
      const stored = await db.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id }, omit: { tokenHash: false } });
      expect(stored.tokenHash).not.toContain(created.token);
      expect(await db.prisma.apiToken.findUniqueOrThrow({ where: { id: created.id } })).not.toHaveProperty("tokenHash");

      const when = new Date("2030-01-02T03:04:05.000Z");
      expect(await authenticateToken(db, created.token, when)).toEqual({ tokenId: created.id, userId: alice.id, scopeId: null, name: "agent" });
      const listed = await listTokens(db, alice.id);
      expect(listed.map((t) => [t.id, t.lastUsedAt?.toISOString()])).toEqual([[created.id, when.toISOString()]]);
      expect(JSON.stringify(listed)).not.toContain(created.token);

      expect(await authenticateToken(db, `${created.token}x`)).toBeNull();
      expect(await authenticateToken(db, "not-a-token")).toBeNull();
      const mallory = await user("mallory");
      await expectCode(revokeToken(db, mallory.id, created.id), "not_found");
      await revokeToken(db, alice.id, created.id);
      await revokeToken(db, alice.id, created.id);
      expect(await authenticateToken(db, created.token)).toBeNull();
      expect((await listTokens(db, alice.id))[0]?.revokedAt).toBeInstanceOf(Date);
    });

    it("limits a token to a scope its user belongs to", async () => {
      const alice = await user("limited");
      const bob = await user("limited-other");
      const mine = unique("mine");
      const theirs = unique("theirs");
      const scope = await createScope(db, { slug: mine, name: "Mine", ownerId: alice.id });
      await createScope(db, { slug: theirs, name: "Theirs", ownerId: bob.id });
      const created = await createToken(db, alice.id, { name: "limited", scopeSlug: mine });
      expect(created.scopeSlug).toBe(mine);
      expect((await authenticateToken(db, created.token))?.scopeId).toBe(scope.id);
      await expectCode(createToken(db, alice.id, { name: "x", scopeSlug: theirs }), "not_found");
    });

    it("shows a scope's owner every live token of its members that can reach it, and only those", async () => {
      const olivia = await user("scope-owner");
      const tom = await user("other-owner");
      const analyst = await user("analyst");
      const outsider = await user("outsider");
      const home = unique("governed");
      const other = unique("elsewhere");
      await createScope(db, { slug: home, name: "Governed", ownerId: olivia.id, isPublic: true });
      await createScope(db, { slug: other, name: "Elsewhere", ownerId: tom.id });
      await addMember(db, olivia.id, { scopeSlug: home, email: analyst.email, role: "editor" });
      await addMember(db, tom.id, { scopeSlug: other, email: analyst.email, role: "editor" });

      const everywhere = await createToken(db, analyst.id, { name: "analyst-everywhere" });
      const limitedHere = await createToken(db, analyst.id, { name: "analyst-here", scopeSlug: home });
      const limitedThere = await createToken(db, analyst.id, { name: "analyst-there", scopeSlug: other });
      const revoked = await createToken(db, analyst.id, { name: "analyst-old" });
      await revokeToken(db, analyst.id, revoked.id);
      const ownersOwn = await createToken(db, olivia.id, { name: "owner-agent" });
      // The scope is public, so an outsider's token can read it; it is still not the scope's to govern.
      await createToken(db, outsider.id, { name: "outsider-agent" });
      await createToken(db, tom.id, { name: "tom-agent" });

      const listed = await listScopeTokens(db, olivia.id, home);
      expect(listed.map((t) => t.name).sort()).toEqual(["analyst-everywhere", "analyst-here", "owner-agent"]);
      expect(listed.find((t) => t.id === everywhere.id)).toMatchObject({ userId: analyst.id, userEmail: analyst.email, userName: "analyst", scopeSlug: null, lastUsedAt: null });
      expect(listed.find((t) => t.id === limitedHere.id)?.scopeSlug).toBe(home);
      expect(listed.find((t) => t.id === ownersOwn.id)?.userEmail).toBe(olivia.email);
      expect(JSON.stringify(listed)).not.toContain(everywhere.token);
      await expectCode(revokeScopeToken(db, olivia.id, home, limitedThere.id), "not_found");

      // The other scope's owner sees the analyst's tokens that reach their scope, nothing limited to this one.
      const theirs = await listScopeTokens(db, tom.id, other);
      expect(theirs.map((t) => t.name).sort()).toEqual(["analyst-everywhere", "analyst-there", "tom-agent"]);
      // ...and nothing of this scope: its list is refused, and its tokens cannot be revoked through their own scope.
      await expectCode(listScopeTokens(db, tom.id, home), "forbidden");
      await expectCode(revokeScopeToken(db, tom.id, other, limitedHere.id), "not_found");
      await expectCode(revokeScopeToken(db, tom.id, home, limitedHere.id), "forbidden");
      // Members below owner keep seeing only their own tokens.
      await expectCode(listScopeTokens(db, analyst.id, home), "forbidden");
      await expectCode(revokeScopeToken(db, analyst.id, home, ownersOwn.id), "forbidden");
      expect(await authenticateToken(db, limitedHere.token)).not.toBeNull();
    });

    it("lets a scope's owner revoke a member's token that reaches the scope, and no other", async () => {
      const olivia = await user("revoking-owner");
      const analyst = await user("revoked-analyst");
      const stranger = await user("stranger");
      const home = unique("revoking");
      const other = unique("untouched");
      await createScope(db, { slug: home, name: "Revoking", ownerId: olivia.id });
      await createScope(db, { slug: other, name: "Untouched", ownerId: analyst.id });
      await addMember(db, olivia.id, { scopeSlug: home, email: analyst.email, role: "editor" });
      const everywhere = await createToken(db, analyst.id, { name: "everywhere" });
      const limitedThere = await createToken(db, analyst.id, { name: "there", scopeSlug: other });
      const strangers = await createToken(db, stranger.id, { name: "stranger-agent" });

      await expectCode(revokeScopeToken(db, olivia.id, home, limitedThere.id), "not_found");
      await expectCode(revokeScopeToken(db, olivia.id, home, strangers.id), "not_found");
      await expectCode(revokeScopeToken(db, olivia.id, home, "no-such-token"), "not_found");
      expect(await authenticateToken(db, limitedThere.token)).not.toBeNull();
      expect(await authenticateToken(db, strangers.token)).not.toBeNull();

      await revokeScopeToken(db, olivia.id, home, everywhere.id);
      expect(await authenticateToken(db, everywhere.token)).toBeNull();
      expect((await listTokens(db, analyst.id)).find((t) => t.id === everywhere.id)?.revokedAt).toBeInstanceOf(Date);
      expect((await listScopeTokens(db, olivia.id, home)).map((t) => t.id)).not.toContain(everywhere.id);
      // Once revoked it is no longer live, so a second revocation finds nothing to revoke.
      await expectCode(revokeScopeToken(db, olivia.id, home, everywhere.id), "not_found");

      // A member who leaves takes their tokens out of the scope's reach, and out of its list.
      const kept = await createToken(db, analyst.id, { name: "kept" });
      await removeMember(db, olivia.id, { scopeSlug: home, userId: analyst.id });
      expect((await listScopeTokens(db, olivia.id, home)).map((t) => t.id)).not.toContain(kept.id);
      await expectCode(revokeScopeToken(db, olivia.id, home, kept.id), "not_found");
    });
  });
});
