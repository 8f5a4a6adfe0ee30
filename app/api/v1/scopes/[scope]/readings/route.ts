import { apiRoute } from "@/lib/api/api-route";
import { presentReadingQueue } from "@/lib/api/present";
import { listReadingsQuerySchema, readQuery } from "@/lib/api/request-schemas";

/** The scope's open undecided readings and possible duplicates (no weight until decided), oldest first. */
export const GET = apiRoute(async ({ services, principal, params, url }) =>
  presentReadingQueue(await services.listReadings(principal, params.scope ?? "", readQuery(url, listReadingsQuerySchema))),
);
