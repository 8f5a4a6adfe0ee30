/**
 * Identity in the application layer: scopes, members, grants, tokens and users behind the same `(caller, scopeSlug,
 * input)` shape as the belief services, so pages, actions, the REST API, MCP, the CLI and the demo seeder call one
 * facade. Who may see and do what is decided by `lib/access` (the one resolver); the Prisma work is done by the
 * repositories in `lib/identity`. Inputs are `unknown` and parsed there with zod; every failure is a
 * `BeliefServiceError`.
 */
import { buildAuthorisedView, requireScopeRole } from "@/lib/access/authorised-view";
import { isOperator, type Caller, type Principal } from "@/lib/access/principal";
import { addGrant, listGrants, listIncomingGrants, removeGrant, type GrantView } from "@/lib/identity/grants";
import type { IdentityDb } from "@/lib/identity/identity-db";
import { addMember, changeRole, listMembers, removeMember, removeMemberByEmail, type MemberView } from "@/lib/identity/members";
import { createScope, listAllScopes, listMyScopes, setScopePublic, type ScopeSummary } from "@/lib/identity/scopes";
import { authenticateToken, createToken, listScopeTokens, listTokens, revokeScopeToken, revokeToken, type ScopeTokenView, type TokenPrincipal, type TokenView } from "@/lib/identity/tokens";
import { createUser, ensureUserForEmail, listUsers, requireUserByEmail, setPassword, userEmails, verifyCredentials, type PublicUser } from "@/lib/identity/users";
import { BeliefServiceError, parseServiceInput } from "@/lib/errors/belief-service-error";
import { z } from "zod";

/** A scope as the caller may read it: the home scope of its authorised view, with its role (null: public reader). */
export type ScopeAsSeen = ScopeSummary;

export interface IdentityServices {
  // ---- scopes ----
  /** The scopes the user is a member of, with the role, by name. */
  listMyScopes(caller: Principal): Promise<ScopeSummary[]>;
  /** The operator only: every scope with its member count. */
  listAllScopes(caller: Caller): Promise<Awaited<ReturnType<typeof listAllScopes>>>;
  /** The scope as the caller may read it, or null for a missing scope and a hidden one alike. */
  getScope(caller: Caller, scopeSlug: string): Promise<ScopeAsSeen | null>;
  /** `{slug, name, isPublic?}`; a user becomes its first owner; the operator names the owner (`ownerEmail`). */
  createScope(caller: Caller, input: unknown): Promise<ScopeSummary>;
  /** Owner: `{isPublic}`. */
  setScopePublic(caller: Caller, scopeSlug: string, input: unknown): Promise<void>;

  // ---- members (list: any member; change: owner; a member may leave) ----
  listMembers(caller: Caller, scopeSlug: string): Promise<MemberView[]>;
  /** `{email, role}` */
  addMember(caller: Caller, scopeSlug: string, input: unknown): Promise<MemberView>;
  /** `{userId | email, role}`; demoting the last owner is a `conflict` with `details.reason: "last_owner"`. */
  changeRole(caller: Caller, scopeSlug: string, input: unknown): Promise<void>;
  /** `{userId | email}`; removing the last owner is a `conflict` with `details.reason: "last_owner"`. */
  removeMember(caller: Caller, scopeSlug: string, input: unknown): Promise<void>;

  // ---- grants (from the URL's scope; list: any member; change: owner) ----
  listGrants(caller: Caller, scopeSlug: string): Promise<GrantView[]>;
  listIncomingGrants(caller: Caller, scopeSlug: string): Promise<GrantView[]>;
  /** `{toSlug}`: scope `toSlug` may resolve this scope's items. */
  addGrant(caller: Caller, scopeSlug: string, input: unknown): Promise<GrantView>;
  removeGrant(caller: Caller, scopeSlug: string, input: unknown): Promise<void>;

  // ---- API tokens (a user's own; the operator names the user by `email`) ----
  /** `{name, scopeSlug?, email? (operator)}`; the secret is in the result once and never stored. */
  createToken(caller: Caller, input: unknown): Promise<TokenView & { token: string }>;
  /** `{email}` for the operator; a user lists its own. */
  listTokens(caller: Caller, input?: unknown): Promise<TokenView[]>;
  /** `{tokenId}`: the token's owner or the operator. */
  revokeToken(caller: Caller, input: unknown): Promise<void>;
  /** Owner of the scope: every live token of a member that can reach it (unrestricted or limited to it), with whose it is. */
  listScopeTokens(caller: Caller, scopeSlug: string): Promise<ScopeTokenView[]>;
  /** Owner of the scope: `{tokenId}` of a token `listScopeTokens` lists; any other is `not_found`. */
  revokeScopeToken(caller: Caller, scopeSlug: string, input: unknown): Promise<void>;

  // ---- users ----
  /** The operator only: `{email, password?, name?}`. */
  createUser(caller: Caller, input: unknown): Promise<PublicUser>;
  /** The operator only. */
  listUsers(caller: Caller): Promise<PublicUser[]>;
  /** The operator only: `{email, password}`. */
  setPassword(caller: Caller, input: unknown): Promise<void>;
  /** Emails of the given users, for a caller who may read the scope (e.g. its parameter sets' authors). */
  memberEmails(caller: Caller, scopeSlug: string, userIds: readonly string[]): Promise<Map<string, string>>;
}

/** Sign-in: no caller yet. */
export interface SignInServices {
  /** The user when the email and password match, else null (equally slow either way). */
  verifyCredentials(email: string, password: string): Promise<PublicUser | null>;
  /** Finds or creates the user for an email (OIDC sign-in). */
  ensureUserForEmail(email: string, name?: string): Promise<PublicUser>;
  /** The identity behind an API token's secret, or null for an unknown, malformed or revoked one. */
  authenticateToken(secret: string): Promise<TokenPrincipal | null>;
}

