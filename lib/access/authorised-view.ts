import type { IdentityDb } from "@/lib/identity/identity-db";
import { roleAtLeast, type Role } from "@/lib/identity/roles";
import type { Principal } from "./principal";

export type HomeScope = {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly isPublic: boolean;
  /** Null for a public scope the principal is not a member of. */
  readonly role: Role | null;
};

/**
 * What one principal may resolve from one home scope (SPEC §5): the home scope if they are a member, ∪ the scopes
 * that granted the home scope, ∪ public scopes. Immutable; the only thing the graph stores filter by.
 */
export type AuthorisedView = {
  readonly principal: Principal;
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
export async function buildAuthorisedView(db: IdentityDb, principal: Principal, homeScopeSlug: string): Promise<AuthorisedView> {
  const { userId, tokenScopeId } = principal;
  const homeRow = await db.prisma.scope.findFirst({
    where: {
      slug: homeScopeSlug,
      // A scope-limited token sees only its scope as home.
      ...(tokenScopeId === null ? {} : { id: tokenScopeId }),
      OR: [{ isPublic: true }, { memberships: { some: { userId } } }],
    },
    select: { id: true, slug: true, name: true, isPublic: true, memberships: { where: { userId }, select: { role: true } } },
  });
  const home: HomeScope | null = homeRow
    ? Object.freeze({
        id: homeRow.id,
        slug: homeRow.slug,
        name: homeRow.name,
        isPublic: homeRow.isPublic,
        role: homeRow.memberships[0]?.role ?? null,
      })
    : null;
  // Grants are for the home scope's members (SPEC §5: "T's members may resolve S's items").
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
