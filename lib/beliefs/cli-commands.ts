/**
 * Handlers the operator CLI wires (`bin/cli.ts`): `replay check [--scope S]`, `export --scope S`,
 * `export-readings --scope S`, `import --scope S`. They act as the operator (owner of every scope) through the same services as everyone else.
 * Each returns the process exit code: 0 success; 1 a replay mismatch or a refused import/export (the reason on
 * stderr as one line). Export writes `serializeScopeExport` (sorted keys) and a newline: importing that text and
 * exporting again gives the same text, up to the scope id the import rewrote.
 */
import { serializeScopeExport } from "@/lib/graph/graph-store";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import type { SetParamsInput } from "./belief-schemas";
import { OPERATOR } from "@/lib/access/principal";
import type { BeliefServices } from "./belief-services";
import { LABEL_SOURCES, labelledPairs } from "./export-readings";

export interface CliIo {
  out(text: string): void;
  err(line: string): void;
  /** The whole of stdin. */
  readStdin(): Promise<string>;
}

function failure(io: CliIo, error: unknown): number {
  if (error instanceof BeliefServiceError) {
    io.err(`${error.code}: ${error.message}`);
    return 1;
  }
  throw error;
}

/** `replay check [--scope S]`: every belief of S (or of every scope) against the replay of its history. */
export async function replayCheckCommand(services: BeliefServices, options: { scope?: string }, io: CliIo): Promise<number> {
  const slugs = options.scope ? [options.scope] : (await services.listAllScopes(OPERATOR)).map((s) => s.slug);
  let mismatched = 0;
  try {
    for (const slug of slugs) {
      const result = await services.replayCheck(OPERATOR, slug, {});
      io.out(`${slug}\t${result.checked} beliefs\t${result.ok ? "ok" : `${result.mismatches.length} mismatched`}\n`);
      for (const m of result.mismatches) {
        mismatched += 1;
        for (const field of m.mismatches) io.out(`  ${m.beliefId}\t${field.field}\tstored ${JSON.stringify(field.stored)}\treplayed ${JSON.stringify(field.replayed)}\n`);
      }
    }
  } catch (error) {
    return failure(io, error);
  }
  return mismatched === 0 ? 0 : 1;
}

/** `export --scope S [--as-of T]`: the scope as JSON on stdout. */
export async function exportCommand(services: BeliefServices, options: { scope: string; asOf?: string }, io: CliIo): Promise<number> {
  try {
    const data = await services.exportScope(OPERATOR, options.scope, options.asOf ? { asOf: options.asOf } : {});
    io.out(`${serializeScopeExport(data)}\n`);
    return 0;
  } catch (error) {
    return failure(io, error);
  }
}

/**
 * `export-readings --scope S [--source person|reader]`: the scope's labelled (belief, evidence) pairs as JSON lines
 * (`labelledPairs`), a count on stderr. The lines are `read relations` input as they are.
 */
export async function exportReadingsCommand(services: BeliefServices, options: { scope: string; source?: string }, io: CliIo): Promise<number> {
  const source = LABEL_SOURCES.find((s) => s === options.source);
  if (options.source !== undefined && source === undefined) {
    io.err(`invalid: --source must be ${LABEL_SOURCES.join(" or ")}`);
    return 1;
  }
  try {
    const pairs = labelledPairs(await services.exportScope(OPERATOR, options.scope), source ? { source } : {});
    if (pairs.length > 0) io.out(`${pairs.map((p) => JSON.stringify(p)).join("\n")}\n`);
    const by = (s: string) => pairs.filter((p) => p.source === s).length;
    io.err(`exported ${pairs.length} labelled pairs from ${options.scope}: ${by("person")} by a person, ${by("reader")} by the reader`);
    return 0;
  } catch (error) {
    return failure(io, error);
  }
}

/** `import --scope S`: an export from stdin into the empty scope S. */
export async function importCommand(services: BeliefServices, options: { scope: string }, io: CliIo): Promise<number> {
  const text = await io.readStdin();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    io.err(`invalid: stdin is not JSON (${error instanceof Error ? error.message : String(error)})`);
    return 1;
  }
  try {
    const result = await services.importScope(OPERATOR, options.scope, { data });
    io.err(
      `imported into ${options.scope}: ${result.beliefs} beliefs, ${result.historyItems} history items, ${result.evidence} evidence, ${result.mutations} mutations, ${result.edges} edges, ${result.topicFreezes} topic freezes`,
    );
    return 0;
  } catch (error) {
    return failure(io, error);
  }
}

/** `params show --scope S`: the scope's current parameter set (version, content hash, what the owner set, resolved). */
export async function paramsShowCommand(services: BeliefServices, options: { scope: string }, io: CliIo): Promise<number> {
  try {
    io.out(`${JSON.stringify(await services.getParams(OPERATOR, options.scope), null, 2)}\n`);
    return 0;
  } catch (error) {
    return failure(io, error);
  }
}

/**
 * `params set --scope S` (JSON on stdin, e.g. `{"essThreshold":0.4}`): a new version of the scope's parameter set.
 * Equal values give the same content hash, so setting an exported scope's values on the target lets its import go on.
 */
export async function paramsSetCommand(services: BeliefServices, options: { scope: string }, io: CliIo): Promise<number> {
  let params: unknown;
  try {
    params = JSON.parse(await io.readStdin());
  } catch (error) {
    io.err(`invalid: stdin is not JSON (${error instanceof Error ? error.message : String(error)})`);
    return 1;
  }
  try {
    // The service parses it (unknown keys and wrong types are refused as `invalid`).
    const set = await services.setParams(OPERATOR, options.scope, { params } as SetParamsInput);
    io.err(`parameter set version ${set.version} (${set.paramsVersion}) now applies to ${options.scope}`);
    return 0;
  } catch (error) {
    return failure(io, error);
  }
}
