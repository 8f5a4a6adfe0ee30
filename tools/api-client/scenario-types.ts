/**
 * What the seeds' scenario script (`seed-scenarios.ts`) takes and returns. Kept apart from the script because the script
 * compiles against types generated from the OpenAPI document (`openapi-types.ts`, not committed), while callers such as
 * `lib/api/openapi-contract.test.ts` need only these shapes.
 */
export interface ScenarioOptions {
  /** The server's origin, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  scope: string;
  /** An editor of the scope. */
  editorToken: string;
  /** A reviewer (or owner) of the scope. */
  reviewerToken: string;
  /** The fetch to send with (a test may record every exchange). */
  fetch?: typeof globalThis.fetch;
}

export interface ScenarioReport {
  beliefs: Record<string, string>;
  evidence: Record<string, string>;
  recallMode: string;
  blockedMutationId: string;
  frozenTopic: string;
  pendingMutationId: string;
  retractionTouched: { id: string; retractedSeqs: number[]; strippedSeqs: number[] }[];
  disputedTension: number;
  operationsCalled: string[];
}
