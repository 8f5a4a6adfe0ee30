import { z } from "zod";

/**
 * `asOf` as the API accepts it: an ISO-8601 date or date-time (with `Z` or an offset, or none), normalised to UTC
 * `toISOString()`. Stricter than `Date.parse`, which also accepts strings such as "0" or ",QVLu?6Z!7" that the
 * database then refuses (a 500); anything else is a 422 naming `asOf`.
 */
export const asOfSchema = z
  .union([z.iso.datetime({ offset: true, local: true }), z.iso.date()])
  .refine((value) => !Number.isNaN(Date.parse(value)), "an ISO-8601 date or date-time")
  .transform((value) => new Date(value).toISOString());

const asOfQuerySchema = z.object({ asOf: asOfSchema.optional() });

/** The URL's `asOf` (absent or blank → undefined), validated; a ZodError on the field `asOf` otherwise. */
export function asOfFromQuery(url: URL): string | undefined {
  const raw = url.searchParams.get("asOf");
  return asOfQuerySchema.parse({ asOf: raw === null || raw.trim() === "" ? undefined : raw }).asOf;
}
