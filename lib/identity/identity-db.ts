import type { Database } from "@/lib/db/database";

/** What identity services need from a Database: only Prisma. */
export type IdentityDb = Pick<Database, "prisma">;

/** The operator (the CLI on the machine itself) acts without a user and passes every role check. */
export const OPERATOR = Object.freeze({ operator: true as const });

/** A signed-in user's id, or the operator. */
export type Actor = string | typeof OPERATOR;

export function isOperator(actor: Actor): actor is typeof OPERATOR {
  return actor === OPERATOR;
}