const emailInput = z.object({ email: z.string() });
const createScopeInput = z.object({ slug: z.string(), name: z.string(), isPublic: z.boolean().optional(), ownerEmail: z.string().optional() });
const memberRef = z.union([z.object({ userId: z.string() }), z.object({ email: z.string() })]);

function requireOperator(caller: Caller, what: string): void {
  if (!isOperator(caller)) throw new BeliefServiceError("forbidden", `only the operator may ${what}`);
}

export function identityServices(db: IdentityDb): IdentityServices {
  const userIdOrEmail = async (raw: unknown): Promise<string> => {
    const ref = parseServiceInput(memberRef, raw);
    return "userId" in ref ? ref.userId : (await requireUserByEmail(db, ref.email)).id;
  };
  return {
    listMyScopes: (caller) => listMyScopes(db, caller.userId),
    async listAllScopes(caller) {
      requireOperator(caller, "list every scope");
      return listAllScopes(db);
    },
    async getScope(caller, scopeSlug) {
      const view = await buildAuthorisedView(db, caller, scopeSlug);
      return view.home ? { ...view.home } : null;
    },
    async createScope(caller, raw) {
      const input = parseServiceInput(createScopeInput, raw);
      let ownerId: string;
      if (isOperator(caller)) {
        if (input.ownerEmail === undefined) throw new BeliefServiceError("invalid", "ownerEmail: required", { fields: [{ field: "ownerEmail", message: "required" }] });
        ownerId = (await requireUserByEmail(db, input.ownerEmail, "ownerEmail")).id;
      } else {
        // A token limited to one scope acts in that scope only: a new scope is outside it.
        if (caller.tokenScopeId !== null) throw new BeliefServiceError("forbidden", "a token limited to one scope cannot create scopes; use an unrestricted token");
        ownerId = caller.userId;
      }
      return createScope(db, { slug: input.slug, name: input.name, isPublic: input.isPublic, ownerId });
    },
    setScopePublic: (caller, scopeSlug, raw) => setScopePublic(db, caller, { ...asObject(raw), scopeSlug }),
    listMembers: (caller, scopeSlug) => listMembers(db, caller, scopeSlug),
    addMember: (caller, scopeSlug, raw) => addMember(db, caller, { ...asObject(raw), scopeSlug }),
    async changeRole(caller, scopeSlug, raw) {
      const userId = await userIdOrEmail(raw);
      return changeRole(db, caller, { ...asObject(raw), scopeSlug, userId });
    },
    async removeMember(caller, scopeSlug, raw) {
      const ref = parseServiceInput(memberRef, raw);
      return "userId" in ref ? removeMember(db, caller, { scopeSlug, userId: ref.userId }) : removeMemberByEmail(db, caller, { scopeSlug, email: ref.email });
    },
    listGrants: (caller, scopeSlug) => listGrants(db, caller, scopeSlug),
    listIncomingGrants: (caller, scopeSlug) => listIncomingGrants(db, caller, scopeSlug),
    addGrant: (caller, scopeSlug, raw) => addGrant(db, caller, { ...asObject(raw), fromSlug: scopeSlug }),
    removeGrant: (caller, scopeSlug, raw) => removeGrant(db, caller, { ...asObject(raw), fromSlug: scopeSlug }),
    async createToken(caller, raw) {
      const { email, ...rest } = asObject(raw);
      const userId = isOperator(caller) ? (await requireUserByEmail(db, parseServiceInput(emailInput, { email }).email)).id : caller.userId;
      return createToken(db, userId, rest);
    },
    async listTokens(caller, raw) {
      const userId = isOperator(caller) ? (await requireUserByEmail(db, parseServiceInput(emailInput, raw).email)).id : caller.userId;
      return listTokens(db, userId);
    },
    async revokeToken(caller, raw) {
      const { tokenId } = parseServiceInput(z.object({ tokenId: z.string() }), raw);
      return revokeToken(db, caller, tokenId);
    },
    listScopeTokens: (caller, scopeSlug) => listScopeTokens(db, caller, scopeSlug),
    async revokeScopeToken(caller, scopeSlug, raw) {
      const { tokenId } = parseServiceInput(z.object({ tokenId: z.string() }), raw);
      return revokeScopeToken(db, caller, scopeSlug, tokenId);
    },
    async createUser(caller, raw) {
      requireOperator(caller, "create users");
      return createUser(db, asObject(raw));
    },
    async listUsers(caller) {
      requireOperator(caller, "list users");
      return listUsers(db);
    },
    async setPassword(caller, raw) {
      requireOperator(caller, "set passwords");
      const input = parseServiceInput(z.object({ email: z.string(), password: z.string() }), raw);
      return setPassword(db, input.email, input.password);
    },
    async memberEmails(caller, scopeSlug, userIds) {
      await requireScopeRole(db, caller, scopeSlug, "read");
      return userEmails(db, userIds);
    },
  };
}

export function signInServices(db: IdentityDb): SignInServices {
  return {
    verifyCredentials: (email, password) => verifyCredentials(db, email, password),
    ensureUserForEmail: (email, name) => ensureUserForEmail(db, email, name),
    authenticateToken: (secret) => authenticateToken(db, secret),
  };
}

/** An input object's fields for the repository to parse (a non-object becomes `{}` and fails there, naming fields). */
function asObject(raw: unknown): Record<string, unknown> {
  return typeof raw === "object" && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
}
