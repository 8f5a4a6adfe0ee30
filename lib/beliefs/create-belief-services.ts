/**
 * Assembles the belief services from their modules and puts the one error translation around every method, so a
 * caller only ever sees `BeliefServiceError` (or, for a bug, the original error, which the boundary logs as a 500).
 */
import type { BeliefServices, BeliefServicesConfig } from "./belief-services";
import { graphViewServices } from "./graph-view-services";
import { identityServices, signInServices } from "./identity-services";
import { mutationServices } from "./mutation-services";
import { readServices } from "./read-services";
import { assimilateService } from "./assimilate-service";
import { harvestService } from "./harvest-service";
import { ingestService } from "./ingest-service";
import { registerEvidenceService } from "./register-evidence-service";
import { retractService } from "./retract-service";
import { reviseEntryService } from "./revise-entry-service";
import { correctRelationService } from "./correct-relation-service";
import { readingsService } from "./readings-service";
import { scopeListServices } from "./scope-list-services";
import { scopeServices } from "./scope-services";
import { createServiceKit } from "./service-kit";
import { embeddingServices } from "./embedding-services";
import { synthesisServices } from "./synthesis-services";
import { withServiceErrors } from "./to-service-error";
import { withAmbientIdempotency } from "@/lib/graph/idempotency-mark";
import { instrumentStore } from "@/lib/ops/metrics";

export function createBeliefServices(config: BeliefServicesConfig): BeliefServices {
  // A write made under an Idempotency-Key claim marks it in the change-set's own transaction.
  const kit = createServiceKit({ ...config, store: instrumentStore(withAmbientIdempotency(config.store)) });
  const services: BeliefServices = {
    ...registerEvidenceService(kit),
    ...assimilateService(kit),
    ...harvestService(kit),
    ...ingestService(kit),
    ...reviseEntryService(kit),
    ...correctRelationService(kit),
    ...readingsService(kit),
    ...retractService(kit),
    ...mutationServices(kit),
    ...synthesisServices(kit),
    ...readServices(kit),
    ...scopeServices(kit),
    ...scopeListServices(kit),
    ...embeddingServices(kit),
    ...graphViewServices(kit),
    ...identityServices(config.db),
    ...signInServices(config.db),
  };
  return withServiceErrors(services);
}
