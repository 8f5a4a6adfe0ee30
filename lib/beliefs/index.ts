/**
 * Public entry of the belief services (SPEC §4, issue #4). Callers import from `@/lib/beliefs` only.
 */
export * from "./belief-service-error";
export * from "./belief-schemas";
export * from "./belief-services";
