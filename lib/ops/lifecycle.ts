/**
 * The process's serving state, for graceful shutdown: once draining (SIGTERM), readiness answers 503 so a load
 * balancer stops sending new requests while the ones in flight (and running jobs) finish.
 */
import { processValue } from "@/lib/process-singleton";

const draining = processValue("__credenceDraining", () => false);

export function markDraining(value = true): void {
  draining.set(value);
}

export function isDraining(): boolean {
  return draining.get();
}
