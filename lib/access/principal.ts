import type { TokenPrincipal } from "@/lib/identity/tokens";

/** Who is asking: a user, through a session or through an API token that may be limited to one scope. */
export type Principal = {
  readonly userId: string;
  /** Set when the request came with a token limited to this scope: it sees only that scope as home. */
  readonly tokenScopeId: string | null;
};

export function sessionPrincipal(userId: string): Principal {
  return Object.freeze({ userId, tokenScopeId: null });
}

export function tokenPrincipal(token: TokenPrincipal): Principal {
  return Object.freeze({ userId: token.userId, tokenScopeId: token.scopeId });
}
