/**
 * The seeds' own stories, written through the belief services with a back-dated clock so the demo scope's history
 * reads like two weeks of real use (docs/design.md §8). The lead's demo seeder creates the users and the scope, builds the
 * services with a `SettableClock`, and calls `seedDemoStories`.
 *
 * Stories (day offsets from a Monday): the deploy-branch contradiction (Mon "main", Thu "release"); the open-source
 * security evidence chain (a study, a measurement, a report, and a belief that cites the first belief); a laundering
 * attempt (self-citation, citing an ungrounded belief); a retraction with its cascade; an oscillation stopped by the
 * monitor (supersede, then A→B→A → hard stop, topic frozen); a mutation waiting for review; a disputed belief
 * (supported, then rebutted by real measurements until tension passes 0.5). Each story states its entries exactly
 * (`match: "exact"`), so the reader relates nothing the story did not write.
 */
import type { IsoTime } from "@/lib/engine";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";
import type { BeliefServices, Caller } from "./belief-services";

export interface DemoUsers {
  /** Owns the scope. */
  owner: Caller;
  /** Writes most stories. */
  editor: Caller;
  /** Reviews; also the teammate who says "release" on Thursday. */
  reviewer: Caller;
  /** An agent's token user (harvest, the laundering attempt); default the editor. */
  agent?: Caller;
}

export interface SeedDemoOptions {
  scopeSlug: string;
  users: DemoUsers;
  /** The clock the services were built with. */
  clock: { set(time: IsoTime): void };
  /** The Monday 00:00 UTC the stories start on; default the Monday 14–20 days before now. */
  start?: IsoTime;
}

export interface DemoSeedReport {
  scope: string;
  /** Belief ids by story role. */
  beliefs: Record<string, string>;
  evidence: Record<string, string>;
  mutations: { superseding: string; blocked: string; pendingReview: string };
  frozenTopic: string;
  span: { from: IsoTime; to: IsoTime };
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The Monday (00:00 UTC) between 14 and 20 days before `now`. */
export function demoStart(now: Date = new Date()): IsoTime {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - 14 * DAY);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(d.getTime() - back * DAY).toISOString();
}

