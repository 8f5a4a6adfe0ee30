import { BeliefServiceError, scopeNotFoundError } from "@/lib/errors/belief-service-error";
import type { Database } from "@/lib/db/database";
import { isRole, roleAtLeast, type Role } from "./roles";
import { isOperator, type Caller, type Operator, type Principal } from "./principal";
import { cachedAccess } from "./access-cache";

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

/** The newest stored parameter set of the home scope, read with the view (null: the scope has none, defaults apply). */
export type HomeParamsRow = {
  readonly version: number;
  readonly params: unknown;
  readonly createdAt: Date;
  readonly createdById: string | null;
};

/** One row of the view statement: the home scope (with its newest parameter set), a granting scope, or a public one. */
type ViewRow = {
  via: "home" | "grant" | "public";
  id: string;
  slug: string;
  name: string;
  is_public: boolean;
  created_at: Date;
  role: string | null;
  params_version: number | null;
  params: unknown;
  params_created_at: Date | null;
  params_created_by: string | null;
};

/**
 * The whole view in ONE statement whose shape does not depend on whether the home scope exists or is visible (no
 * oracle by construction): the home scope with the principal's membership and the scope's newest parameter set, the
 * scopes granting to it (only when the principal is a member of it), and the public scopes (not for a token limited
 * to another scope), each with the principal's membership. A membership, grant, visibility or parameter change
 * applies to the next request, on every server: rows kept between requests (`ViewOptions.cached`) are reused only
 * while the database's access counter has not moved (./access-cache).
 */
async function readViewRows(db: Pick<Database, "prisma">, userId: string, tokenScopeId: string | null, slug: string): Promise<ViewRow[]> {
  return db.prisma.$queryRaw<ViewRow[]>`
    WITH home AS (
      SELECT s.id, s.slug, s.name, s.is_public, s.created_at, m.role::text AS role
      FROM scopes s LEFT JOIN memberships m ON m.scope_id = s.id AND m.user_id = ${userId}
      WHERE s.slug = ${slug} AND (${tokenScopeId}::text IS NULL OR s.id = ${tokenScopeId}::text)
        AND (s.is_public OR m.user_id IS NOT NULL)
    )
    SELECT 'home' AS via, h.id, h.slug, h.name, h.is_public, h.created_at, h.role,
           p.version AS params_version, p.params, p.created_at AS params_created_at, p.created_by_id AS params_created_by
    FROM home h
    LEFT JOIN LATERAL (SELECT version, params, created_at, created_by_id FROM scope_params
                       WHERE scope_id = h.id ORDER BY version DESC LIMIT 1) p ON TRUE
    UNION ALL
    SELECT 'grant', s.id, s.slug, s.name, s.is_public, s.created_at, m.role::text, NULL, NULL, NULL, NULL
    FROM scope_grants g JOIN scopes s ON s.id = g.from_scope_id
    LEFT JOIN memberships m ON m.scope_id = s.id AND m.user_id = ${userId}
    WHERE g.to_scope_id IN (SELECT id FROM home WHERE role IS NOT NULL)
    UNION ALL
    SELECT 'public', s.id, s.slug, s.name, s.is_public, s.created_at, m.role::text, NULL, NULL, NULL, NULL
    FROM scopes s LEFT JOIN memberships m ON m.scope_id = s.id AND m.user_id = ${userId}
    WHERE s.is_public AND (${tokenScopeId}::text IS NULL OR EXISTS (SELECT 1 FROM home))`;
}

function roleOf(value: string | null): Role | null {
  if (value === null) return null;
  if (!isRole(value)) throw new Error(`unknown role ${value} in memberships`);
  return value;
}

export interface ViewOptions {
  /**
   * Reuse the view's rows read by an earlier request while the access counter has not moved (./access-cache): only
   * on the database itself (never a transaction's client) and only inside a request.
   */
  cached?: boolean;
}

