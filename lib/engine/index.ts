/**
 * The belief engine's public entry point (docs/design.md §3–§4): a pure core with no I/O, no clock and no framework.
 * Callers import from `@/lib/engine` only.
 */
export * from "./assessor";
export * from "./embedder";
export * from "./errors";
export * from "./model";
export * from "./model-schemas";
export * from "./params";
export * from "./ports";
export * from "./change-set";
export * from "./network";
export * from "./replay";
export * from "./standing";
export * from "./history-builder";
export * from "./verification";
export * from "./assimilate";
export * from "./grounding";
export * from "./harvest";
export * from "./retrieval";
export * from "./topic";
export * from "./recall";
export * from "./stability";
export * from "./synthesis";
export * from "./revision";
export * from "./mutation";
export * from "./readings";
export * from "./bands";
export * from "./corrections";
// Names defined in more than one module: the model's definition is the shared one.
export type { Quantity } from "./model";
