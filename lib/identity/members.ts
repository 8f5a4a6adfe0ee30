import { z } from "zod";
import type { AppPrismaTransaction } from "@/lib/db/prisma-client";
import { isUniqueViolation } from "./errors";
import { fieldError, parseServiceInput } from "@/lib/errors/belief-service-error";
import { callerOf, userIdOf, type Actor, type IdentityDb } from "./identity-db";
import type { Role } from "@/lib/access/roles";
import { requireScopeRole } from "@/lib/access/authorised-view";
import { emailSchema, idSchema, roleSchema, slugSchema } from "./schemas";
import { requireUserByEmail } from "./users";

export type MemberView = { userId: string; email: string; name: string | null; role: Role; createdAt: Date };

/** The roster, for members of the scope (any role); others get `not_found` as for a missing scope. */
export async function listMembers(db: IdentityDb, actor: Actor, scopeSlug: string): Promise<MemberView[]> {
  const { home: scope } = await requireScopeRole(db, callerOf(actor), scopeSlug, "viewer");
  const rows = await db.prisma.membership.findMany({
    where: { scopeId: scope.id },
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
  });
  return rows
    .map((row) => ({ userId: row.user.id, email: row.user.email, name: row.user.name, role: row.role, createdAt: row.createdAt }))
    .sort((a, b) => a.email.localeCompare(b.email));
}

const addMemberInput = z.object({ scopeSlug: slugSchema, email: emailSchema, role: roleSchema });

/** Owner only: adds an existing user, by email, with a role. */
export async function addMember(db: IdentityDb, actor: Actor, input: unknown): Promise<MemberView> {
  const data = parseServiceInput(addMemberInput, input);
  const { home: scope } = await requireScopeRole(db, callerOf(actor), data.scopeSlug, "owner");
  const user = await requireUserByEmail(db, data.email);
  try {
    const membership = await db.prisma.membership.create({
      data: { scopeId: scope.id, userId: user.id, role: data.role },
      select: { role: true, createdAt: true },
    });
    return { userId: user.id, email: user.email, name: user.name, ...membership };
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError("conflict", `${user.email} is already a member of ${scope.slug}`, "email");
    throw error;
  }
}

const changeRoleInput = z.object({ scopeSlug: slugSchema, userId: idSchema, role: roleSchema });

/** Owner only; demoting the last owner is refused (`last_owner`). */
export async function changeRole(db: IdentityDb, actor: Actor, input: unknown): Promise<void> {
  const data = parseServiceInput(changeRoleInput, input);
  const { home: scope } = await requireScopeRole(db, callerOf(actor), data.scopeSlug, "owner");
  await db.prisma.$transaction(async (tx) => {
    const current = await lockMembership(tx, scope.id, data.userId, scope.slug);
    if (current === "owner" && data.role !== "owner") await refuseLastOwner(tx, scope.id, scope.slug, "demote");
    await tx.membership.update({
      where: { scopeId_userId: { scopeId: scope.id, userId: data.userId } },
      data: { role: data.role },
    });
  });
}

const removeMemberInput = z.object({ scopeSlug: slugSchema, userId: idSchema });

/** Owner only, or a member leaving; removing the last owner is refused (`last_owner`). */
export async function removeMember(db: IdentityDb, actor: Actor, input: unknown): Promise<void> {
  const data = parseServiceInput(removeMemberInput, input);
  const leaving = userIdOf(actor) === data.userId;
  const { home: scope } = await requireScopeRole(db, callerOf(actor), data.scopeSlug, leaving ? "viewer" : "owner");
  await db.prisma.$transaction(async (tx) => {
    const current = await lockMembership(tx, scope.id, data.userId, scope.slug);
    if (current === "owner") await refuseLastOwner(tx, scope.id, scope.slug, "remove");
    await tx.membership.delete({ where: { scopeId_userId: { scopeId: scope.id, userId: data.userId } } });
  });
}

/**
 * Locks the scope's row so concurrent role changes in one scope run one after another (two owners demoting each
 * other at once must not leave the scope ownerless), then returns the member's current role.
 */
async function lockMembership(tx: AppPrismaTransaction, scopeId: string, userId: string, slug: string): Promise<Role> {
  await tx.$queryRaw`SELECT "id" FROM "scopes" WHERE "id" = ${scopeId} FOR UPDATE`;
  const membership = await tx.membership.findUnique({
    where: { scopeId_userId: { scopeId, userId } },
    select: { role: true },
  });
  if (!membership) throw fieldError("not_found", `that user is not a member of ${slug}`, "userId");
  return membership.role;
}

async function refuseLastOwner(tx: AppPrismaTransaction, scopeId: string, slug: string, verb: "demote" | "remove"): Promise<void> {
  const owners = await tx.membership.count({ where: { scopeId, role: "owner" } });
  if (owners <= 1) {
    throw fieldError("conflict", `cannot ${verb} the last owner of ${slug}; make someone else owner first`, "userId", { reason: "last_owner" });
  }
}

const removeByEmailInput = z.object({ scopeSlug: slugSchema, email: emailSchema });

/** removeMember by email (the CLI). */
export async function removeMemberByEmail(db: IdentityDb, actor: Actor, input: unknown): Promise<void> {
  const data = parseServiceInput(removeByEmailInput, input);
  const user = await requireUserByEmail(db, data.email);
  await removeMember(db, actor, { scopeSlug: data.scopeSlug, userId: user.id });
}
