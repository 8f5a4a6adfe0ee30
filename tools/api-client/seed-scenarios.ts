/**
 * The seeds' scenarios driven through `/api/v1` by a client generated from the OpenAPI document (openapi-typescript
 * types + openapi-fetch): the deploy-branch contradiction, the open-source-security evidence chain, a laundering
 * attempt, a retraction and its cascade, an oscillation stopped by the monitor, a mutation waiting for review, a
 * disputed belief, a harvest — and the reads around them. Every request and answer is typed by the generated
 * `openapi-types.ts` only; nothing here imports the server's code. Any answer that is not what the scenario expects
 * throws. Claims are written as stated (`match: "exact"`), as the seeds' stories write them.
 *
 *   CREDENCE_URL=http://127.0.0.1:3000 CREDENCE_TOKEN=cred_… CREDENCE_REVIEWER_TOKEN=cred_… \
 *     npx tsx tools/api-client/seed-scenarios.ts <scope>
 *
 * (the editor token writes; the reviewer's — a reviewer or owner of the scope — decides and lifts the freeze).
 */
import path from "node:path";
import createClient, { type Client } from "openapi-fetch";
import type { components, paths } from "./openapi-types";
import type { ScenarioOptions, ScenarioReport } from "./scenario-types";

export type { ScenarioOptions, ScenarioReport };

type Belief = components["schemas"]["Belief"];
type HistoryItem = components["schemas"]["HistoryItem"];

class ScenarioError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ScenarioError";
  }
}

function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new ScenarioError(message);
}

/** The answer's data, or a ScenarioError naming the call and the error body. */
function ok<T>(call: string, result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new ScenarioError(`${call}: HTTP ${result.response.status} ${JSON.stringify(result.error)}`);
  return result.data;
}

