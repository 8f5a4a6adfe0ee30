import { z } from "zod";
import {
  assimilateInputSchema,
  decideReadingInputSchema,
  harvestInputSchema,
  liftFreezeInputSchema,
  proposeMutationInputSchema,
  registerEvidenceInputSchema,
  retractInputSchema,
  reviewMutationInputSchema,
  undoReviewInputSchema,
  reviseEntryInputSchema,
  correctRelationInputSchema,
} from "@/lib/beliefs/belief-schemas";
import {
  beliefDetailQuerySchema,
  dryRunQuerySchema,
  graphExpandQuerySchema,
  graphOverviewQuerySchema,
  graphQuerySchema,
  ingestBodySchema,
  listBeliefsQuerySchema,
  listMutationsQuerySchema,
  listReadingsQuerySchema,
  queryParameters,
  recallQuerySchema,
  retrieveQuerySchema,
  synthesisPairBodySchema,
  addGrantBodySchema,
  addMemberBodySchema,
  changeRoleBodySchema,
  createScopeBodySchema,
} from "./request-schemas";
import { enqueueJobRequestSchema, jobResponseSchema } from "./job-schemas";
import {
  assimilateResponseSchema,
  beliefDetailResponseSchema,
  decideReadingResponseSchema,
  readingQueueResponseSchema,
  beliefListResponseSchema,
  dismissedResponseSchema,
  freezeResponseSchema,
  graphExpansionResponseSchema,
  graphOverviewResponseSchema,
  graphResponseSchema,
  harvestResponseSchema,
  ingestResponseSchema,
  mutationListResponseSchema,
  mutationResultResponseSchema,
  recallResponseSchema,
  registerEvidenceResponseSchema,
  replayResponseSchema,
  RESPONSE_REGISTRY,
  retractResponseSchema,
  reviseResponseSchema,
  correctRelationResponseSchema,
  scopeListResponseSchema,
  synthesisAcceptedResponseSchema,
  synthesisListResponseSchema,
  scopeCreatedResponseSchema,
  memberListResponseSchema,
  memberResultResponseSchema,
  grantListResponseSchema,
  grantResultResponseSchema,
} from "./response-schemas";

/** One documented operation: its route, its request schemas and the response schema its presenter parses with. */
export interface ApiOperation {
  operationId: string;
  method: "get" | "post" | "patch" | "delete";
  /** The OpenAPI path template, e.g. `/api/v1/scopes/{scope}/recall`. */
  path: string;
  summary: string;
  /** The success status (200 unless it creates something, queues work or answers nothing). */
  status: 200 | 201 | 202 | 204;
  /** The body's schema (none for a 204). */
  response?: z.ZodType;
  /** The body is a server-sent event stream whose events carry `response` as JSON data. */
  eventStream?: boolean;
  body?: { schema: z.ZodType; omit?: string[] };
  query?: z.ZodObject;
  /** Path parameters besides `scope`. */
  pathParams?: { name: string; description: string }[];
  /** false: the route is not under a scope (no `{scope}` parameter). */
  scoped?: boolean;
  /** Error statuses this operation answers (401 and 429 always). */
  errors: number[];
}

const scoped = "/api/v1/scopes/{scope}";
const READ = [404, 422];
const WRITE = [400, 403, 404, 409, 413, 422];
const idParam = (description: string) => [{ name: "id", description }];
const SCOPE_ADMIN = [400, 403, 404, 409, 413, 415, 422];

