import { synthesisPairBodySchema } from "./request-schemas";

/** The API names a pair as `{beliefIds: [a, b]}` (validated here, a 422 naming `beliefIds` otherwise); the services as `{beliefAId, beliefBId}`. */
export function pairInput(body: unknown): { beliefAId: string; beliefBId: string } {
  const [beliefAId, beliefBId] = synthesisPairBodySchema.parse(body).beliefIds;
  return { beliefAId, beliefBId };
}
