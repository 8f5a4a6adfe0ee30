import { NextResponse, type NextRequest } from "next/server";

/**
 * Passes the requested path (with its query) to the pages as a request header, so `requireUser` can send a signed-out
 * visitor to the sign-in page with a `callbackUrl` back to the shared link. Nothing else is decided here.
 */
export function proxy(request: NextRequest): NextResponse {
  const headers = new Headers(request.headers);
  headers.set("x-credence-path", `${request.nextUrl.pathname}${request.nextUrl.search}`);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ["/((?!api/|_next/|favicon.ico|icon.svg).*)"],
};
