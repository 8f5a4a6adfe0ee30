/**
 * Scope-level services: the versioned parameter sets (owners add a version) and the whole-scope export / import
 * (the CLI's round trip; import needs the owner role and an empty scope).
 */
import { parseScopeExport } from "@/lib/graph/graph-store";
import { exportScopeInputSchema, importScopeInputSchema, setParamsInputSchema } from "./belief-schemas";
import type { BeliefServices } from "./belief-services";
import type { ServiceKit } from "./service-kit";
import { BeliefServiceError, parseServiceInput } from "@/lib/errors/belief-service-error";
import { toServiceError } from "./to-service-error";

type ScopeServices = Pick<BeliefServices, "getParams" | "listParamsVersions" | "setParams" | "exportScope" | "importScope">;

export function scopeServices(kit: ServiceKit): ScopeServices {
  const { store } = kit.config;
  return {
    async getParams(caller, scopeSlug) {
      const ctx = await kit.context(caller, scopeSlug, "read");
      return { ...ctx.params, scope: ctx.scope.slug };
    },

    async listParamsVersions(caller, scopeSlug) {
      const ctx = await kit.context(caller, scopeSlug, "read");
      return (await kit.params.versions(ctx.scope.id)).map((v) => ({ ...v, scope: ctx.scope.slug }));
    },

    async setParams(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(setParamsInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "owner");
      const createdBy = "operator" in caller ? null : caller.userId;
      return { ...(await kit.params.create(ctx.scope.id, input.params, createdBy, input.note ?? null)), scope: ctx.scope.slug };
    },

    async exportScope(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(exportScopeInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "read");
      return store.exportScope(ctx.view, input.asOf ? { asOf: input.asOf } : {});
    },

    async importScope(caller, scopeSlug, rawInput) {
      const input = parseServiceInput(importScopeInputSchema, rawInput);
      const ctx = await kit.context(caller, scopeSlug, "owner");
      let data;
      try {
        data = parseScopeExport(input.data);
      } catch (error) {
        throw toServiceError(error);
      }
      // Beliefs replay with the parameter set they record (a content hash); the target scope must hold an equal set,
      // or nobody could ever check them. Parameter sets live in Prisma, not in the graph export: recreate them first.
      const unknown: string[] = [];
      for (const version of new Set(data.beliefs.map((b) => b.belief.paramsVersion))) {
        if (!(await kit.params.byParamsVersion(ctx.scope.id, version))) unknown.push(version);
      }
      if (unknown.length > 0) {
        throw new BeliefServiceError(
          "invalid",
          `the export's beliefs replay with parameter sets this scope does not have (${unknown.join(", ")}); set equal parameters on ${ctx.scope.slug} first`,
          { fields: unknown.map((v) => ({ field: "data.beliefs.paramsVersion", message: `unknown parameter set ${v}` })) },
        );
      }
      return store.importScope(ctx.view, data);
    },
  };
}
