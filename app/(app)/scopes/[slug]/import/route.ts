import { sessionPrincipal } from "@/lib/access/principal";
import { currentUser } from "@/lib/auth/session";
import { getBeliefServices } from "@/lib/beliefs/get-belief-services";
import { MAX_IMPORT_BYTES, readScopeFile } from "@/lib/beliefs/scope-archive";
import { ApiError, handleApiError } from "@/lib/api/api-error";
import { readBodyCapped } from "@/lib/api/read-body";
import { sameOrigin } from "@/lib/api/same-origin";

/**
 * The browser's restore: the body is a backup file as downloaded from Settings (a zip or the JSON), sent as
 * `application/octet-stream` from this app's own pages (a cross-site page cannot send that type without asking first,
 * and its `Origin` is refused). The URL's scope is the target: with `?create=1&name=…` the import creates it (and
 * removes it again when the import is refused), otherwise it must be an empty scope the caller owns. Every item gets a
 * new id, so a scope can be copied beside the one it came from. Nothing is written unless the whole import succeeds.
 */
export async function POST(request: Request, { params }: { params: Promise<{ slug: string }> }): Promise<Response> {
  try {
    const { slug } = await params;
    if (!sameOrigin(request)) throw new ApiError(403, "forbidden", "An import must come from this app's own pages.");
    const user = await currentUser();
    if (!user) throw new ApiError(401, "unauthenticated", "Your session has ended. Sign in again.");
    const tooBig = () =>
      new ApiError(413, "payload_too_large", `The file is too big: at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`, { fields: [{ field: "file", message: "too big" }] });
    const bytes = await readBodyCapped(request, MAX_IMPORT_BYTES, tooBig);
    const data = readScopeFile(bytes);
    const url = new URL(request.url);
    const services = await getBeliefServices();
    const caller = sessionPrincipal(user.id);
    const result =
      url.searchParams.get("create") === "1"
        ? await services.importNewScope(caller, { slug, name: url.searchParams.get("name") ?? "", data, freshIds: true })
        : await services.importScope(caller, slug, { data, freshIds: true });
    return Response.json(result, { status: 201, headers: { "cache-control": "no-store" } });
  } catch (error) {
    return handleApiError(error);
  }
}
