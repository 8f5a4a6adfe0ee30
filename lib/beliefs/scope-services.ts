/**
 * Scope-level services: the versioned parameter sets (owners add a version) and the whole-scope export / import
 * (the CLI's round trip; import needs the owner role and an empty scope).
 */
import { parseScopeExport, type ScopeExport } from "@/lib/graph/graph-store";
import { isOperator, type Caller } from "@/lib/access/principal";
import { createScope, discardNewScope } from "@/lib/identity/scopes";
import { exportScopeInputSchema, importNewScopeInputSchema, importScopeInputSchema, setParamsInputSchema } from "./belief-schemas";
import { rekeyScopeExport } from "./scope-copy";
import type { BeliefServices } from "./belief-services";
import type { ServiceKit } from "./service-kit";
import { BeliefServiceError, parseServiceInput } from "@/lib/errors/belief-service-error";
import { toServiceError } from "./to-service-error";

type ScopeServices = Pick<BeliefServices, "getParams" | "listParamsVersions" | "setParams" | "exportScope" | "importScope" | "importNewScope">;

export function scopeServices(kit: ServiceKit): ScopeServices {
  const { store } = kit.config;

  function parsedExport(raw: unknown, freshIds: boolean): ScopeExport {
    let data: ScopeExport;
    try {
      data = parseScopeExport(raw);
    } catch (error) {
      throw toServiceError(error);
    }
    return freshIds ? rekeyScopeExport(data, (kind) => kit.newId(kind)) : data;
  }

  /** `data` is read only once the caller is known to own the scope: a non-owner learns nothing about the document. */
  async function importInto(caller: Caller, scopeSlug: string, read: () => ScopeExport) {
    const ctx = await kit.context(caller, scopeSlug, "owner");
    const data = read();
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
    try {
      return await store.importScope(ctx.view, data);
    } catch (error) {
      throw toServiceError(error);
    }
  }

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
      return importInto(caller, scopeSlug, () => parsedExport(input.data, input.freshIds === true));
    },

    async importNewScope(caller, rawInput) {
      const input = parseServiceInput(importNewScopeInputSchema, rawInput);
      if (isOperator(caller)) throw new BeliefServiceError("forbidden", "the operator imports with the CLI (`import --scope S`) into a scope it created");
      if (caller.tokenScopeId !== null) throw new BeliefServiceError("forbidden", "a token limited to one scope cannot create scopes; use an unrestricted token");
      // The document is checked before the scope exists: a wrong file creates nothing.
      const data = parsedExport(input.data, input.freshIds === true);
      const scope = await createScope(kit.config.db, { slug: input.slug, name: input.name, ownerId: caller.userId });
      try {
        return await importInto(caller, scope.slug, () => data);
      } catch (error) {
        await discardNewScope(kit.config.db, scope.id);
        if (error instanceof BeliefServiceError && error.details.fields?.some((f) => f.field === "data.beliefs.paramsVersion")) {
          throw new BeliefServiceError(
            "invalid",
            `${error.message.replace(/; set equal parameters on .*$/, "")}; a new scope starts with the default parameters, so create the scope, set the same parameters on it, then import into it`,
            error.details,
          );
        }
        throw error;
      }
    },
  };
}
