import { MCP_TOOL_NAMES } from "./testing/mcp-client-kit";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  assimilateInputSchema,
  correctRelationInputSchema,
  getBeliefInputSchema,
  harvestInputSchema,
  proposeMutationInputSchema,
  recallInputSchema,
  retractInputSchema,
  retrieveInputSchema,
} from "@/lib/beliefs/belief-schemas";
import { toolInputJsonSchema } from "./create-mcp-server";
import { MCP_TOOLS } from "./mcp-tools";

type JsonSchema = { properties?: Record<string, JsonSchema>; items?: JsonSchema; required?: string[]; enum?: unknown[]; anyOf?: JsonSchema[] };

/** The service each tool hands its arguments to, and the fields it leaves out on purpose. */
const SERVICE_SCHEMAS: Record<string, { schema: z.ZodType; omitted?: string[] }> = {
  assimilate: { schema: assimilateInputSchema, omitted: ["evidence.direction"] },
  recall: { schema: recallInputSchema },
  search_beliefs: { schema: retrieveInputSchema },
  get_belief: { schema: getBeliefInputSchema },
  propose_mutation: { schema: proposeMutationInputSchema },
  retract_source: { schema: retractInputSchema },
  correct_relation: { schema: correctRelationInputSchema },
  harvest_claims: { schema: harvestInputSchema },
};

/** Dotted property paths (objects, array items and union members), with their enums and whether they are required. */
function fields(schema: JsonSchema, prefix = "", out = new Map<string, { required: boolean; enum?: unknown[] }>()) {
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const at = prefix ? `${prefix}.${name}` : name;
    out.set(at, { required: required.has(name), ...(property.enum ? { enum: property.enum } : {}) });
    fields(property.items ?? property, at, out);
    for (const member of property.anyOf ?? []) fields(member, at, out);
  }
  return out;
}

const published = (name: string) => {
  const tool = MCP_TOOLS.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}`);
  return toolInputJsonSchema(tool.input, null) as JsonSchema;
};

describe("MCP tool schemas", () => {
  it.each(Object.entries(SERVICE_SCHEMAS))("%s publishes exactly the service's fields, enums and required set (plus scope)", (name, { schema, omitted = [] }) => {
    const mine = fields(published(name));
    expect(mine.get("scope")).toEqual({ required: true });
    mine.delete("scope");
    const theirs = fields(z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema);
    for (const path of omitted) theirs.delete(path);
    expect(Object.fromEntries(mine)).toEqual(Object.fromEntries(theirs));
  });

  it("every tool has a title, a description for a model, and a closed object schema", () => {
    expect(MCP_TOOLS.map((t) => t.name)).toEqual([...MCP_TOOL_NAMES]);
    for (const tool of MCP_TOOLS) {
      const schema = published(tool.name) as JsonSchema & { type: string; additionalProperties?: boolean };
      expect(schema.type).toBe("object");
      expect(schema.additionalProperties).toBe(false);
      expect(tool.annotations.title.length).toBeGreaterThan(5);
      expect(tool.description.length).toBeGreaterThan(100);
    }
  });

  it("scope is optional and names its default when the connection has one", () => {
    const schema = toolInputJsonSchema(MCP_TOOLS[0]!.input, "platform") as unknown as JsonSchema & { properties: { scope: { description: string } } };
    expect(schema.required).not.toContain("scope");
    expect(schema.properties.scope.description).toContain('"platform"');
  });
});
