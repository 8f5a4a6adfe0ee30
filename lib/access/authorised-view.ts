import { BeliefServiceError, scopeNotFoundError } from "@/lib/beliefs/belief-service-error";
import type { Database } from "@/lib/db/database";
import { roleAtLeast, type Role } from "@/lib/identity/roles";
import { isOperator, type Caller, type Operator, type Principal } from "./principal";

export type HomeScope = {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly isPublic: boolean;
  readonly createdAt: Date;
  /** Null for a public scope the principal is not a member of. */
  readonly role: Role | null;
};

/**
 * What one principal may resolve from one home scope (docs/design.md §5): the home scope if they are a member, ∪ the scopes
 * that granted the home scope, ∪ public scopes. Immutable; the only thing the graph stores filter by.
 */
export type AuthorisedView = {
  readonly principal: Principal | Operator;
  /** The URL's scope if the principal may read it, else null (answer exactly as for a scope that does not exist). */
  readonly home: HomeScope | null;
  /** Sorted, duplicate-free. */
  readonly visibleScopeIds: readonly string[];
  canRead(scopeId: string): boolean;
  /** The principal's membership role in a visible scope (null when not a member or not visible). */
  roleIn(scopeId: string): Role | null;
  /** roleIn(scopeId) is at least `minimum`. */
  hasRole(scopeId: string, minimum: Role): boolean;
};

/**
 * Builds the view in three queries whose shape does not depend on whether the home scope exists or is visible
 * (no oracle by construction): the home scope with the principal's membership, the grants into it, and the
 * public scopes with the principal's memberships in them.
 */
export async function buildAuthorisedView(db: Pick<Database, "prisma">, caller: Caller, homeScopeSlug: string): Promise<AuthorisedView> {
  if (isOperator(caller)) return buildOperatorView(db, caller, homeScopeSlug);
  const principal = caller;
  const { userId, tokenScopeId } = principal;
  const homeRow = await db.prisma.scope.findFirst({
    where: {
      slug: homeScopeSlug,
      // A scope-limited token sees only its scope as home.
      ...(tokenScopeId === null ? {} : { id: tokenScopeId }),
      OR: [{ isPublic: true }, { memberships: { some: { userId } } }],
    },
    select: { id: true, slug: true, name: true, isPublic: true, createdAt: true, memberships: { where: { userId }, select: { role: true } } },
  });
  const home: HomeScope | null = homeRow
    ? Object.freeze({
        id: homeRow.id,
        slug: homeRow.slug,
        name: homeRow.name,
        isPublic: homeRow.isPublic,
        createdAt: homeRow.createdAt,
        role: homeRow.memberships[0]?.role ?? null,
      })
    : null;
  // Grants are for the home scope's members (docs/design.md §5: "T's members may resolve S's items").
  const grantedTo = home?.role ? home.id : "";
  const [granted, publicScopes] = await Promise.all([
    db.prisma.grant.findMany({
      where: { toScopeId: grantedTo },
      select: { fromScope: { select: { id: true, memberships: { where: { userId }, select: { role: true } } } } },
    }),
    // A token limited to scope X sees no public scope as home, but may still resolve public items from X.
    home === null && tokenScopeId !== null
      ? Promise.resolve([])
      : db.prisma.scope.findMany({
          where: { isPublic: true },
          select: { id: true, memberships: { where: { userId }, select: { role: true } } },
        }),
  ]);

  const roles = new Map<string, Role | null>();
  if (home) roles.set(home.id, home.role);
  // A scope-limited token acts in its scope only: elsewhere it reads, never with the user's roles.
  const rolesOutsideHome = tokenScopeId === null;
  for (const { fromScope } of granted) {
    if (!roles.has(fromScope.id)) roles.set(fromScope.id, rolesOutsideHome ? (fromScope.memberships[0]?.role ?? null) : null);
  }
  for (const scope of publicScopes) {
    if (!roles.has(scope.id)) roles.set(scope.id, rolesOutsideHome ? (scope.memberships[0]?.role ?? null) : null);
  }
  const visibleScopeIds = Object.freeze([...roles.keys()].sort());
  const frozenRoles: ReadonlyMap<string, Role | null> = roles;

  return Object.freeze({
    principal,
    home,
    visibleScopeIds,
    canRead: (scopeId: string) => frozenRoles.has(scopeId),
    roleIn: (scopeId: string) => frozenRoles.get(scopeId) ?? null,
    hasRole: (scopeId: string, minimum: Role) => roleAtLeast(frozenRoles.get(scopeId), minimum),
  });
}

/**
 * The operator's view: the same union (home ∪ scopes granted to home ∪ public scopes), with the owner role in every
 * scope of it. The operator acts on the machine itself, so a missing scope is still `home: null`.
 */
async function buildOperatorView(db: Pick<Database, "prisma">, operator: Operator, homeScopeSlug: string): Promise<AuthorisedView> {
  const homeRow = await db.prisma.scope.findUnique({ where: { slug: homeScopeSlug }, select: { id: true, slug: true, name: true, isPublic: true, createdAt: true } });
  const home: HomeScope | null = homeRow ? Object.freeze({ ...homeRow, role: "owner" as const }) : null;
  const [granted, publicScopes] = await Promise.all([
    db.prisma.grant.findMany({ where: { toScopeId: home?.id ?? "" }, select: { fromScopeId: true } }),
    db.prisma.scope.findMany({ where: { isPublic: true }, select: { id: true } }),
  ]);
  const visible = new Set<string>(home ? [home.id] : []);
  for (const g of granted) visible.add(g.fromScopeId);
  for (const p of publicScopes) visible.add(p.id);
  const visibleScopeIds = Object.freeze([...visible].sort());
  return Object.freeze({
    principal: operator,
    home,
    visibleScopeIds,
    canRead: (scopeId: string) => visible.has(scopeId),
    roleIn: (scopeId: string) => (visible.has(scopeId) ? ("owner" as const) : null),
    hasRole: (scopeId: string) => visible.has(scopeId),
  });
}

/**
 * The scope `slug` as `caller` sees it, checked against `minimum` (docs/design.md §5): a scope the caller may not read is
 * `not_found`, exactly like a missing slug; a readable scope with too weak a role is `forbidden`.
 */
export async function requireScopeRole(db: Pick<Database, "prisma">, caller: Caller, slug: string, minimum: Role | "read"): Promise<{ view: AuthorisedView; home: HomeScope }> {
  const view = await buildAuthorisedView(db, caller, slug);
  if (view.home === null) throw scopeNotFoundError(slug);
  if (minimum !== "read" && !view.hasRole(view.home.id, minimum)) {
    throw new BeliefServiceError("forbidden", `you need the ${minimum} role in scope ${slug} for this`);
  }
  return { view, home: view.home };
}

/** What the graph stores filter by: the view anchored on its home scope. */
export function scopeViewOf(view: AuthorisedView & { home: HomeScope }): { homeScopeId: string; visibleScopeIds: readonly string[] } {
  return { homeScopeId: view.home.id, visibleScopeIds: view.visibleScopeIds };
}
