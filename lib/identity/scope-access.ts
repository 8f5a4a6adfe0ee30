import { BeliefServiceError, scopeNotFoundError } from "@/lib/beliefs/belief-service-error";
import { isOperator, type Actor, type IdentityDb } from "./identity-db";
import { roleAtLeast, type Role } from "./roles";
import type { PrismaExecutor } from "@/lib/db/prisma-client";

export type ScopeRecord = { id: string; slug: string; name: string; isPublic: boolean; createdAt: Date };

const scopeSelect = { id: true, slug: true, name: true, isPublic: true, createdAt: true } as const;

/**
 * The scope `slug` as `actor` sees it, checked against `minimum`, in one query with the visibility condition
 * inside it: a private scope the actor is not a member of is `not_found`, exactly like a missing slug (SPEC §5).
 * A scope the actor can see (member or public) but with too weak a role is `forbidden`.
 */
export async function requireScopeRole(
  db: IdentityDb | { prisma: PrismaExecutor },
  actor: Actor,
  slug: string,
  minimum: Role,
): Promise<{ scope: ScopeRecord; role: Role | null }> {
  if (isOperator(actor)) {
    const scope = await db.prisma.scope.findUnique({ where: { slug }, select: scopeSelect });
    if (!scope) throw scopeNotFoundError(slug);
    return { scope, role: "owner" };
  }
  const found = await db.prisma.scope.findFirst({
    where: { slug, OR: [{ isPublic: true }, { memberships: { some: { userId: actor } } }] },
    select: { ...scopeSelect, memberships: { where: { userId: actor }, select: { role: true } } },
  });
  if (!found) throw scopeNotFoundError(slug);
  const { memberships, ...scope } = found;
  const role = memberships[0]?.role ?? null;
  if (!roleAtLeast(role, minimum)) {
    throw new BeliefServiceError("forbidden", `you need the ${minimum} role in scope ${slug} for this`);
  }
  return { scope, role };
}

