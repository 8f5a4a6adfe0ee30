/**
 * Public entry of the belief services (docs/design.md §4). Callers import from `@/lib/beliefs` only.
 */
export * from "./belief-service-error";
export * from "./belief-schemas";
export * from "./belief-services";
export { createBeliefServices } from "./create-belief-services";
export { OPERATOR, OPERATOR_ACTOR, isOperator, sessionPrincipal, tokenPrincipal, type Principal } from "@/lib/access/principal";
export { ROLES, isRole, roleAtLeast, type Role } from "@/lib/identity/roles";
export type { IdentityServices, SignInServices, ScopeAsSeen } from "./identity-services";
export { composeServices, getBeliefServices, type ComposedServices, type ComposeOptions } from "./get-belief-services";
export { settableClock, systemClock, type SettableClock } from "./settable-clock";
export { seedDemoStories, demoStart, type DemoSeedReport, type DemoUsers, type SeedDemoOptions } from "./demo-stories";
export { replayCheckCommand, exportCommand, importCommand, paramsShowCommand, paramsSetCommand, type CliIo } from "./cli-commands";
