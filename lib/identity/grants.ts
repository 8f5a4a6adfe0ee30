import { z } from "zod";
import { isUniqueViolation } from "./errors";
import { fieldError, parseServiceInput, scopeNotFoundError } from "@/lib/errors/belief-service-error";
import { callerOf, userIdOf, type Actor, type IdentityDb } from "./identity-db";
import { requireScopeRole } from "@/lib/access/authorised-view";
import { slugSchema } from "./schemas";

export type GrantView = {
  id: string;
  fromScopeId: string;
  fromSlug: string;
  fromName: string;
  toScopeId: string;
  toSlug: string;
  toName: string;
  createdAt: Date;
};

const grantInput = z.object({ fromSlug: slugSchema, toSlug: slugSchema });

const grantSelect = {
  id: true,
  createdAt: true,
  fromScope: { select: { id: true, slug: true, name: true } },
  toScope: { select: { id: true, slug: true, name: true } },
} as const;

type GrantRow = {
  id: string;
  createdAt: Date;
  fromScope: { id: string; slug: string; name: string };
  toScope: { id: string; slug: string; name: string };
};

function toView(row: GrantRow): GrantView {
  return {
    id: row.id,
    fromScopeId: row.fromScope.id,
    fromSlug: row.fromScope.slug,
    fromName: row.fromScope.name,
    toScopeId: row.toScope.id,
    toSlug: row.toScope.slug,
    toName: row.toScope.name,
    createdAt: row.createdAt,
  };
}

/**
 * An owner of `from` lets scope `to` resolve `from`'s items (docs/design.md §5). `to` is named by slug and need not be
 * visible to the owner: granting reveals nothing about it.
 */
export async function addGrant(db: IdentityDb, actor: Actor, input: unknown): Promise<GrantView> {
  const data = parseServiceInput(grantInput, input);
  const { home: from } = await requireScopeRole(db, callerOf(actor), data.fromSlug, "owner");
  if (data.toSlug === from.slug) throw fieldError("invalid", "a scope always resolves its own items", "toSlug");
  const to = await db.prisma.scope.findUnique({ where: { slug: data.toSlug }, select: { id: true } });
  if (!to) throw scopeNotFoundError(data.toSlug, "toSlug");
  try {
    const row = await db.prisma.grant.create({
      data: { fromScopeId: from.id, toScopeId: to.id, createdById: userIdOf(actor) },
      select: grantSelect,
    });
    return toView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError("conflict", `${data.toSlug} may already resolve ${from.slug}'s items`, "toSlug");
    throw error;
  }
}

/** Owner of `from` only. */
export async function removeGrant(db: IdentityDb, actor: Actor, input: unknown): Promise<void> {
  const data = parseServiceInput(grantInput, input);
  const { home: from } = await requireScopeRole(db, callerOf(actor), data.fromSlug, "owner");
  const deleted = await db.prisma.grant.deleteMany({ where: { fromScopeId: from.id, toScope: { slug: data.toSlug } } });
  if (deleted.count === 0) throw fieldError("not_found", `${data.toSlug} has no grant from ${from.slug}`, "toSlug");
}

/** Grants out of `scopeSlug` (who may resolve its items), for its members. */
export async function listGrants(db: IdentityDb, actor: Actor, scopeSlug: string): Promise<GrantView[]> {
  const { home: scope } = await requireScopeRole(db, callerOf(actor), scopeSlug, "viewer");
  const rows = await db.prisma.grant.findMany({ where: { fromScopeId: scope.id }, select: grantSelect, orderBy: { createdAt: "asc" } });
  return rows.map(toView);
}

/** Grants into `scopeSlug` (whose items its members may resolve), for its members. */
export async function listIncomingGrants(db: IdentityDb, actor: Actor, scopeSlug: string): Promise<GrantView[]> {
  const { home: scope } = await requireScopeRole(db, callerOf(actor), scopeSlug, "viewer");
  const rows = await db.prisma.grant.findMany({ where: { toScopeId: scope.id }, select: grantSelect, orderBy: { createdAt: "asc" } });
  return rows.map(toView);
}
