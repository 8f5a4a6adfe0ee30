/**
 * Public entry of the belief services (SPEC §4, issue #4). Callers import from `@/lib/beliefs` only.
 */
export * from "./belief-service-error";
export * from "./belief-schemas";
export * from "./belief-services";
export { createBeliefServices } from "./create-belief-services";
export { OPERATOR_ACTOR } from "./caller-context";
export { getBeliefServices } from "./get-belief-services";
export { settableClock, systemClock, type SettableClock } from "./settable-clock";
export { seedDemoStories, demoStart, type DemoSeedReport, type DemoUsers, type SeedDemoOptions } from "./demo-stories";
export { replayCheckCommand, exportCommand, importCommand, paramsShowCommand, paramsSetCommand, type CliIo } from "./cli-commands";
