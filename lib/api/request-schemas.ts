/**
 * What the REST API accepts where it differs from a service's own input schema (a body shaped for HTTP, query
 * parameters named for URLs), as zod schemas: the routes parse with them and the OpenAPI document is generated from
 * them. Where a route hands its input to a service unchanged, the service's schema (`@/lib/beliefs/belief-schemas`)
 * is used directly.
 */
import { z } from "zod";
import {
  callerEvidenceKindSchema,
  graphInputSchema,
  graphOverviewInputSchema,
  ingestInputSchema,
  listBeliefsInputSchema,
  listReadingsInputSchema,
  listMutationsInputSchema,
  recallInputSchema,
  retrieveInputSchema,
} from "@/lib/beliefs/belief-schemas";
import { BELIEF_STATUSES, EDGE_KINDS } from "@/lib/engine";
import { emailSchema, roleSchema, scopeNameSchema, slugSchema } from "@/lib/identity/schemas";

/** `POST …/ingest` (and the MCP `remember` tool): the text with its source, as HTTP clients state it. */
export const ingestBodySchema = z
  .object({
    text: ingestInputSchema.shape.text,
    topic: ingestInputSchema.shape.topic,
    observedAt: ingestInputSchema.shape.observedAt,
    source: z
      .object({
        kind: callerEvidenceKindSchema.default("observation"),
        uri: ingestInputSchema.shape.uri,
        title: z.string().max(500).optional().describe("A short human title (accepted, not stored)."),
      })
      .strict()
      .optional(),
    edits: ingestInputSchema.shape.edits.describe(
      "A person's edits of the dry run (`?dryRun=true`), applied by this commit: claims and relations to leave out, relation kinds to change. Indices and belief ids are the dry run's; an edit naming anything else is refused (422), and with `planId` a text that now reads differently is refused (409); nothing is written then.",
    ),
  })
  .strict();

/** `POST …/syntheses` and `…/syntheses/dismissals`: the pair as `{beliefIds: [a, b]}`. */
export const synthesisPairBodySchema = z.object({ beliefIds: z.tuple([z.string().trim().min(1).max(500), z.string().trim().min(1).max(500)]) }).strict();

/** `POST /api/v1/scopes`: a new scope; the caller becomes its owner. */
export const createScopeBodySchema = z
  .object({
    slug: slugSchema.describe("The scope's address: lowercase letters, digits and single dashes, 2–48 characters."),
    name: scopeNameSchema.describe("A human name."),
    isPublic: z.boolean().optional().describe("true: any signed-in user may read it (default false)."),
  })
  .strict();

/** `POST …/members`: an existing user, by email, with a role. */
export const addMemberBodySchema = z.object({ email: emailSchema, role: roleSchema }).strict();

/** `PATCH …/members/{userId}`: the member's new role. */
export const changeRoleBodySchema = z.object({ role: roleSchema }).strict();

/** `POST …/grants`: scope `toSlug` may resolve this scope's items (cite them as evidence). */
export const addGrantBodySchema = z.object({ toSlug: slugSchema.describe("The scope that receives read access to this scope's items.") }).strict();

/** `?dryRun=true` on ingest and retractions. */
export const dryRunQuerySchema = z.object({ dryRun: z.boolean().default(false).describe("true: report without writing.") });

/** `GET …/beliefs?q=`: ranked retrieval (the service's own schema). */
export const retrieveQuerySchema = retrieveInputSchema;
/** `GET …/beliefs` without `q`: the listing (the service's own schema). */
export const listBeliefsQuerySchema = listBeliefsInputSchema;
export const recallQuerySchema = recallInputSchema;

/** `GET …/readings`: at most `limit` open readings (the service's own schema). */
export const listReadingsQuerySchema = listReadingsInputSchema;

/** `GET …/mutations`: `status` (comma-separated or repeated) is the service's `statuses`. */
export const listMutationsQuerySchema = z
  .object({
    status: listMutationsInputSchema.shape.statuses.describe("Statuses to keep (comma-separated), e.g. pending_review."),
    topic: listMutationsInputSchema.shape.topic,
    beliefId: listMutationsInputSchema.shape.beliefId,
    limit: listMutationsInputSchema.shape.limit,
  })
  .strict();

/** `GET …/graph`: the element filters, the neighbourhood and the time-travel point. */
export const graphQuerySchema = z
  .object({
    minCredence: z.number().min(0).max(1).optional(),
    maxCredence: z.number().min(0).max(1).optional(),
    minTension: z.number().min(0).max(1).optional(),
    maxTension: z.number().min(0).max(1).optional(),
    status: z.array(z.enum(BELIEF_STATUSES)).optional().describe("Belief statuses to keep (comma-separated)."),
    edgeTypes: z.array(z.enum(EDGE_KINDS)).optional().describe("Edge kinds to keep (comma-separated)."),
    topic: z.string().max(200).optional(),
    text: z.string().max(500).optional(),
    nodeId: graphInputSchema.shape.nodeId,
    depth: graphInputSchema.shape.depth,
    maxNodes: graphInputSchema.shape.maxNodes,
    asOf: graphInputSchema.shape.asOf.describe("ISO-8601 time: the graph as it stood then."),
  })
  .strict();

