import type { Database } from "@/lib/db/database";
import type { Role } from "./roles";
import type { Principal } from "./principal";

/** A user principal, or the operator (`{operator: true}`: owner of every scope). */
export type ScopeListCaller = Principal | { readonly operator: true };

/** A scope the principal may open as its home scope (the `{scope}` of a URL), with its role there. */
export type ReadableScope = {
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly isPublic: boolean;
  /** The principal's membership role; null for a public scope it is not a member of. */
  readonly role: Role | null;
};

/**
 * Every scope the authorised view would accept as home for this caller, in one query: the scopes a user is a member
 * of and the public ones; a token limited to one scope gets that scope only (if it may still read it); the operator
 * every scope, as owner. By name.
 */
export async function listReadableScopes(db: Pick<Database, "prisma">, caller: ScopeListCaller): Promise<ReadableScope[]> {
  if ("operator" in caller) return listAllScopesAsOwner(db);
  const { userId, tokenScopeId } = caller;
  const rows = await db.prisma.scope.findMany({
    where: {
      ...(tokenScopeId === null ? {} : { id: tokenScopeId }),
      OR: [{ isPublic: true }, { memberships: { some: { userId } } }],
    },
    select: { id: true, slug: true, name: true, isPublic: true, memberships: { where: { userId }, select: { role: true } } },
  });
  return rows
    .map((row) => Object.freeze({ id: row.id, slug: row.slug, name: row.name, isPublic: row.isPublic, role: row.memberships[0]?.role ?? null }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.slug.localeCompare(b.slug));
}

/** Every scope, as the operator (owner everywhere) sees them. */
async function listAllScopesAsOwner(db: Pick<Database, "prisma">): Promise<ReadableScope[]> {
  const rows = await db.prisma.scope.findMany({ select: { id: true, slug: true, name: true, isPublic: true } });
  return rows
    .map((row) => Object.freeze({ ...row, role: "owner" as const }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.slug.localeCompare(b.slug));
}
