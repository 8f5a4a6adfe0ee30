import { apiRoute, withFields } from "@/lib/api/api-route";
import { presentDecideReading } from "@/lib/api/present";

/** Decide an undecided reading (a relation or UNRELATED) or a possible duplicate (DUPLICATE or DISTINCT). */
export const POST = apiRoute(async ({ services, principal, params, body }) => {
  const seq = params.seq ?? "";
  return presentDecideReading(
    await services.decideReading(principal, params.scope ?? "", withFields(await body(), { beliefId: params.id ?? "", seq: /^\d{1,9}$/.test(seq) ? Number(seq) : seq })),
  );
});
