import type { z } from "zod";

/** Stable codes the boundaries map to statuses: not_found 404, conflict 409, invalid 422, forbidden 403, last_owner 409, unauthenticated 401. */
export type DomainErrorCode = "not_found" | "conflict" | "invalid" | "forbidden" | "last_owner" | "unauthenticated";

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** The input field the message is about, for forms. */
    readonly field?: string,
  ) {
    super(message);
    this.name = "DomainError";
  }
}

/** Parses a service input once; the first problem becomes an `invalid` DomainError naming its field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.map(String).join(".") || undefined;
  throw new DomainError("invalid", field ? `${field}: ${issue?.message}` : (issue?.message ?? "invalid input"), field);
}

/** Prisma's unique-constraint violation (P2002), through any driver adapter. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === "P2002";
}