/** The view and, for a user principal, the home scope's newest parameter set read in the same statement. */
export async function buildAuthorisedViewWithParams(
  db: Pick<Database, "prisma">,
  caller: Caller,
  homeScopeSlug: string,
  options: ViewOptions = {},
): Promise<{ view: AuthorisedView; homeParams: HomeParamsRow | null | undefined }> {
  if (isOperator(caller)) return { view: await buildOperatorView(db, caller, homeScopeSlug), homeParams: undefined };
  const principal = caller;
  const { userId, tokenScopeId } = principal;
  const read = () => readViewRows(db, userId, tokenScopeId, homeScopeSlug);
  const rows = options.cached ? await cachedAccess(db, `view\u0000${userId}\u0000${tokenScopeId ?? ""}\u0000${homeScopeSlug}`, read) : await read();
  const homeRow = rows.find((r) => r.via === "home");
  const home: HomeScope | null = homeRow
    ? Object.freeze({
        id: homeRow.id,
        slug: homeRow.slug,
        name: homeRow.name,
        isPublic: homeRow.is_public,
        createdAt: homeRow.created_at,
        role: roleOf(homeRow.role),
      })
    : null;
  const homeParams: HomeParamsRow | null =
    homeRow && homeRow.params_version !== null && homeRow.params_created_at !== null
      ? { version: Number(homeRow.params_version), params: homeRow.params, createdAt: homeRow.params_created_at, createdById: homeRow.params_created_by }
      : null;

  const roles = new Map<string, Role | null>();
  if (home) roles.set(home.id, home.role);
  // A scope-limited token acts in its scope only: elsewhere it reads, never with the user's roles.
  const rolesOutsideHome = tokenScopeId === null;
  // Grants first, then public scopes (as the view always added them).
  for (const via of ["grant", "public"] as const) {
    for (const row of rows) {
      if (row.via !== via || roles.has(row.id)) continue;
      roles.set(row.id, rolesOutsideHome ? roleOf(row.role) : null);
    }
  }
  const visibleScopeIds = Object.freeze([...roles.keys()].sort());
  const frozenRoles: ReadonlyMap<string, Role | null> = roles;

  return {
    view: Object.freeze({
      principal,
      home,
      visibleScopeIds,
      canRead: (scopeId: string) => frozenRoles.has(scopeId),
      roleIn: (scopeId: string) => frozenRoles.get(scopeId) ?? null,
      hasRole: (scopeId: string, minimum: Role) => roleAtLeast(frozenRoles.get(scopeId), minimum),
    }),
    homeParams,
  };
}

/**
 * What one principal may resolve from one home scope, in one statement (`buildAuthorisedViewWithParams`).
 */
export async function buildAuthorisedView(db: Pick<Database, "prisma">, caller: Caller, homeScopeSlug: string): Promise<AuthorisedView> {
  return (await buildAuthorisedViewWithParams(db, caller, homeScopeSlug)).view;
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
export async function requireScopeRole(
  db: Pick<Database, "prisma">,
  caller: Caller,
  slug: string,
  minimum: Role | "read",
  options: ViewOptions = {},
): Promise<{ view: AuthorisedView; home: HomeScope; homeParams: HomeParamsRow | null | undefined }> {
  const { view, homeParams } = await buildAuthorisedViewWithParams(db, caller, slug, options);
  if (view.home === null) throw scopeNotFoundError(slug);
  if (minimum !== "read" && !view.hasRole(view.home.id, minimum)) {
    throw new BeliefServiceError("forbidden", `you need the ${minimum} role in scope ${slug} for this`);
  }
  return { view, home: view.home, homeParams };
}

/** What the graph stores filter by: the view anchored on its home scope. */
export function scopeViewOf(view: AuthorisedView & { home: HomeScope }): { homeScopeId: string; visibleScopeIds: readonly string[] } {
  return { homeScopeId: view.home.id, visibleScopeIds: view.visibleScopeIds };
}
