/** Weakest first: editor writes, reviewer also decides mutations and lifts freezes, owner also administers (docs/design.md §5). */
export const ROLES = ["viewer", "editor", "reviewer", "owner"] as const;
export type Role = (typeof ROLES)[number];

export function roleRank(role: Role): number {
  return ROLES.indexOf(role);
}

/** True when `role` is `minimum` or stronger; no role is never enough. */
export function roleAtLeast(role: Role | null | undefined, minimum: Role): boolean {
  return role != null && roleRank(role) >= roleRank(minimum);
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}