/** Every REST operation; the routes under `app/api/v1` present with the same `response` schemas. */
export const API_OPERATIONS: readonly ApiOperation[] = [
  { operationId: "listScopes", method: "get", path: "/api/v1/scopes", summary: "The scopes the caller may read, with its role in each", status: 200, response: scopeListResponseSchema, scoped: false, errors: [] },
  { operationId: "createScope", method: "post", path: "/api/v1/scopes", summary: "Create a scope; the caller becomes its owner (a scope-limited token may not)", status: 201, response: scopeCreatedResponseSchema, body: { schema: createScopeBodySchema }, scoped: false, errors: SCOPE_ADMIN },
  { operationId: "listMembers", method: "get", path: `${scoped}/members`, summary: "The scope's members and their roles", status: 200, response: memberListResponseSchema, errors: READ },
  { operationId: "addMember", method: "post", path: `${scoped}/members`, summary: "Owner: add an existing user, by email, with a role", status: 201, response: memberResultResponseSchema, body: { schema: addMemberBodySchema }, errors: SCOPE_ADMIN },
  { operationId: "changeMemberRole", method: "patch", path: `${scoped}/members/{userId}`, summary: "Owner: change a member's role (never the last owner's)", status: 200, response: memberResultResponseSchema, body: { schema: changeRoleBodySchema }, pathParams: [{ name: "userId", description: "The member's userId (from listMembers)." }], errors: SCOPE_ADMIN },
  { operationId: "removeMember", method: "delete", path: `${scoped}/members/{userId}`, summary: "Owner, or the member itself: end a membership (never the last owner's)", status: 204, pathParams: [{ name: "userId", description: "The member's userId (from listMembers)." }], errors: [403, 404, 409] },
  { operationId: "listGrants", method: "get", path: `${scoped}/grants`, summary: "Read grants from this scope and to it", status: 200, response: grantListResponseSchema, errors: READ },
  { operationId: "addGrant", method: "post", path: `${scoped}/grants`, summary: "Owner: let another scope resolve this scope's items", status: 201, response: grantResultResponseSchema, body: { schema: addGrantBodySchema }, errors: SCOPE_ADMIN },
  { operationId: "removeGrant", method: "delete", path: `${scoped}/grants/{toScope}`, summary: "Owner: withdraw the grant to another scope", status: 204, pathParams: [{ name: "toScope", description: "The slug of the scope the grant was to." }], errors: [403, 404] },
  { operationId: "enqueueJob", method: "post", path: "/api/v1/jobs", summary: "Queue long work (ingest, harvest); follow it at /api/v1/jobs/{id}", status: 202, response: jobResponseSchema, body: { schema: enqueueJobRequestSchema }, scoped: false, errors: [400, 404, 413, 422] },
  { operationId: "getJob", method: "get", path: "/api/v1/jobs/{id}", summary: "A job's state, progress and result (another caller's job answers like a missing one)", status: 200, response: jobResponseSchema, scoped: false, pathParams: idParam("The job id."), errors: [404] },
  { operationId: "streamJobEvents", method: "get", path: "/api/v1/jobs/{id}/events", summary: "Server-sent events: `event: job` with the job each time it changes, until it succeeds or fails", status: 200, response: jobResponseSchema, eventStream: true, scoped: false, pathParams: idParam("The job id."), errors: [404] },
  { operationId: "registerEvidence", method: "post", path: `${scoped}/evidence`, summary: "Register an evidence item", status: 201, response: registerEvidenceResponseSchema, body: { schema: registerEvidenceInputSchema }, errors: [...WRITE, 502] },
  { operationId: "assimilate", method: "post", path: `${scoped}/assimilate`, summary: "Assimilate a claim with evidence entries; the answer's belief carries its history", status: 200, response: assimilateResponseSchema, body: { schema: assimilateInputSchema }, errors: WRITE },
  { operationId: "harvest", method: "post", path: `${scoped}/harvest`, summary: "Split model output into claims (and with commit, assimilate them)", status: 200, response: harvestResponseSchema, body: { schema: harvestInputSchema }, errors: WRITE },
  { operationId: "ingest", method: "post", path: `${scoped}/ingest`, summary: "Ingest text: assess, stage, commit or discard", status: 200, response: ingestResponseSchema, body: { schema: ingestBodySchema }, query: dryRunQuerySchema, errors: [...WRITE, 502] },
  { operationId: "retractSource", method: "post", path: `${scoped}/retractions`, summary: "Retract a source and propagate grounding loss; each touched item is a belief with what changed", status: 200, response: retractResponseSchema, body: { schema: retractInputSchema, omit: ["dryRun"] }, query: dryRunQuerySchema, errors: WRITE },
  { operationId: "listBeliefs", method: "get", path: `${scoped}/beliefs`, summary: "With q: beliefs ranked by relevance × credence; without: the scope's beliefs", status: 200, response: beliefListResponseSchema, query: retrieveQuerySchema.partial().extend(listBeliefsQuerySchema.shape), errors: READ },
  { operationId: "getBelief", method: "get", path: `${scoped}/beliefs/{id}`, summary: "A belief with its full history", status: 200, response: beliefDetailResponseSchema, query: beliefDetailQuerySchema, pathParams: idParam("The belief id."), errors: READ },
  { operationId: "reviseEntry", method: "post", path: `${scoped}/beliefs/{id}/revisions`, summary: "Correct an earlier entry's weight or relation", status: 200, response: reviseResponseSchema, body: { schema: reviseEntryInputSchema, omit: ["beliefId"] }, pathParams: idParam("The belief id."), errors: WRITE },
  { operationId: "correctRelation", method: "post", path: `${scoped}/evidence/{id}/relation`, summary: "Correct how an evidence item bears on a belief (SUPPORTS, REBUTS, CONTEXTUALIZES or UNRELATED), with a reason; undo by correcting it back to `correction.from`", status: 200, response: correctRelationResponseSchema, body: { schema: correctRelationInputSchema, omit: ["evidenceId"] }, pathParams: idParam("The evidence id."), errors: WRITE },
  { operationId: "listReadings", method: "get", path: `${scoped}/readings`, summary: "Open undecided readings and possible duplicates, oldest first; they move nothing until decided", status: 200, response: readingQueueResponseSchema, query: listReadingsQuerySchema, errors: READ },
  { operationId: "decideReading", method: "post", path: `${scoped}/beliefs/{id}/readings/{seq}/decision`, summary: "Decide an undecided reading (SUPPORTS, REBUTS, CONTEXTUALIZES or UNRELATED) or a possible duplicate (DUPLICATE or DISTINCT)", status: 200, response: decideReadingResponseSchema, body: { schema: decideReadingInputSchema, omit: ["beliefId", "seq"] }, pathParams: [...idParam("The belief id."), { name: "seq", description: "The seq of the undecided reading or possible duplicate in the belief's history." }], errors: WRITE },
  { operationId: "replayBelief", method: "get", path: `${scoped}/beliefs/{id}/replay`, summary: "Stored state vs replay of the history", status: 200, response: replayResponseSchema, pathParams: idParam("The belief id."), errors: READ },
  { operationId: "recall", method: "get", path: `${scoped}/recall`, summary: "Settled answer or contested briefing", status: 200, response: recallResponseSchema, query: recallQuerySchema, errors: READ },
  { operationId: "proposeMutation", method: "post", path: `${scoped}/mutations`, summary: "Propose a mutation", status: 201, response: mutationResultResponseSchema, body: { schema: proposeMutationInputSchema }, errors: WRITE },
  { operationId: "listMutations", method: "get", path: `${scoped}/mutations`, summary: "The mutation journal, newest first", status: 200, response: mutationListResponseSchema, query: listMutationsQuerySchema, errors: READ },
  { operationId: "decideMutation", method: "post", path: `${scoped}/mutations/{id}/decision`, summary: "Approve or reject a queued mutation", status: 200, response: mutationResultResponseSchema, body: { schema: reviewMutationInputSchema, omit: ["mutationId"] }, pathParams: idParam("The mutation id."), errors: WRITE },
  { operationId: "undoMutationReview", method: "post", path: `${scoped}/mutations/{id}/undo`, summary: "Undo a review decision: the approved change is reversed in a new change-set and the proposal waits for review again", status: 200, response: mutationResultResponseSchema, body: { schema: undoReviewInputSchema, omit: ["mutationId"] }, pathParams: idParam("The mutation id."), errors: WRITE },
  { operationId: "unfreezeTopic", method: "post", path: `${scoped}/topics/{topic}/unfreeze`, summary: "Lift a topic freeze", status: 200, response: freezeResponseSchema, body: { schema: liftFreezeInputSchema, omit: ["topic"] }, pathParams: [{ name: "topic", description: "The frozen topic." }], errors: WRITE },
  { operationId: "listSyntheses", method: "get", path: `${scoped}/syntheses`, summary: "Synthesis candidates", status: 200, response: synthesisListResponseSchema, errors: READ },
  { operationId: "acceptSynthesis", method: "post", path: `${scoped}/syntheses`, summary: "Accept a synthesis", status: 201, response: synthesisAcceptedResponseSchema, body: { schema: synthesisPairBodySchema }, errors: WRITE },
  { operationId: "dismissSynthesis", method: "post", path: `${scoped}/syntheses/dismissals`, summary: "Dismiss a synthesis", status: 200, response: dismissedResponseSchema, body: { schema: synthesisPairBodySchema }, errors: WRITE },
  { operationId: "getGraph", method: "get", path: `${scoped}/graph`, summary: "Cytoscape elements {nodes, edges}", status: 200, response: graphResponseSchema, query: graphQuerySchema, errors: READ },
  { operationId: "getGraphOverview", method: "get", path: `${scoped}/graph/overview`, summary: "The topic map: topics, relations between them, contested and recent beliefs", status: 200, response: graphOverviewResponseSchema, query: graphOverviewQuerySchema, errors: READ },
  { operationId: "expandGraph", method: "get", path: `${scoped}/graph/expand`, summary: "One expansion: a topic's page of beliefs, or a belief's neighbourhood", status: 200, response: graphExpansionResponseSchema, query: graphExpandQuerySchema, errors: READ },
];

