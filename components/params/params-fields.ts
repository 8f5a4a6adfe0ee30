import type { EngineParams, EngineParamsInput } from "@/lib/engine";
import { fromDisplay, paramSpec, rangeError, toDisplay } from "@/lib/actions/params-catalog";

/** A parameter as the form shows it: `tierStrength.document` for a tier strength, else the parameter's own name. */
export type ParamValue = number | boolean;

/** The resolved parameters as one flat, ordered list of (name, value). */
export function flattenParams(params: EngineParams): [string, ParamValue][] {
  const out: [string, ParamValue][] = [];
  for (const [tier, strength] of Object.entries(params.tierStrength)) out.push([`tierStrength.${tier}`, strength]);
  for (const [name, value] of Object.entries(params)) if (name !== "tierStrength" && (typeof value === "number" || typeof value === "boolean")) out.push([name, value]);
  return out;
}

/** The form's initial values: numbers in their display unit (ms as minutes or days), booleans as "true"/"false". */
export function formValues(params: EngineParams): Record<string, string> {
  return Object.fromEntries(flattenParams(params).map(([name, value]) => [name, typeof value === "boolean" ? String(value) : String(toDisplay(paramSpec(name), value))]));
}

/**
 * The values a submitted form changes relative to `current`, as a partial parameter input, plus a message per field
 * that is not a finite number. Booleans come as "true"/"false". Unchanged and unknown fields are left out.
 */
export function changedParams(current: EngineParams, form: Readonly<Record<string, string>>): { changes: EngineParamsInput; errors: Record<string, string> } {
  const changes: Record<string, unknown> = {};
  const tierStrength: Record<string, number> = {};
  const errors: Record<string, string> = {};
  for (const [name, value] of flattenParams(current)) {
    const raw = form[name];
    if (raw === undefined) continue;
    let next: ParamValue;
    if (typeof value === "boolean") next = raw === "true";
    else {
      // The form shows some values in another unit (ms as minutes or days): compare and check in that unit.
      const spec = paramSpec(name);
      const parsed = raw.trim() === "" ? Number.NaN : Number(raw);
      const problem = rangeError(spec, parsed);
      if (problem) {
        errors[name] = problem;
        continue;
      }
      if (parsed === toDisplay(spec, value as number)) continue;
      next = fromDisplay(spec, parsed);
    }
    if (next === value) continue;
    if (name.startsWith("tierStrength.")) tierStrength[name.slice("tierStrength.".length)] = next as number;
    else changes[name] = next;
  }
  if (Object.keys(tierStrength).length > 0) changes.tierStrength = tierStrength;
  return { changes: changes as EngineParamsInput, errors };
}

/** What changed between two versions' resolved parameters, in form order. */
export function diffParams(previous: EngineParams, next: EngineParams): { name: string; from: ParamValue; to: ParamValue }[] {
  const before = new Map(flattenParams(previous));
  return flattenParams(next)
    .filter(([name, value]) => before.get(name) !== value)
    .map(([name, to]) => ({ name, from: before.get(name) ?? to, to }));
}
