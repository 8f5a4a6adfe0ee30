import { z } from "zod";
import { isForeignKeyViolation, isUniqueViolation } from "./errors";
import { fieldError, parseServiceInput } from "@/lib/errors/belief-service-error";
import { callerOf, type Actor, type IdentityDb } from "./identity-db";
import type { Role } from "@/lib/access/roles";
import { requireScopeRole } from "@/lib/access/authorised-view";
import { idSchema, scopeNameSchema, slugSchema } from "./schemas";

export type ScopeSummary = {
  id: string;
  slug: string;
  name: string;
  isPublic: boolean;
  createdAt: Date;
  /** The viewer's role; null for a public scope the viewer is not a member of. */
  role: Role | null;
};

const createScopeInput = z.object({
  slug: slugSchema,
  name: scopeNameSchema,
  ownerId: idSchema,
  isPublic: z.boolean().default(false),
});

/** Creates a scope with `ownerId` as its first owner, atomically. */
export async function createScope(db: IdentityDb, input: unknown): Promise<ScopeSummary> {
  const data = parseServiceInput(createScopeInput, input);
  try {
    const scope = await db.prisma.scope.create({
      data: {
        slug: data.slug,
        name: data.name,
        isPublic: data.isPublic,
        memberships: { create: { userId: data.ownerId, role: "owner" } },
      },
      select: { id: true, slug: true, name: true, isPublic: true, createdAt: true },
    });
    return { ...scope, role: "owner" };
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError("conflict", `a scope with slug ${data.slug} already exists`, "slug");
    if (isForeignKeyViolation(error)) throw fieldError("not_found", "the owner does not exist", "ownerId");
    throw error;
  }
}

/**
 * Removes a scope row (memberships, parameter sets and tokens limited to it go with it). Only for undoing a scope that
 * was created a moment ago for an import that then failed, while it still holds nothing in the graph store.
 */
export async function discardNewScope(db: IdentityDb, scopeId: string): Promise<void> {
  await db.prisma.scope.deleteMany({ where: { id: scopeId } });
}

/** The scopes `userId` is a member of, with the role, by name. */
export async function listMyScopes(db: IdentityDb, userId: string): Promise<ScopeSummary[]> {
  const memberships = await db.prisma.membership.findMany({
    where: { userId },
    select: { role: true, scope: { select: { id: true, slug: true, name: true, isPublic: true, createdAt: true } } },
  });
  return memberships
    .map(({ role, scope }) => ({ ...scope, role }))
    .sort((a, b) => a.name.localeCompare(b.name) || a.slug.localeCompare(b.slug));
}

/** Every scope, for operators (the CLI). */
export async function listAllScopes(db: IdentityDb): Promise<(Omit<ScopeSummary, "role"> & { memberCount: number })[]> {
  const scopes = await db.prisma.scope.findMany({
    orderBy: { slug: "asc" },
    select: { id: true, slug: true, name: true, isPublic: true, createdAt: true, _count: { select: { memberships: true } } },
  });
  return scopes.map(({ _count, ...scope }) => ({ ...scope, memberCount: _count.memberships }));
}

/**
 * The scope as `userId` may see it, or null — for a private scope they are not a member of and for a slug that
 * does not exist alike, decided in one query with the visibility condition inside it (docs/design.md §5, no oracle).
 */
export async function getScopeForViewer(db: IdentityDb, userId: string, slug: string): Promise<(ScopeSummary & { settings: unknown }) | null> {
  const found = await db.prisma.scope.findFirst({
    where: { slug, OR: [{ isPublic: true }, { memberships: { some: { userId } } }] },
    select: {
      id: true,
      slug: true,
      name: true,
      isPublic: true,
      createdAt: true,
      settings: true,
      memberships: { where: { userId }, select: { role: true } },
    },
  });
  if (!found) return null;
  const { memberships, ...scope } = found;
  return { ...scope, role: memberships[0]?.role ?? null };
}

const setPublicInput = z.object({ scopeSlug: slugSchema, isPublic: z.boolean() });

/** Owner only: a public scope is readable by every signed-in user. */
export async function setScopePublic(db: IdentityDb, actor: Actor, input: unknown): Promise<void> {
  const data = parseServiceInput(setPublicInput, input);
  const { home: scope } = await requireScopeRole(db, callerOf(actor), data.scopeSlug, "owner");
  await db.prisma.scope.update({ where: { id: scope.id }, data: { isPublic: data.isPublic } });
}