const STATUS_TEXT: Record<number, string> = {
  400: "The body is not JSON (`malformed_json`).",
  401: "No, malformed, unknown or revoked credentials (`unauthenticated`).",
  403: "The caller sees the thing but its role does not allow the action (`forbidden`); or a write signed in by cookie from another origin.",
  404: "The scope or id does not exist or is outside the caller's view (`not_found`; identical answers).",
  409: "A state conflict (`conflict`, `oscillation_hard_stop`, `topic_frozen`, `idempotency_conflict`, `idempotency_in_progress`).",
  413: "The body exceeds 1 MiB (`payload_too_large`).",
  415: "A write signed in by cookie without a JSON content type (`unsupported_media_type`).",
  422: "Invalid fields (`invalid`): `details.fields` names each.",
  502: "The configured assessor failed (`assessment_failed`); nothing was written.",
};

/** JSON Schema of a request body, generated from the same zod schema that validates it. */
function requestBody(schema: z.ZodType, omit: string[] = []) {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  const properties = json.properties as Record<string, unknown> | undefined;
  if (properties) for (const key of omit) delete properties[key];
  if (Array.isArray(json.required)) json.required = (json.required as string[]).filter((key) => !omit.includes(key));
  return { required: true, content: { "application/json": { schema: json } } };
}