export async function runSeedScenarios(options: ScenarioOptions): Promise<ScenarioReport> {
  const { scope } = options;
  const called: string[] = [];
  const make = (token: string): Client<paths> =>
    createClient<paths>({
      baseUrl: options.baseUrl,
      headers: { authorization: `Bearer ${token}` },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
  const editor = make(options.editorToken);
  const reviewer = make(options.reviewerToken);
  const at = { params: { path: { scope } } };
  const beliefs: Record<string, string> = {};
  const evidence: Record<string, string> = {};
  const note = (operationId: string) => called.push(operationId);

  const register = async (key: string, kind: "document" | "observation" | "measurement" | "executable_check", text: string, assess = true) => {
    note("registerEvidence");
    const r = ok("registerEvidence", await editor.POST("/api/v1/scopes/{scope}/evidence", { ...at, body: { kind, text, assess } }));
    evidence[key] = r.evidence.id;
    return r.evidence.id;
  };
  const assimilate = async (body: paths["/api/v1/scopes/{scope}/assimilate"]["post"]["requestBody"]["content"]["application/json"]) => {
    note("assimilate");
    const r = ok("assimilate", await editor.POST("/api/v1/scopes/{scope}/assimilate", { ...at, body }));
    check(r.belief.history.length > 0, "assimilate: the belief carries its history");
    return r;
  };
  const entries = (history: HistoryItem[]) => history.filter((item): item is Extract<HistoryItem, { type: "entry" }> => item.type === "entry");

  // ---- the caller's scopes ----
  note("listScopes");
  const scopes = ok("listScopes", await editor.GET("/api/v1/scopes", {}));
  check(scopes.scopes.some((s) => s.slug === scope && s.role === "editor"), `listScopes: ${scope} with the editor role`);

  // ---- 1. the deploy-branch contradiction ----
  note("ingest");
  const dry = ok("ingest", await editor.POST("/api/v1/scopes/{scope}/ingest", { params: { path: { scope }, query: { dryRun: true } }, body: { text: "Deploys go from the main branch." } }));
  check(dry.outcome === "dry_run", "ingest dry run writes nothing");
  note("ingest");
  const monday = ok("ingest", await editor.POST("/api/v1/scopes/{scope}/ingest", { ...at, body: { text: "Deploys go from the main branch.", topic: "deploy branch" } }));
  const mondayBelief = monday.changes.created[0]?.beliefId;
  check(monday.outcome === "committed" && mondayBelief !== undefined, "Monday's statement becomes a belief");
  beliefs.deployMain = mondayBelief;
  note("ingest");
  const thursday = ok(
    "ingest",
    await reviewer.POST("/api/v1/scopes/{scope}/ingest", { ...at, body: { text: "Deploys go out from the protected release branch; nothing is ever deployed from the main branch.", source: { kind: "observation", uri: "chat://thursday" } } }),
  );
  check(thursday.disagreements.some((d) => d.beliefId === mondayBelief), "Thursday's statement disagrees with Monday's belief");
  beliefs.deployRelease = thursday.changes.created[0]?.beliefId ?? "";
  note("recall");
  const recall = ok("recall", await editor.GET("/api/v1/scopes/{scope}/recall", { params: { path: { scope }, query: { q: "Which branch do we deploy from?" } } }));
  check(recall.mode === "contested", `recall is contested (got ${recall.mode})`);
  check(recall.competingBeliefIds.includes(mondayBelief), "the competing view is Monday's belief");
  note("getBelief");
  const detail = ok("getBelief", await editor.GET("/api/v1/scopes/{scope}/beliefs/{id}", { params: { path: { scope, id: mondayBelief } } }));
  check(entries(detail.belief.history).some((e) => e.relation === "REBUTS" && e.verified), "Monday's belief carries a verified rebuttal");
  note("replayBelief");
  const replay = ok("replayBelief", await editor.GET("/api/v1/scopes/{scope}/beliefs/{id}/replay", { params: { path: { scope, id: mondayBelief } } }));
  check(replay.matches, "stored state equals the replay");

  // ---- 2. the open-source-security evidence chain ----
  const study = await register("ossStudy", "document", "A 2024 study of 500 CVEs found that open-source projects patched vulnerabilities 3.2x faster than proprietary equivalents.");
  const oss = await assimilate({
    match: "exact",
    claim: "Open-source software tends to be more secure than proprietary alternatives.",
    topic: "open source security",
    evidence: [{ sourceId: study, tier: "document", weight: 0.72, reasoning: "Directly relevant empirical data." }],
  });
  beliefs.ossSecure = oss.belief.id;
  const scan = await register("ossScan", "measurement", "Our dependency scanner measured a median of 9 days to patch critical CVEs in open-source dependencies, against 41 days for proprietary vendors.");
  await assimilate({ beliefId: oss.belief.id, evidence: [{ sourceId: scan, tier: "measurement", weight: 0.8 }] });
  const sla = await assimilate({
    match: "exact",
    claim: "Our open-source dependencies are patched fast enough for our 14-day security SLA.",
    topic: "open source security",
    evidence: [
      { sourceId: oss.belief.id, tier: "document", reasoning: "Follows from the open-source security belief." },
      { sourceId: scan, tier: "measurement", weight: 0.9 },
    ],
  });
  beliefs.ossSla = sla.belief.id;
  check(sla.entries.every((e) => e.verified && e.launderingReason === null), "the chain's citations are verified, none laundered");

  // ---- 3. a laundering attempt ----
  const vendor = await assimilate({ match: "exact", claim: "Vendor X's closed-source SDK has no known vulnerabilities.", evidence: [{ sourceId: null, tier: "model_assertion", reasoning: "The model said so." }] });
  beliefs.vendorClaim = vendor.belief.id;
  const selfCite = await assimilate({ beliefId: vendor.belief.id, evidence: [{ sourceId: vendor.belief.id, tier: "held_out_truth", reasoning: "Citing itself as proof." }] });
  check(selfCite.entries.every((e) => e.launderingReason !== null && e.effectiveWeight === 0), "a self-citation is laundered (weight 0)");
  const laundered = await assimilate({ match: "exact", claim: "Vendor X's SDK is safe to ship in production.", evidence: [{ sourceId: vendor.belief.id, tier: "document", reasoning: "Cites an ungrounded belief." }] });
  beliefs.vendorLaundered = laundered.belief.id;
  check(laundered.entries.every((e) => e.launderingReason !== null), "citing an ungrounded belief is laundered");

  // ---- 4. a retraction and its cascade ----
  const blog = await register("leftpadBlog", "document", "Blog post: the left-pad 2.0 package on npm ships a credential-stealing backdoor.", false);
  const leftpad = await assimilate({ match: "exact", claim: "The left-pad 2.0 package is compromised.", evidence: [{ sourceId: blog, tier: "document" }] });
  const removal = await assimilate({ match: "exact", claim: "We must remove left-pad 2.0 from every build.", evidence: [{ sourceId: leftpad.belief.id, tier: "document", reasoning: "Follows from the compromise." }] });
  beliefs.leftpad = leftpad.belief.id;
  beliefs.leftpadRemoval = removal.belief.id;
  note("retractSource");
  const preview = ok("retractSource", await editor.POST("/api/v1/scopes/{scope}/retractions", { params: { path: { scope }, query: { dryRun: true } }, body: { sourceId: blog } }));
  check(preview.dryRun && preview.changeSetId === null, "a dry run writes nothing");
  note("retractSource");
  const retraction = ok("retractSource", await editor.POST("/api/v1/scopes/{scope}/retractions", { ...at, body: { sourceId: blog } }));
  const touched = new Map(retraction.touched.map((t) => [t.id, t]));
  check(touched.get(leftpad.belief.id)?.retractedSeqs.includes(1) === true, "the compromised-package belief had its entry retracted");
  check((touched.get(removal.belief.id)?.strippedSeqs.length ?? 0) > 0, "the removal belief lost its citation (stripped) in the cascade");
  const removalAfter: Belief | undefined = touched.get(removal.belief.id);
  check(removalAfter !== undefined && removalAfter.credence < removal.belief.credence, "the removal belief's credence fell");

  // ---- 5. an oscillation the monitor stops ----
  const handbook: string[] = [];
  for (let i = 0; i < 6; i++) handbook.push(await register(`backupDoc${i}`, "document", `Operations handbook, section ${i + 1}: production database backups run every hour.`, false));
  const hourly = await assimilate({ match: "exact", claim: "Production database backups run hourly.", topic: "database backups", evidence: handbook.map((id) => ({ sourceId: id, tier: "document" as const })) });
  beliefs.backupsHourly = hourly.belief.id;
  const cron = await register("backupCron", "executable_check", "Cron check: the backup job's schedule is '0 2 * * *' (once a day at 02:00).", false);
  await assimilate({ beliefId: hourly.belief.id, evidence: [{ sourceId: cron, tier: "executable_check", relation: "REBUTS", weight: 0.8 }] });
  note("proposeMutation");
  const daily = ok(
    "proposeMutation",
    await editor.POST("/api/v1/scopes/{scope}/mutations", {
      ...at,
      body: { belief: "Production database backups run daily.", strength: 0.85, reason: `The cron check ${cron} shows a daily schedule.`, evidenceIds: [cron], sourceEvent: cron, mutationType: "superseded" },
    }),
  );
  beliefs.backupsDaily = daily.belief?.id ?? "";
  note("proposeMutation");
  const back = await editor.POST("/api/v1/scopes/{scope}/mutations", {
    ...at,
    body: { belief: "Production database backups run hourly.", strength: 0.6, reason: `The handbook ${handbook[0] ?? ""} still says hourly.`, evidenceIds: handbook.slice(0, 1), sourceEvent: handbook[0] ?? "", mutationType: "superseded" },
  });
  const stop = back.error?.error;
  check(back.response.status === 409 && stop?.code === "oscillation_hard_stop", `the monitor stops the oscillation (got HTTP ${back.response.status})`);
  const blockedMutationId = String(stop.details.mutationId ?? "");
  const frozenTopic = String(stop.details.topic ?? "");
  check(blockedMutationId !== "" && frozenTopic !== "", "the hard stop names the blocked mutation and the frozen topic");
  note("unfreezeTopic");
  const lifted = ok("unfreezeTopic", await reviewer.POST("/api/v1/scopes/{scope}/topics/{topic}/unfreeze", { params: { path: { scope, topic: frozenTopic } }, body: { note: "Checked with ops: daily is right." } }));
  check(!lifted.freeze.frozen, "the reviewer lifts the freeze");

  // ---- 6. a mutation waiting for review ----
  const policies: string[] = [];
  for (let i = 0; i < 4; i++) policies.push(await register(`limitDoc${i}`, "document", `API gateway policy ${i + 1}: 100 requests per minute per token.`, false));
  const limit = await assimilate({ match: "exact", claim: "The public API rate limit is 100 requests per minute.", topic: "api rate limit", evidence: policies.map((id) => ({ sourceId: id, tier: "document" as const })) });
  beliefs.rateLimit100 = limit.belief.id;
  const sighting = await register("rateLimitSighting", "observation", "An integration test saw HTTP 429 responses at 50 requests per minute.", false);
  note("proposeMutation");
  const pending = ok(
    "proposeMutation",
    await editor.POST("/api/v1/scopes/{scope}/mutations", {
      ...at,
      headers: { "Idempotency-Key": `rate-limit-50-${scope}` },
      body: { belief: "The public API rate limit is 50 requests per minute.", strength: 0.7, reason: `Observed in ${sighting}.`, evidenceIds: [sighting], sourceEvent: sighting, mutationType: "updated" },
    }),
  );
  check(pending.mutation.status === "pending_review", `the conflict waits for a reviewer (got ${pending.mutation.status})`);
  note("listMutations");
  const queue = ok("listMutations", await reviewer.GET("/api/v1/scopes/{scope}/mutations", { params: { path: { scope }, query: { status: ["pending_review"] } } }));
  check(queue.mutations.some((m) => m.id === pending.mutation.id), "the review queue lists it");
  note("decideMutation");
  const decided = ok(
    "decideMutation",
    await reviewer.POST("/api/v1/scopes/{scope}/mutations/{id}/decision", { params: { path: { scope, id: pending.mutation.id } }, body: { decision: "approve", resolution: "supersede", note: "Gateway config changed; 50/min is current." } }),
  );
  check(decided.mutation.status === "approved" && decided.belief?.supersedesId === limit.belief.id, "approved with supersede: the new belief supersedes the old");

  // ---- 7. a disputed belief ----
  const capacity: string[] = [];
  for (const [i, text] of ["Load test report: p95 latency stayed under 200 ms at twice last year's peak.", "Capacity review: autoscaling added nodes within 90 seconds at the sales peak.", "SRE runbook: target utilisation leaves 40% headroom at peak."].entries()) {
    capacity.push(await register(`capacity${i}`, "document", text, false));
  }
  const autoscaler = await assimilate({ match: "exact", claim: "The staging cluster autoscaler keeps up with peak load.", topic: "autoscaler capacity", evidence: capacity.map((id) => ({ sourceId: id, tier: "document" as const })) });
  beliefs.autoscaler = autoscaler.belief.id;
  let disputed = autoscaler.belief;
  const measurements = [
    "Load test #14: p95 latency reached 2.4 s at 1.5x peak while the autoscaler was still adding nodes.",
    "Incident report: the autoscaler lagged 7 minutes behind demand and requests were shed.",
    "Capacity measurement: node provisioning took 6 minutes at peak.",
    "Synthetic load replay: 18% of requests timed out at peak with the autoscaler at its node cap.",
    "Load test #15: the autoscaler reached its node cap at 1.2x peak.",
    "Incident report: a second peak shed 9% of requests while nodes were provisioning.",
    "Capacity measurement: scale-out took 5 minutes against a 2-minute budget.",
    "Synthetic load replay: p99 latency exceeded 5 s at peak.",
  ];
  // Real measurements keep rebutting it until it is disputed (tension past 0.5), as the seeds' story does over days.
  for (const [i, text] of measurements.entries()) {
    if (disputed.status === "disputed") break;
    const id = await register(`autoscalerRebuttal${i}`, "measurement", text, false);
    disputed = (await assimilate({ beliefId: autoscaler.belief.id, evidence: [{ sourceId: id, tier: "measurement", relation: "REBUTS", weight: 1 }] })).belief;
  }
  check(disputed.tension > 0.5 && disputed.status === "disputed", `real rebuttals dispute the belief (tension ${disputed.tension}, ${disputed.status})`);

  // ---- 8. a correction, a harvest, and the reads around them ----
  note("reviseEntry");
  const revised = ok("reviseEntry", await editor.POST("/api/v1/scopes/{scope}/beliefs/{id}/revisions", { params: { path: { scope, id: oss.belief.id } }, body: { seq: 1, weight: 0.5, reason: "The study's sample was smaller than reported." } }));
  check(revised.belief.history.some((item) => item.type === "revised"), "the correction is in the history");
  note("harvest");
  const harvested = ok(
    "harvest",
    await editor.POST("/api/v1/scopes/{scope}/harvest", { ...at, body: { text: "Our staging environment mirrors production. Feature flags are removed within two sprints.", producedBy: { name: "release-assistant", kind: "agent" }, commit: true } }),
  );
  check(harvested.claims.length === 2 && harvested.claims.every((c) => c.tier === "model_assertion"), "unsourced model output enters as model assertions");
  note("listBeliefs");
  const found = ok("listBeliefs", await editor.GET("/api/v1/scopes/{scope}/beliefs", { params: { path: { scope }, query: { q: "deploy branch", k: 3 } } }));
  check(found.beliefs.length > 0 && found.beliefs.every((b) => typeof b.score === "number"), "retrieval ranks with scores");
  note("listBeliefs");
  const listed = ok("listBeliefs", await editor.GET("/api/v1/scopes/{scope}/beliefs", { params: { path: { scope }, query: { limit: 500 } } }));
  check(listed.beliefs.some((b) => b.id === disputed.id), "the listing holds the disputed belief");
  note("getGraph");
  const graph = ok("getGraph", await editor.GET("/api/v1/scopes/{scope}/graph", { params: { path: { scope } } }));
  check(graph.edges.some((e) => e.data.type === "REBUTS") && graph.edges.some((e) => e.data.type === "SUPERSEDES"), "the graph shows rebuttals and supersession");
  note("listSyntheses");
  ok("listSyntheses", await editor.GET("/api/v1/scopes/{scope}/syntheses", at));

  // ---- 9. a scope of the agent's own: members, roles and grants ----
  const ownSlug = `${scope}-own`.slice(0, 48);
  note("createScope");
  const own = ok("createScope", await editor.POST("/api/v1/scopes", { body: { slug: ownSlug, name: "An agent's own scope" } }));
  check(own.scope.slug === ownSlug && own.scope.role === "owner", "the creator owns the new scope");
  const atOwn = { params: { path: { scope: ownSlug } } };
  note("listMembers");
  const roster = ok("listMembers", await editor.GET("/api/v1/scopes/{scope}/members", at));
  const self = ok("listMembers", await editor.GET("/api/v1/scopes/{scope}/members", atOwn)).members;
  check(self.length === 1 && self[0]?.role === "owner", "the new scope has its creator as only member");
  const colleague = roster.members.find((m) => m.userId !== self[0]?.userId);
  check(colleague !== undefined, "the home scope has another member to invite");
  note("addMember");
  const added = ok("addMember", await editor.POST("/api/v1/scopes/{scope}/members", { ...atOwn, body: { email: colleague.email, role: "viewer" } }));
  check(added.member.role === "viewer", "the colleague joins as a viewer");
  note("changeMemberRole");
  const promoted = ok("changeMemberRole", await editor.PATCH("/api/v1/scopes/{scope}/members/{userId}", { params: { path: { scope: ownSlug, userId: added.member.userId } }, body: { role: "reviewer" } }));
  check(promoted.member.role === "reviewer", "the colleague is now a reviewer");
  note("removeMember");
  const removed = await editor.DELETE("/api/v1/scopes/{scope}/members/{userId}", { params: { path: { scope: ownSlug, userId: added.member.userId } } });
  check(removed.response.status === 204, `removeMember answers 204 (got ${removed.response.status})`);
  note("addGrant");
  const grant = ok("addGrant", await editor.POST("/api/v1/scopes/{scope}/grants", { ...atOwn, body: { toSlug: scope } }));
  check(grant.grant.from.slug === ownSlug && grant.grant.to.slug === scope, "the grant runs from the new scope to the home scope");
  note("listGrants");
  const grants = ok("listGrants", await editor.GET("/api/v1/scopes/{scope}/grants", at));
  check(grants.incoming.some((g) => g.from.slug === ownSlug), "the home scope sees the incoming grant");
  note("removeGrant");
  const withdrawn = await editor.DELETE("/api/v1/scopes/{scope}/grants/{toScope}", { params: { path: { scope: ownSlug, toScope: scope } } });
  check(withdrawn.response.status === 204, `removeGrant answers 204 (got ${withdrawn.response.status})`);

  // ---- 10. long work as a job ----
  note("enqueueJob");
  const job = ok("enqueueJob", await editor.POST("/api/v1/jobs", { body: { kind: "ingest", scope, input: { text: "The on-call rota changes every Monday." } } }));
  check(job.kind === "ingest" && job.scope === scope, "the job is queued for the scope");
  note("getJob");
  const followed = ok("getJob", await editor.GET("/api/v1/jobs/{id}", { params: { path: { id: job.id } } }));
  check(followed.id === job.id, "the job can be followed by its id");
  note("streamJobEvents");
  const events = await editor.GET("/api/v1/jobs/{id}/events", { params: { path: { id: job.id } }, parseAs: "stream" });
  check(events.response.status === 200 && events.data !== undefined && events.data !== null, `the job's events stream (got ${events.response.status})`);
  const reader = (events.data as ReadableStream<Uint8Array>).getReader();
  const first = await reader.read();
  await reader.cancel();
  check(new TextDecoder().decode(first.value).startsWith("event: job\ndata: {"), "the stream opens with the job's state");

  return {
    beliefs,
    evidence,
    recallMode: recall.mode,
    blockedMutationId,
    frozenTopic,
    pendingMutationId: pending.mutation.id,
    retractionTouched: retraction.touched.map((t) => ({ id: t.id, retractedSeqs: t.retractedSeqs, strippedSeqs: t.strippedSeqs })),
    disputedTension: disputed.tension,
    operationsCalled: [...new Set(called)],
  };
}

async function main(): Promise<void> {
  const scope = process.argv[2];
  const { CREDENCE_URL = "http://127.0.0.1:3000", CREDENCE_TOKEN, CREDENCE_REVIEWER_TOKEN } = process.env;
  if (!scope || !CREDENCE_TOKEN || !CREDENCE_REVIEWER_TOKEN) {
    console.error("usage: CREDENCE_TOKEN=… CREDENCE_REVIEWER_TOKEN=… [CREDENCE_URL=…] npx tsx tools/api-client/seed-scenarios.ts <scope>");
    process.exit(2);
  }
  const report = await runSeedScenarios({ baseUrl: CREDENCE_URL, scope, editorToken: CREDENCE_TOKEN, reviewerToken: CREDENCE_REVIEWER_TOKEN });
  console.log(JSON.stringify(report, null, 2));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