export async function seedDemoStories(services: BeliefServices, options: SeedDemoOptions): Promise<DemoSeedReport> {
  const { scopeSlug: scope, users, clock } = options;
  const agent = users.agent ?? users.editor;
  const base = Date.parse(options.start ?? demoStart());
  let last = base;
  const at = (day: number, hour: number, minute = 0): void => {
    last = base + day * DAY + hour * HOUR + minute * 60_000;
    clock.set(new Date(last).toISOString());
  };
  const beliefs: Record<string, string> = {};
  const evidence: Record<string, string> = {};
  const register = async (who: Caller, key: string, kind: "document" | "observation" | "measurement" | "executable_check", text: string, assess = true) => {
    const r = await services.registerEvidence(who, scope, { kind, text, assess });
    evidence[key] = r.evidence.id;
    return r.evidence.id;
  };

  // ---- Day 0 (Monday): the deploy-branch statement, the open-source study ----
  at(0, 9, 10);
  const monday = await services.ingest(users.editor, scope, { text: "Deploys go from the main branch.", topic: "deploy branch" });
  beliefs.deployMain = createdIn(monday.changes);
  evidence.deployMonday = monday.evidence.id;

  at(0, 10, 30);
  const study = await register(users.editor, "ossStudy", "document", "A 2024 study of 500 CVEs found that open-source projects patched vulnerabilities 3.2x faster than proprietary equivalents.");
  const oss = await services.assimilate(users.editor, scope, {
    match: "exact",
    claim: "Open-source software tends to be more secure than proprietary alternatives.",
    topic: "open source security",
    evidence: [{ sourceId: study, tier: "document", weight: 0.72, reasoning: "Directly relevant empirical data supporting the belief's core claim." }],
  });
  beliefs.ossSecure = oss.belief.id;

  // ---- Day 1: more security evidence, the disputed belief's support, a laundering attempt ----
  at(1, 11, 0);
  const scan = await register(users.editor, "ossScan", "measurement", "Our dependency scanner measured a median of 9 days to patch critical CVEs in our open-source dependencies, against 41 days for our proprietary vendors.");
  await services.assimilate(users.editor, scope, { beliefId: oss.belief.id, evidence: [{ sourceId: scan, tier: "measurement", weight: 0.8 }] });

  at(1, 14, 0);
  const capacity: string[] = [];
  for (const [i, text] of [
    "Load test report: the staging autoscaler held p95 latency under 200 ms at twice last year's peak.",
    "Capacity review: autoscaling added nodes within 90 seconds during the March sales peak.",
    "SRE runbook: the autoscaler's target utilisation leaves 40% headroom at peak.",
  ].entries()) {
    capacity.push(await register(users.editor, `capacity${i}`, "document", text, false));
  }
  const autoscaler = await services.assimilate(users.editor, scope, {
    match: "exact",
    claim: "The staging cluster autoscaler keeps up with peak load.",
    topic: "autoscaler capacity",
    evidence: capacity.map((id) => ({ sourceId: id, tier: "document" as const })),
  });
  beliefs.autoscaler = autoscaler.belief.id;

  at(1, 16, 45);
  const vendorClaim = await services.assimilate(agent, scope, {
    match: "exact",
    claim: "Vendor X's closed-source SDK has no known vulnerabilities.",
    evidence: [{ sourceId: null, tier: "model_assertion", reasoning: "The model said so." }],
  });
  beliefs.vendorClaim = vendorClaim.belief.id;
  at(1, 16, 50);
  await services.assimilate(agent, scope, {
    beliefId: vendorClaim.belief.id,
    evidence: [{ sourceId: vendorClaim.belief.id, tier: "held_out_truth", reasoning: "Citing itself as proof (laundering attempt)." }],
  });
  at(1, 16, 55);
  const laundered = await services.assimilate(agent, scope, {
    match: "exact",
    claim: "Vendor X's SDK is safe to ship in production.",
    evidence: [{ sourceId: vendorClaim.belief.id, tier: "document", reasoning: "Cites an ungrounded belief as if it were a document." }],
  });
  beliefs.vendorLaundered = laundered.belief.id;

  // ---- Day 2: the security chain continues; a claim built on a blog post ----
  at(2, 9, 30);
  const scorecard = await register(users.reviewer, "ossScorecard", "document", "The OpenSSF Scorecard report shows that most widely used open-source projects run fuzzing and mandatory code review.");
  await services.assimilate(users.reviewer, scope, { beliefId: oss.belief.id, evidence: [{ sourceId: scorecard, tier: "document", weight: 0.6 }] });
  at(2, 10, 0);
  const slaBelief = await services.assimilate(users.editor, scope, {
    match: "exact",
    claim: "Our open-source dependencies are patched fast enough for our 14-day security SLA.",
    topic: "open source security",
    evidence: [
      { sourceId: oss.belief.id, tier: "document", reasoning: "Follows from the open-source security belief." },
      { sourceId: scan, tier: "measurement", weight: 0.9 },
    ],
  });
  beliefs.ossSla = slaBelief.belief.id;

  at(2, 15, 20);
  const blog = await register(users.editor, "leftpadBlog", "document", "Blog post: the left-pad 2.0 package on npm ships a credential-stealing backdoor.", false);
  const leftpad = await services.assimilate(users.editor, scope, { match: "exact", claim: "The left-pad 2.0 package is compromised.", evidence: [{ sourceId: blog, tier: "document" }] });
  beliefs.leftpad = leftpad.belief.id;
  at(2, 15, 40);
  const removal = await services.assimilate(users.editor, scope, {
    match: "exact",
    claim: "We must remove left-pad 2.0 from every build.",
    evidence: [{ sourceId: leftpad.belief.id, tier: "document", reasoning: "Follows from the compromise." }],
  });
  beliefs.leftpadRemoval = removal.belief.id;

  // ---- Day 3 (Thursday): the release-branch statement from another teammate; backups become canonical ----
  at(3, 15, 0);
  const thursday = await services.ingest(users.reviewer, scope, { text: "Deploys go out from the protected release branch; nothing is ever deployed from the main branch." });
  beliefs.deployRelease = createdIn(thursday.changes);
  evidence.deployThursday = thursday.evidence.id;

  at(3, 16, 0);
  const backupDocs: string[] = [];
  for (let i = 0; i < 6; i++) {
    backupDocs.push(await register(users.editor, `backupDoc${i}`, "document", `Operations handbook, section ${i + 1}: production database backups run every hour.`, false));
  }
  const hourly = await services.assimilate(users.editor, scope, {
    match: "exact",
    claim: "Production database backups run hourly.",
    topic: "database backups",
    evidence: backupDocs.map((id) => ({ sourceId: id, tier: "document" as const })),
  });
  beliefs.backupsHourly = hourly.belief.id;

  // ---- Day 4: the left-pad blog post was a hoax: retracted, the removal belief loses its grounding ----
  at(4, 9, 5);
  await services.retract(users.editor, scope, { sourceId: blog });

  at(4, 11, 0);
  const cron = await register(users.editor, "backupCron", "executable_check", "Cron check: the backup job's schedule is '0 2 * * *' (once a day at 02:00).", false);
  await services.assimilate(users.editor, scope, { beliefId: hourly.belief.id, evidence: [{ sourceId: cron, tier: "executable_check", relation: "REBUTS", weight: 0.8 }] });

  // ---- Day 5: supersession, then the oscillation the monitor stops ----
  at(5, 10, 0);
  const daily = await services.proposeMutation(users.editor, scope, {
    belief: "Production database backups run daily.",
    strength: 0.85,
    reason: `The cron check ${cron} shows a daily schedule.`,
    evidenceIds: [cron],
    sourceEvent: cron,
    mutationType: "superseded",
  });
  beliefs.backupsDaily = daily.belief?.id ?? "";
  at(5, 14, 30);
  let blocked = "";
  let frozenTopic = "";
  try {
    await services.proposeMutation(agent, scope, {
      belief: "Production database backups run hourly.",
      strength: 0.6,
      reason: `The handbook ${backupDocs[0]} still says hourly.`,
      evidenceIds: [backupDocs[0] as string],
      sourceEvent: backupDocs[0] as string,
      mutationType: "superseded",
    });
  } catch (error) {
    if (!(error instanceof BeliefServiceError) || error.code !== "oscillation_hard_stop") throw error;
    blocked = error.details.mutationId ?? "";
    frozenTopic = error.details.topic ?? "";
  }

  // ---- Day 6: a conflict the protocol leaves to a reviewer ----
  at(6, 9, 0);
  const limitDocs: string[] = [];
  for (let i = 0; i < 4; i++) limitDocs.push(await register(users.editor, `limitDoc${i}`, "document", `API gateway policy ${i + 1}: 100 requests per minute per token.`, false));
  const limit = await services.assimilate(users.editor, scope, {
    match: "exact",
    claim: "The public API rate limit is 100 requests per minute.",
    topic: "api rate limit",
    evidence: limitDocs.map((id) => ({ sourceId: id, tier: "document" as const })),
  });
  beliefs.rateLimit100 = limit.belief.id;
  at(6, 13, 15);
  const sighting = await register(agent, "rateLimitSighting", "observation", "An integration test saw HTTP 429 responses at 50 requests per minute.", false);
  const pending = await services.proposeMutation(agent, scope, {
    belief: "The public API rate limit is 50 requests per minute.",
    strength: 0.7,
    reason: `Observed in ${sighting}.`,
    evidenceIds: [sighting],
    sourceEvent: sighting,
    mutationType: "updated",
  });
  beliefs.rateLimit50 = pending.belief?.id ?? "";

  // ---- Days 7–9: real measurements rebut the autoscaler belief until it is disputed ----
  const rebuttals = [
    "Load test #14: p95 latency reached 2.4 s at 1.5x peak while the autoscaler was still adding nodes.",
    "Incident report: during Tuesday's peak the autoscaler lagged 7 minutes behind demand and requests were shed.",
    "Capacity measurement: node provisioning took 6 minutes at peak, three times the autoscaler's reaction budget.",
    "Synthetic load replay: 18% of requests timed out at peak with the autoscaler at its node cap.",
  ];
  for (const [i, text] of rebuttals.entries()) {
    at(7 + Math.floor(i / 2), 10 + (i % 2) * 5, 0);
    const id = await register(users.reviewer, `autoscalerRebuttal${i}`, "measurement", text, false);
    await services.assimilate(users.reviewer, scope, { beliefId: autoscaler.belief.id, evidence: [{ sourceId: id, tier: "measurement", relation: "REBUTS", weight: 1 }] });
  }

  // ---- Day 9: harvest from an agent's answer (model assertions, capped) ----
  at(9, 17, 0);
  const harvested = await services.harvest(agent, scope, {
    text: "Our staging environment mirrors production. Feature flags are removed within two sprints.",
    producedBy: { name: "release-assistant", kind: "agent", model: "demo-llm" },
    commit: true,
  });
  harvested.assimilated.forEach((r, i) => (beliefs[`harvested${i}`] = r.belief.id));

  return {
    scope,
    beliefs,
    evidence,
    mutations: { superseding: daily.mutation.id, blocked, pendingReview: pending.mutation.id },
    frozenTopic,
    span: { from: new Date(base).toISOString(), to: new Date(last).toISOString() },
  };
}

function createdIn(changes: readonly { beliefId: string; created: boolean }[]): string {
  return changes.find((c) => c.created)?.beliefId ?? "";
}