/** The named response schemas as `components.schemas`, each `$ref`-ing the others by name. */
function componentSchemas(): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(RESPONSE_REGISTRY, { io: "output", unrepresentable: "any", uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, Record<string, unknown>> };
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return schemas;
}

function idOf(schema: z.ZodType | undefined): string {
  if (!schema) throw new Error("an operation without a response schema");
  const id = RESPONSE_REGISTRY.get(schema)?.id;
  if (!id) throw new Error("a response schema without a registered name");
  return id;
}

const scopeParam = { name: "scope", in: "path", required: true, schema: { type: "string" }, description: "The scope slug." };
const idempotencyKey = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", pattern: "^[\\x21-\\x7e]{1,255}$" },
  description: "Same key + same request within 24 h → the first answer again (no second write); same key + another request → 409 idempotency_conflict.",
};

function operationObject(op: ApiOperation) {
  const parameters = [
    ...(op.scoped === false ? [] : [scopeParam]),
    ...(op.pathParams ?? []).map((p) => ({ name: p.name, in: "path", required: true, schema: { type: "string" }, description: p.description })),
    ...(op.query ? queryParameters(op.query) : []),
    ...(op.body && op.method === "post" ? [idempotencyKey] : []),
  ];
  const errors = [401, ...op.errors].sort((a, b) => a - b);
  return {
    operationId: op.operationId,
    summary: op.summary,
    tags: [op.scoped === false ? (op.path.split("/")[3] ?? "scopes") : op.path.split("/")[5] ?? "scopes"],
    parameters,
    ...(op.body ? { requestBody: requestBody(op.body.schema, op.body.omit) } : {}),
    responses: {
      [String(op.status)]: {
        description: op.eventStream ? `${op.summary}. Each event's \`data\` is a ${idOf(op.response)} as JSON.` : op.summary,
        headers: {
          "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
          "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
        },
        ...(op.response === undefined
          ? {}
          : op.eventStream
            ? { content: { "text/event-stream": { schema: { type: "string", "x-event-data": { $ref: `#/components/schemas/${idOf(op.response)}` } } } } }
            : { content: { "application/json": { schema: { $ref: `#/components/schemas/${idOf(op.response)}` } } } }),
      },
      ...Object.fromEntries(errors.map((status) => [String(status), { description: STATUS_TEXT[status] ?? "Error.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } }])),
      "429": { $ref: "#/components/responses/RateLimited" },
    },
  };
}

const OPENAPI_JSON_PATH = "/api/v1/openapi.json";

const compiledPaths = (() => {
  const byPath = new Map<string, ApiOperation[]>([[OPENAPI_JSON_PATH, []]]);
  for (const op of API_OPERATIONS) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  return [...byPath].map(([template, operations]) => {
    const methods = new Set(template === OPENAPI_JSON_PATH ? ["GET"] : operations.map((op) => op.method.toUpperCase()));
    return {
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
      operations,
      methods: [...methods, ...(methods.has("GET") ? ["HEAD"] : [])].sort(),
    };
  });
})();

/** The methods a REST path answers (its operations', HEAD with GET), or null when no operation has this path. */
export function allowedMethods(pathname: string): string[] | null {
  return compiledPaths.find((route) => route.pattern.test(pathname))?.methods ?? null;
}

/** The documented operation a request is (HEAD as its GET), or undefined. */
export function operationFor(method: string, pathname: string): ApiOperation | undefined {
  const verb = method.toLowerCase() === "head" ? "get" : method.toLowerCase();
  return compiledPaths.find((route) => route.pattern.test(pathname))?.operations.find((op) => op.method === verb);
}

/** The OpenAPI 3.1 document served at /api/v1/openapi.json. */
export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of API_OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op);
  const tags = [...new Set(API_OPERATIONS.map((op) => operationObject(op).tags[0] as string))].map((name) => ({ name, description: `Operations on ${name}.` }));
  return {
    openapi: "3.1.0",
    info: {
      title: "Credence API",
      version: "1",
      description:
        "Belief graphs for agents: register evidence, assimilate claims, ingest text, propose mutations, retract sources, recall with disagreement. Authenticate with `Authorization: Bearer <API token>` (or the browser session).",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    tags,
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      headers: {
        RateLimitLimit: { description: "Requests per minute this token may make.", schema: { type: "integer" } },
        RateLimitRemaining: { description: "Requests left in the token's bucket.", schema: { type: "integer" } },
      },
      responses: {
        RateLimited: {
          description: "The token's rate bucket is empty (CREDENCE_RATE_LIMIT_PER_MINUTE, default 600): retry after `Retry-After` seconds.",
          headers: { "Retry-After": { schema: { type: "integer", minimum: 1 }, description: "Seconds until the next request is allowed." } },
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
      schemas: componentSchemas(),
    },
    paths,
  };
}
