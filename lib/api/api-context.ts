import { sessionPrincipal, tokenPrincipal, type Principal } from "@/lib/access/principal";
import { auth } from "@/lib/auth/auth";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { getEnv } from "@/lib/env";
import { ApiError } from "./api-error";

export { getBeliefServices };

/**
 * Who is calling: `Authorization: Bearer <API token>` (acting as the token's user, limited to its scope if it has
 * one), else the browser session. Neither → 401. A malformed or revoked token is a 401 too, never a hint of why.
 */
export async function authenticate(request: Request): Promise<Principal> {
  return (await authenticateCaller(request)).principal;
}

/** The caller and the key its requests are counted under: the token's id, or the user's id for a session. */
export interface Caller {
  principal: Principal;
  rateKey: string;
  /** How the caller proved who it is: an API token, or the browser's session cookie. */
  via: "token" | "session";
}

export async function authenticateCaller(request: Request): Promise<Caller> {
  const header = request.headers.get("authorization");
  if (header !== null) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const token = match?.[1] ? await (await getBeliefServices()).authenticateToken(match[1]) : null;
    if (!token) throw new ApiError(401, "unauthenticated", "The API token is missing, malformed, unknown or revoked.");
    return { principal: tokenPrincipal(token), rateKey: `token:${token.tokenId}`, via: "token" };
  }
  const session = await auth();
  if (session?.user?.id) return { principal: sessionPrincipal(session.user.id), rateKey: `user:${session.user.id}`, via: "session" };
  getEnv(); // configuration errors surface here rather than as a confusing 401
  throw new ApiError(401, "unauthenticated", "Send an API token as `Authorization: Bearer <token>`, or sign in.");
}
