/**
 * The scopes a caller may read (open as the `{scope}` of a URL or a tool call), with its role in each: how an agent
 * finds the slugs it may use. Resolved by `lib/access`, the one place that decides visibility.
 */
import { listReadableScopes } from "@/lib/access/readable-scopes";
import type { BeliefServices } from "./belief-services";
import type { ServiceKit } from "./service-kit";

export function scopeListServices(kit: ServiceKit): Pick<BeliefServices, "listScopes"> {
  return {
    listScopes: (caller) => listReadableScopes(kit.config.db, caller),
  };
}
