/**
 * Scope parameter sets (docs/design.md §8): versioned rows in Prisma's `scope_params`; the newest version applies to new writes.
 * A scope without a row uses the service defaults (version 0). Beliefs record the content hash (`paramsVersion`) of
 * the set their replay used, so replay checks find the exact numbers again even after the owner changed them.
 */
import { paramsVersion, resolveParams, type EngineParams, type EngineParamsInput, type IsoTime } from "@/lib/engine";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import { isUniqueViolation } from "./errors";
import type { IdentityDb } from "./identity-db";

export interface ScopeParamsView {
  scope: string;
  /** 0 = no stored set (the defaults apply); else the stored version number. */
  version: number;
  /** The content hash beliefs record (`paramsVersion`). */
  paramsVersion: string;
  /** What the owner set (partial); `{}` for defaults. */
  input: EngineParamsInput;
  /** The resolved values. */
  params: EngineParams;
  createdAt: IsoTime | null;
  createdBy: string | null;
  /** Why the owner saved this version (null when no note was given, and for the defaults). */
  note: string | null;
}

export interface ScopeParamsRepository {
  /** The set that applies now. */
  current(scopeId: string): Promise<ScopeParamsView>;
  /** `current` from the newest stored row read elsewhere (the authorised view's statement), or null for none. */
  fromStored(scopeId: string, row: { version: number; params: unknown; createdAt: Date; createdById: string | null; note?: string | null } | null): ScopeParamsView;
  /** Every version, oldest first, the defaults (version 0) first. */
  versions(scopeId: string): Promise<ScopeParamsView[]>;
  /** The resolved parameters whose content hash is `version`, or null when no version of this scope has it. */
  byParamsVersion(scopeId: string, version: string): Promise<EngineParams | null>;
  create(scopeId: string, input: EngineParamsInput, createdBy: string | null, note?: string | null): Promise<ScopeParamsView>;
  /** Every stored set of every scope, resolved (the grounding cascade crosses scopes). */
  allParams(): Promise<EngineParams[]>;
}

export function scopeParamsRepository(db: IdentityDb, defaults: EngineParamsInput = {}): ScopeParamsRepository {
  const defaultParams = resolveParams(defaults);
  const defaultView = (scopeId: string): ScopeParamsView => ({
    scope: scopeId,
    version: 0,
    paramsVersion: paramsVersion(defaultParams),
    input: defaults,
    params: defaultParams,
    createdAt: null,
    createdBy: null,
    note: null,
  });
  // `note` may be absent where a row is read elsewhere for its values only (the authorised view's statement).
  const toView = (row: { scopeId: string; version: number; params: unknown; createdAt: Date; createdById: string | null; note?: string | null }): ScopeParamsView => {
    const input = (row.params ?? {}) as EngineParamsInput;
    const params = resolveStored(input);
    return {
      scope: row.scopeId,
      version: row.version,
      paramsVersion: paramsVersion(params),
      input,
      params,
      createdAt: row.createdAt.toISOString(),
      createdBy: row.createdById,
      note: row.note ?? null,
    };
  };
  const resolveStored = (input: EngineParamsInput) => resolveParams({ ...defaults, ...input, tierStrength: { ...defaults.tierStrength, ...input.tierStrength } });
  const select = { scopeId: true, version: true, params: true, createdAt: true, createdById: true, note: true } as const;

  async function versions(scopeId: string): Promise<ScopeParamsView[]> {
    const rows = await db.prisma.scopeParams.findMany({ where: { scopeId }, orderBy: { version: "asc" }, select });
    return [defaultView(scopeId), ...rows.map(toView)];
  }

  return {
    async current(scopeId) {
      const row = await db.prisma.scopeParams.findFirst({ where: { scopeId }, orderBy: { version: "desc" }, select });
      return row ? toView(row) : defaultView(scopeId);
    },
    fromStored(scopeId, row) {
      return row ? toView({ scopeId, version: row.version, params: row.params, createdAt: row.createdAt, createdById: row.createdById, note: row.note ?? null }) : defaultView(scopeId);
    },
    versions,
    async allParams() {
      const rows = await db.prisma.scopeParams.findMany({ select: { params: true } });
      return rows.map((row) => resolveStored((row.params ?? {}) as EngineParamsInput));
    },
    async byParamsVersion(scopeId, version) {
      if (version === paramsVersion(defaultParams)) return defaultParams;
      for (const v of await versions(scopeId)) if (v.paramsVersion === version) return v.params;
      return null;
    },
    async create(scopeId, input, createdBy, note = null) {
      // Two owners saving at once: the unique (scope, version) makes one of them retry with the next number.
      for (let attempt = 0; attempt < 5; attempt++) {
        const last = await db.prisma.scopeParams.findFirst({ where: { scopeId }, orderBy: { version: "desc" }, select: { version: true } });
        try {
          const row = await db.prisma.scopeParams.create({
            data: { scopeId, version: (last?.version ?? 0) + 1, params: input as object, createdById: createdBy, note: note?.trim() || null },
            select,
          });
          return toView(row);
        } catch (error) {
          if (!isUniqueViolation(error)) throw error;
        }
      }
      throw new BeliefServiceError("conflict", "the parameter set kept changing; try again");
    },
  };
}
