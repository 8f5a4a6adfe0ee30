import { unmatchedApiPath } from "@/lib/ops/http-guard";

/** Any /api/v1 path no route matches: the API's JSON 404, not Next's HTML page. */
const notFound = (request: Request) => unmatchedApiPath(request);

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
