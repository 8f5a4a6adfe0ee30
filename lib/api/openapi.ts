import { z } from "zod";
import {
  assimilateInputSchema,
  harvestInputSchema,
  liftFreezeInputSchema,
  registerEvidenceInputSchema,
  retractInputSchema,
  reviseEntryInputSchema,
  reviewMutationInputSchema,
  proposeMutationInputSchema,
} from "@/lib/beliefs/belief-schemas";

/** JSON Schema of a request body, generated from the same zod schema that validates it. */
function body(schema: z.ZodType, omit: string[] = []) {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  const properties = json.properties as Record<string, unknown> | undefined;
  if (properties) for (const key of omit) delete properties[key];
  if (Array.isArray(json.required)) json.required = (json.required as string[]).filter((key) => !omit.includes(key));
  return { required: true, content: { "application/json": { schema: json } } };
}

const error = { $ref: "#/components/responses/Error" };
const scope = { name: "scope", in: "path", required: true, schema: { type: "string" }, description: "The scope slug." };
const id = { name: "id", in: "path", required: true, schema: { type: "string" } };
const query = (name: string, type: string, description: string) => ({ name, in: "query", required: false, schema: { type }, description });
const ok = (description: string) => ({ description, content: { "application/json": { schema: { type: "object" } } } });
const idempotencyKey = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", pattern: "^[\\x21-\\x7e]{1,255}$" },
  description: "Same key + same request within 24 h → the first answer again (no second write); same key + another request → 409 idempotency_conflict.",
};
const op = (summary: string, extra: Record<string, unknown>, success = "200") => ({
  summary,
  parameters: [scope, ...((extra.parameters as unknown[]) ?? []), ...(extra.requestBody ? [idempotencyKey] : [])],
  ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
  responses: {
    [success]: ok(summary),
    "400": error,
    "401": error,
    "403": error,
    "404": error,
    "409": error,
    "413": error,
    "422": error,
    "429": { $ref: "#/components/responses/RateLimited" },
  },
});

/** The OpenAPI 3.1 document served at /api/v1/openapi.json. */
export function openApiDocument() {
  const ingestBody = z
    .object({
      text: z.string().min(1),
      topic: z.string().optional(),
      source: z.object({ kind: registerEvidenceInputSchema.shape.kind, uri: z.string().optional(), title: z.string().optional() }).optional(),
    })
    .strict();
  const pair = z.object({ beliefIds: z.array(z.string()).length(2) }).strict();
  return {
    openapi: "3.1.0",
    info: {
      title: "Credence API",
      version: "1",
      description:
        "Belief graphs for agents: register evidence, assimilate claims, ingest text, propose mutations, retract sources, recall with disagreement. Authenticate with `Authorization: Bearer <API token>`.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      responses: {
        RateLimited: {
          description: "The token's rate bucket is empty (CREDENCE_RATE_LIMIT_PER_MINUTE, default 600): retry after `Retry-After` seconds.",
          headers: { "Retry-After": { schema: { type: "integer", minimum: 1 }, description: "Seconds until the next request is allowed." } },
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
        Error: {
          description: "`{error: {code, message, details}}`",
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
      schemas: {
        Error: {
          type: "object",
          required: ["error"],
          properties: {
            error: { type: "object", required: ["code", "message", "details"], properties: { code: { type: "string" }, message: { type: "string" }, details: { type: "object" } } },
          },
        },
      },
    },
    paths: {
      "/api/v1/scopes/{scope}/evidence": { post: op("Register an evidence item", { requestBody: body(registerEvidenceInputSchema) }, "201") },
      "/api/v1/scopes/{scope}/assimilate": { post: op("Assimilate a claim with evidence entries", { requestBody: body(assimilateInputSchema) }) },
      "/api/v1/scopes/{scope}/harvest": { post: op("Split model output into claims", { requestBody: body(harvestInputSchema) }) },
      "/api/v1/scopes/{scope}/ingest": {
        post: op("Ingest text: assess, stage, commit or discard", { requestBody: body(ingestBody), parameters: [query("dryRun", "boolean", "Stage without writing.")] }),
      },
      "/api/v1/scopes/{scope}/retractions": {
        post: op("Retract a source and propagate grounding loss", { requestBody: body(retractInputSchema, ["dryRun"]), parameters: [query("dryRun", "boolean", "Report without writing.")] }),
      },
      "/api/v1/scopes/{scope}/beliefs": {
        get: op("Retrieve beliefs ranked by relevance × credence (with q), or list them", {
          parameters: [query("q", "string", "Search text."), query("k", "integer", "How many (default 10)."), query("minCredence", "number", "Lower bound.")],
        }),
      },
      "/api/v1/scopes/{scope}/beliefs/{id}": { get: op("A belief with its full history", { parameters: [id, query("asOf", "string", "ISO time: the past state.")] }) },
      "/api/v1/scopes/{scope}/beliefs/{id}/revisions": { post: op("Correct an earlier entry", { parameters: [id], requestBody: body(reviseEntryInputSchema, ["beliefId"]) }) },
      "/api/v1/scopes/{scope}/beliefs/{id}/replay": { get: op("Stored state vs replay of the history", { parameters: [id] }) },
      "/api/v1/scopes/{scope}/recall": { get: op("Settled answer or contested briefing", { parameters: [query("q", "string", "The question.")] }) },
      "/api/v1/scopes/{scope}/mutations": {
        post: op("Propose a mutation", { requestBody: body(proposeMutationInputSchema) }, "201"),
        get: op("The mutation journal", { parameters: [query("status", "string", "Comma-separated statuses.")] }),
      },
      "/api/v1/scopes/{scope}/mutations/{id}/decision": { post: op("Approve or reject a queued mutation", { parameters: [id], requestBody: body(reviewMutationInputSchema, ["mutationId"]) }) },
      "/api/v1/scopes/{scope}/topics/{topic}/unfreeze": {
        post: op("Lift a topic freeze", { parameters: [{ name: "topic", in: "path", required: true, schema: { type: "string" } }], requestBody: body(liftFreezeInputSchema, ["topic"]) }),
      },
      "/api/v1/scopes/{scope}/syntheses": { get: op("Synthesis candidates", {}), post: op("Accept a synthesis", { requestBody: body(pair) }, "201") },
      "/api/v1/scopes/{scope}/syntheses/dismissals": { post: op("Dismiss a synthesis", { requestBody: body(pair) }) },
      "/api/v1/scopes/{scope}/graph": {
        get: op("Cytoscape elements {nodes, edges}", {
          parameters: [query("minCredence", "number", ""), query("status", "string", "Comma-separated."), query("asOf", "string", "ISO time."), query("nodeId", "string", "Neighbourhood of this node.")],
        }),
      },
    },
  };
}
