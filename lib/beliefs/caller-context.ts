/**
 * The caller's context for one request: the authorised view of the URL's scope (built by `lib/access` from Prisma,
 * or, for the operator, the same union computed without a membership), the role checks, and the actor string
 * written into history. The only place the services learn who may see what.
 */
import { buildAuthorisedView } from "@/lib/access/authorised-view";
import type { Database } from "@/lib/db/database";
import type { ScopeView } from "@/lib/graph/graph-store";
import { roleAtLeast, type Role } from "@/lib/identity/roles";
import { BeliefServiceError, scopeNotFoundError } from "./belief-service-error";
import type { Principal } from "@/lib/access/principal";
import type { Caller, OperatorCaller } from "./belief-services";

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
  /** The caller's role in the URL's scope (null for a public scope it is not a member of). */
  role: Role | null;
  /** True when the caller holds at least `minimum` in a scope it can see (the operator always does). */
  hasRole(scopeId: string, minimum: Role): boolean;
  canRead(scopeId: string): boolean;
}

export const OPERATOR_ACTOR = "operator";

export function isOperatorCaller(caller: Caller): caller is OperatorCaller {
  return "operator" in caller && caller.operator === true;
}

/**
 * Builds the context and checks `minimum` in the URL's scope: `read` needs only visibility (public scopes are
 * readable by every signed-in user); a scope the caller may not read → the same `not_found` as a missing one;
 * visible but too weak a role → `forbidden`.
 */
export async function callerContext(
  db: Pick<Database, "prisma">,
  caller: Caller,
  scopeSlug: string,
  minimum: Role | "read",
): Promise<CallerContext> {
  const context = isOperatorCaller(caller) ? await operatorContext(db, scopeSlug) : await principalContext(db, caller as Principal, scopeSlug);
  if (minimum !== "read" && !context.hasRole(context.scope.id, minimum)) {
    throw new BeliefServiceError("forbidden", `you need the ${minimum} role in scope ${scopeSlug} for this`);
  }
  return context;
}

async function principalContext(
  db: Pick<Database, "prisma">,
  caller: Principal,
  scopeSlug: string,
): Promise<CallerContext> {
  const authorised = await buildAuthorisedView(db, caller, scopeSlug);
  const home = authorised.home;
  if (home === null) throw scopeNotFoundError(scopeSlug);
  return {
    scope: { id: home.id, slug: home.slug, name: home.name, isPublic: home.isPublic },
    view: { homeScopeId: home.id, visibleScopeIds: authorised.visibleScopeIds },
    actor: caller.userId,
    role: home.role,
    hasRole: (scopeId, minimum) => authorised.hasRole(scopeId, minimum),
    canRead: (scopeId) => authorised.canRead(scopeId),
  };
}

/** The operator sees what a member of the scope would (home ∪ granted ∪ public) and passes every role check. */
async function operatorContext(db: Pick<Database, "prisma">, scopeSlug: string): Promise<CallerContext> {
  const scope = await db.prisma.scope.findUnique({ where: { slug: scopeSlug }, select: { id: true, slug: true, name: true, isPublic: true } });
  if (!scope) throw scopeNotFoundError(scopeSlug);
  const [granted, publicScopes] = await Promise.all([
    db.prisma.grant.findMany({ where: { toScopeId: scope.id }, select: { fromScopeId: true } }),
    db.prisma.scope.findMany({ where: { isPublic: true }, select: { id: true } }),
  ]);
  const visible = new Set<string>([scope.id, ...granted.map((g) => g.fromScopeId), ...publicScopes.map((s) => s.id)]);
  const visibleScopeIds = Object.freeze([...visible].sort());
  return {
    scope,
    view: { homeScopeId: scope.id, visibleScopeIds },
    actor: OPERATOR_ACTOR,
    role: "owner",
    hasRole: (scopeId) => visible.has(scopeId),
    canRead: (scopeId) => visible.has(scopeId),
  };
}

export { roleAtLeast };
