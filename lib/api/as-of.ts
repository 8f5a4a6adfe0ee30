import { z } from "zod";
import { isoTimeSchema } from "@/lib/beliefs/belief-schemas";

/** `asOf` as the API accepts it: the services' strict ISO-8601 time (a 422 naming `asOf` otherwise). */
export const asOfSchema = isoTimeSchema;

const asOfQuerySchema = z.object({ asOf: asOfSchema.optional() });

/** The URL's `asOf` (absent or blank → undefined), validated; a ZodError on the field `asOf` otherwise. */
export function asOfFromQuery(url: URL): string | undefined {
  const raw = url.searchParams.get("asOf");
  return asOfQuerySchema.parse({ asOf: raw === null || raw.trim() === "" ? undefined : raw }).asOf;
}
