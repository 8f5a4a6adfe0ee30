/** The API names a pair as `{beliefIds: [a, b]}`; the services as `{beliefAId, beliefBId}`. Anything else passes through to be refused. */
export function pairInput(body: unknown): unknown {
  if (body && typeof body === "object" && "beliefIds" in body) {
    const ids = (body as { beliefIds: unknown }).beliefIds;
    if (Array.isArray(ids) && ids.length === 2) return { beliefAId: ids[0], beliefBId: ids[1] };
  }
  return body;
}
