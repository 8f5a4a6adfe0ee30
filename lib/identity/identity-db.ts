import { isOperator, sessionPrincipal, type Caller } from "@/lib/access/principal";
import type { Database } from "@/lib/db/database";

/** What the identity repositories need from a Database: only Prisma. */
export type IdentityDb = Pick<Database, "prisma">;

/** A signed-in user's id, or any caller (a principal or the operator, `OPERATOR` of `lib/access`). */
export type Actor = string | Caller;

/** The caller an actor stands for: a user id acts through a session principal. */
export function callerOf(actor: Actor): Caller {
  return typeof actor === "string" ? sessionPrincipal(actor) : actor;
}

/** The user id behind an actor, or null for the operator. */
export function userIdOf(actor: Actor): string | null {
  const caller = callerOf(actor);
  return isOperator(caller) ? null : caller.userId;
}
