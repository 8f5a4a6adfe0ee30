/** Who is asking: a user, through a session or through an API token that may be limited to one scope. */
export type Principal = {
  readonly userId: string;
  /** Set when the request came with a token limited to this scope: it sees only that scope as home. */
  readonly tokenScopeId: string | null;
  /** Set when the request came with an API token (an agent acting as the user): which one, named as it was then. */
  readonly token?: { readonly id: string; readonly name: string };
};

/** The operator (the CLI on the machine itself): acts in any scope as its owner, without a user. */
export interface Operator {
  readonly operator: true;
}

/** The one operator value; compare with `isOperator`. */
export const OPERATOR: Operator = Object.freeze({ operator: true as const });

/** The `actor` the operator's writes carry in history, mutation records and evidence. */
export const OPERATOR_ACTOR = "operator";

/** Who is asking an application service: a user principal or the operator. */
export type Caller = Principal | Operator;

export function isOperator(caller: Caller | string): caller is Operator {
  return typeof caller === "object" && "operator" in caller && caller.operator === true;
}

export function sessionPrincipal(userId: string): Principal {
  return Object.freeze({ userId, tokenScopeId: null });
}

/** The principal behind an authenticated API token (`authenticateToken`): its user, limited to its scope if it has one. */
export function tokenPrincipal(token: { readonly userId: string; readonly scopeId: string | null; readonly tokenId?: string; readonly name?: string }): Principal {
  const named = token.tokenId === undefined ? {} : { token: Object.freeze({ id: token.tokenId, name: token.name ?? "" }) };
  return Object.freeze({ userId: token.userId, tokenScopeId: token.scopeId, ...named });
}
