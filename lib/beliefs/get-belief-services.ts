/**
 * The process-wide belief services (server actions, the REST API, MCP, the CLI): the process-wide database and graph
 * store (selected by configuration), the assessor chosen by configuration (`selectAssessor`: OpenAI-compatible when
 * configured, the offline heuristic otherwise) and the system clock. Built on first use, never at import time.
 */
import { selectAssessor } from "@/lib/assess/select-assessor";
import { getDatabase } from "@/lib/db/database";
import { getEmbedder } from "@/lib/embed/select-embedder";
import { getGraphStore } from "@/lib/graph/select-graph-store";
import type { BeliefServices } from "./belief-services";
import { createBeliefServices } from "./create-belief-services";
import { systemClock } from "./settable-clock";

type ServicesGlobal = typeof globalThis & { __credenceBeliefServices?: Promise<BeliefServices> };

export function getBeliefServices(): Promise<BeliefServices> {
  const holder = globalThis as ServicesGlobal;
  holder.__credenceBeliefServices ??= (async () => {
    const [db, store] = await Promise.all([getDatabase(), getGraphStore()]);
    return createBeliefServices({ db, store, assessor: selectAssessor(process.env), embedder: getEmbedder(), clock: systemClock });
  })();
  const building = holder.__credenceBeliefServices;
  building.catch(() => {
    if (holder.__credenceBeliefServices === building) delete holder.__credenceBeliefServices;
  });
  return building;
}