/** `GET …/graph/overview`: the topic map. */
export const graphOverviewQuerySchema = graphOverviewInputSchema;

/** `GET …/graph/expand`: one topic's page of beliefs, or one belief's neighbourhood (exactly one of the two). */
export const graphExpandQuerySchema = z
  .object({
    topic: z.string().min(1).max(200).optional().describe("A topic of the scope: a page of its beliefs and their belief-to-belief edges."),
    afterId: z.string().min(1).max(500).optional().describe("With topic: the page after this belief id (`next` of the previous page)."),
    limit: z.number().int().min(1).max(500).optional().describe("With topic: beliefs per page (default 200, at most 500)."),
    belief: z.string().min(1).max(500).optional().describe("A belief of the scope: its neighbourhood (evidence, mutations and beliefs)."),
    depth: z.number().int().min(1).max(5).optional().describe("With belief: hops (default 1)."),
    maxNodes: z.number().int().min(1).max(2_000).optional().describe("With belief: at most this many nodes (default 300)."),
  })
  .strict();

/** `GET …/beliefs/{id}?asOf=`. */
export const beliefDetailQuerySchema = z.object({ asOf: graphInputSchema.shape.asOf.describe("ISO-8601 time: the belief as it stood then.") }).strict();

type QueryKind = "string" | "number" | "boolean" | "array";

const kindsCache = new WeakMap<z.ZodObject, Record<string, QueryKind>>();

/** The JSON type of each top-level property of a query schema: how its URL text is read. */
function queryKinds(schema: z.ZodObject): Record<string, QueryKind> {
  const cached = kindsCache.get(schema);
  if (cached) return cached;
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, { type?: string | string[]; anyOf?: { type?: string }[] }> };
  const kinds: Record<string, QueryKind> = {};
  for (const [name, property] of Object.entries(json.properties ?? {})) {
    const types = [property.type, ...(property.anyOf ?? []).map((a) => a.type)].flat().filter((t): t is string => typeof t === "string");
    kinds[name] = types.includes("array") ? "array" : types.includes("boolean") ? "boolean" : types.includes("number") || types.includes("integer") ? "number" : "string";
  }
  kindsCache.set(schema, kinds);
  return kinds;
}

/**
 * The URL's query parameters that `schema` names, read by their documented type (numbers and booleans parsed, lists
 * comma-separated or repeated, blanks dropped), for the schema to validate. Text that is not a number or a boolean
 * is passed as is, so the schema names the field at fault.
 */
export function readQuery(url: URL, schema: z.ZodObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, kind] of Object.entries(queryKinds(schema))) {
    if (kind === "array") {
      const values = url.searchParams.getAll(name).flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean);
      if (values.length > 0) out[name] = values;
      continue;
    }
    const value = url.searchParams.get(name);
    if (value === null || value.trim() === "") continue;
    if (kind === "number") out[name] = Number.isNaN(Number(value)) ? value : Number(value);
    else if (kind === "boolean") out[name] = value === "true" ? true : value === "false" ? false : value;
    else out[name] = value;
  }
  return out;
}

const NO_QUERY = z.object({}).strict();

/**
 * Every query parameter of a request checked against what its operation documents (`schema`; none when absent): a
 * name the operation does not take, or a value its type refuses (`k=abc`, `minCredence=NaN`), is a ZodError naming
 * the parameter (a 422 at the boundary), before the route runs.
 */
export function checkQuery(url: URL, schema: z.ZodObject = NO_QUERY): void {
  const known = new Set(Object.keys(queryKinds(schema)));
  const unknown = [...new Set(url.searchParams.keys())].filter((name) => !known.has(name));
  if (unknown.length > 0) {
    const takes = known.size > 0 ? `this operation takes ${[...known].join(", ")}` : "this operation takes no query parameters";
    throw new z.ZodError(unknown.map((name) => ({ code: "custom" as const, path: [name], message: `unknown query parameter; ${takes}`, input: url.searchParams.get(name) })));
  }
  schema.parse(readQuery(url, schema));
}

/** OpenAPI query parameters generated from a query schema (lists: comma-separated, `explode: false`). */
export function queryParameters(schema: z.ZodObject): Record<string, unknown>[] {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: "query",
      required: (json.required ?? []).includes(name),
      ...(typeof description === "string" ? { description } : {}),
      schema: rest,
      ...(rest.type === "array" ? { style: "form", explode: false } : {}),
    };
  });
}
