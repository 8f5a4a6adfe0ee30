import { openApiDocument } from "@/lib/api/openapi";

export function GET(): Response {
  return Response.json(openApiDocument());
}
