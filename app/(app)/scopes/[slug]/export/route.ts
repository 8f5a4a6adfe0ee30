import { sessionPrincipal } from "@/lib/access/principal";
import { currentUser } from "@/lib/auth/session";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { scopeArchive } from "@/lib/beliefs/scope-archive";
import { ApiError, handleApiError } from "@/lib/api/api-error";
import { serializeScopeExport } from "@/lib/graph/graph-store";
import { formatUtc } from "@/components/ui/format-time";

/**
 * The scope's backup download for its owners, signed in by session: `?format=json` (the CLI's export text) or
 * `?format=zip` (the same `scope.json` plus one history file per belief, `scopeArchive`). A scope the caller may not
 * read answers 404 like a missing one; a member below owner gets 403.
 */
export async function GET(request: Request, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  try {
    const { slug } = await params;
    const format = new URL(request.url).searchParams.get("format") ?? "json";
    if (format !== "json" && format !== "zip") throw new ApiError(400, "invalid", "format must be json or zip.", { fields: [{ field: "format", message: "json or zip" }] });
    const user = await currentUser();
    if (!user) throw new ApiError(401, "unauthenticated", "Sign in to download a scope.");
    const services = await getBeliefServices();
    const caller = sessionPrincipal(user.id);
    const scope = await services.getScope(caller, slug);
    if (!scope || !scope.role) throw new ApiError(404, "not_found", `no scope ${slug}`);
    if (scope.role !== "owner") throw new ApiError(403, "forbidden", `you need the owner role in scope ${slug} to download it`);
    const data = await services.exportScope(caller, scope.slug);
    const now = new Date();
    const stamp = formatUtc(now).slice(0, 16).replace(/[ :]/g, "-");
    const name = `${scope.slug}-${stamp}.${format}`;
    const headers = { "content-disposition": `attachment; filename="${name}"`, "cache-control": "no-store" };
    if (format === "zip") {
      const body = scopeArchive(data, now);
      return new Response(body.slice().buffer, { headers: { ...headers, "content-type": "application/zip" } });
    }
    return new Response(`${serializeScopeExport(data)}\n`, { headers: { ...headers, "content-type": "application/json; charset=utf-8" } });
  } catch (error) {
    return handleApiError(error);
  }
}
