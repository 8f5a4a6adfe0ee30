/**
 * The caller's context for one request: the authorised view of the URL's scope, built by `lib/access` (the one
 * resolver, for users and the operator alike), the role checks, and the actor string written into history. The only
 * place the services learn who may see what.
 */
import { requireScopeRole, scopeViewOf } from "@/lib/access/authorised-view";
import { isOperator, OPERATOR_ACTOR, type Caller } from "@/lib/access/principal";
import type { IdentityDb } from "@/lib/identity/identity-db";
import type { ScopeParamsRepository, ScopeParamsView } from "@/lib/identity/scope-params";
import type { Role } from "@/lib/access/roles";
import type { MutationVia, ScopeView } from "@/lib/engine";

export interface ScopeRef {
  id: string;
  slug: string;
  name: string;
  isPublic: boolean;
}

export interface CallerContext {
  scope: ScopeRef;
  /** What the graph store filters by: anchored on `scope.id`. */
  view: ScopeView;
  /** Written as `actor` on history items, mutation records and evidence (`registeredBy`). */
  actor: string;
  /** How the request arrived (browser session, API token, operator), journaled on proposals. */
  via: MutationVia;
  /** The caller's role in the URL's scope (null for a public scope it is not a member of). */
  role: Role | null;
  /** True when the caller holds at least `minimum` in a scope it can see (the operator always does). */
  hasRole(scopeId: string, minimum: Role): boolean;
  canRead(scopeId: string): boolean;
  /** The parameter set that applies to new writes in the URL's scope, read with the view (the newest stored version). */
  params: ScopeParamsView;
}

/**
 * Builds the context (one statement for a user: view, role and the scope's parameters) and checks `minimum` in the URL's scope: `read` needs only visibility (public scopes are
 * readable by every signed-in user); a scope the caller may not read → the same `not_found` as a missing one;
 * visible but too weak a role → `forbidden`.
 */
export async function callerContext(db: IdentityDb, caller: Caller, scopeSlug: string, minimum: Role | "read", params: ScopeParamsRepository): Promise<CallerContext> {
  // The services' own database (never a transaction's client): the view's rows may be reused between requests while
  // nothing that decides access has changed (lib/access/access-cache).
  const { view, home, homeParams } = await requireScopeRole(db, caller, scopeSlug, minimum, { cached: true });
  return {
    // A user's view reads the scope's newest parameter set in its own statement; the operator's asks for it.
    params: homeParams === undefined ? await params.current(home.id) : params.fromStored(home.id, homeParams),
    scope: { id: home.id, slug: home.slug, name: home.name, isPublic: home.isPublic },
    view: scopeViewOf({ ...view, home }),
    actor: isOperator(caller) ? OPERATOR_ACTOR : caller.userId,
    via: isOperator(caller) ? { kind: "operator" } : caller.token ? { kind: "token", tokenId: caller.token.id, tokenName: caller.token.name } : { kind: "session" },
    role: home.role,
    hasRole: (scopeId, minimum) => view.hasRole(scopeId, minimum),
    canRead: (scopeId) => view.canRead(scopeId),
  };
}
