/**
 * The process's serving state, for graceful shutdown: once draining (SIGTERM), readiness answers 503 so a load
 * balancer stops sending new requests while the ones in flight (and running jobs) finish.
 */
type LifecycleGlobal = typeof globalThis & { __credenceDraining?: boolean };

export function markDraining(draining = true): void {
  (globalThis as LifecycleGlobal).__credenceDraining = draining;
}

export function isDraining(): boolean {
  return (globalThis as LifecycleGlobal).__credenceDraining === true;
}
