import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "./auth";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
}

/** The signed-in user, or null. */
export async function currentUser(): Promise<SessionUser | null> {
  const session = await auth();
  const user = session?.user;
  if (!user?.id || !user.email) return null;
  return { id: user.id, email: user.email, name: user.name ?? user.email };
}

/** The header `proxy.ts` sets to the requested path and query, so a sign-in can return to it. */
export const REQUEST_PATH_HEADER = "x-credence-path";

/**
 * For pages: the signed-in user, or a redirect to the sign-in page that comes back to the requested page
 * (`callbackUrl`, a same-site path only).
 */
export async function requireUser(): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) {
    const path = (await headers()).get(REQUEST_PATH_HEADER);
    redirect(path && path.startsWith("/") && !path.startsWith("//") && path !== "/" ? `/signin?callbackUrl=${encodeURIComponent(path)}` : "/signin");
  }
  return user;
}
