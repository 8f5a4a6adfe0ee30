import type { APIRequestContext, Page } from "@playwright/test";
import { addMember, cli, createScope, createToken, createUser, expect, signIn, snap, test, type TestUser, uniqueSlug } from "./fixtures";

/** REST calls as a CLI-made token's user (`/api/v1`, Bearer). Returns the parsed JSON body and the status. */
function restClient(request: APIRequestContext, token: string, scope: string) {
  return async (method: "GET" | "POST", path: string, data?: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const response = await request.fetch(`/api/v1/scopes/${scope}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(data === undefined ? {} : { data: JSON.stringify(data) }),
    });
    return { status: response.status(), body: (await response.json()) as Record<string, unknown> };
  };
}
type Rest = ReturnType<typeof restClient>;

async function registerEvidence(rest: Rest, kind: string, text: string): Promise<string> {
  const { status, body } = await rest("POST", "/evidence", { kind, text, assess: false });
  expect(status, JSON.stringify(body)).toBe(201);
  return (body.evidence as { id: string }).id;
}

/** A belief with `n` independent documents behind it (credence well above the conflict check's 0.7). */
async function establish(rest: Rest, claim: string, topic: string, docs: string[]): Promise<string> {
  const ids: string[] = [];
  for (const text of docs) ids.push(await registerEvidence(rest, "document", text));
  const { status, body } = await rest("POST", "/assimilate", { claim, topic, evidence: ids.map((sourceId) => ({ sourceId, tier: "document" })) });
  expect(status, JSON.stringify(body)).toBe(200);
  return (body.belief as { id: string }).id;
}

async function propose(rest: Rest, belief: string, sourceEvent: string, mutationType: string) {
  return rest("POST", "/mutations", { belief, strength: 0.7, reason: `Observed in ${sourceEvent}.`, evidenceIds: [sourceEvent], sourceEvent, mutationType });
}

async function newPage(page: Page | null, browser: import("@playwright/test").Browser, user: TestUser): Promise<Page> {
  const p = page ?? (await (await browser.newContext()).newPage());
  await signIn(p, user);
  return p;
}

test("the reviewer approves one queued mutation, rejects another and lifts a freeze", async ({ browser, request }) => {
  const [owner, reviewer] = await Promise.all([createUser("owner"), createUser("reviewer")]);
  const slug = uniqueSlug("platform");
  await createScope(slug, "Platform", owner.email);
  await addMember(slug, reviewer.email, "reviewer");
  const rest = restClient(request, await createToken(owner.email, "agent"), slug);

  await establish(rest, "The public API rate limit is 100 requests per minute.", "api rate limit", [1, 2, 3, 4].map((i) => `API gateway policy ${i}: 100 requests per minute per token.`));
  const sighting = await registerEvidence(rest, "observation", "An integration test saw HTTP 429 responses at 50 requests per minute.");
  const first = await propose(rest, "The public API rate limit is 50 requests per minute.", sighting, "updated");
  expect((first.body.mutation as { decision: string }).decision).toBe("review");
  const sighting2 = await registerEvidence(rest, "observation", "A partner reported throttling at 60 requests per minute.");
  const second = await propose(rest, "The public API rate limit is 60 requests per minute.", sighting2, "updated");
  expect((second.body.mutation as { decision: string }).decision).toBe("review");

  // The oscillation the monitor stops: hourly → daily (supersede) → hourly again (hard stop, topic frozen).
  const docs: string[] = [];
  for (let i = 1; i <= 6; i++) docs.push(await registerEvidence(rest, "document", `Operations handbook, section ${i}: production database backups run every hour.`));
  const hourly = await rest("POST", "/assimilate", { claim: "Production database backups run hourly.", topic: "database backups", evidence: docs.map((sourceId) => ({ sourceId, tier: "document" })) });
  const cron = await registerEvidence(rest, "executable_check", "Cron check: the backup job's schedule is '0 2 * * *' (once a day at 02:00).");
  await rest("POST", "/assimilate", { beliefId: (hourly.body.belief as { id: string }).id, evidence: [{ sourceId: cron, tier: "executable_check", relation: "REBUTS", weight: 0.8 }] });
  expect((await propose(rest, "Production database backups run daily.", cron, "superseded")).status).toBe(201);
  const stop = await propose(rest, "Production database backups run hourly.", docs[0] ?? "", "superseded");
  expect(stop.status).toBe(409);
  expect((stop.body.error as { code: string }).code).toBe("oscillation_hard_stop");

  const page = await newPage(null, browser, reviewer);
  // The scope list says where reviews wait; the scope home's journal speaks in words, not enum values.
  await expect(page.getByRole("listitem").filter({ hasText: "Platform" }).getByTestId("scope-pending")).toHaveText("2 pending review");
  await page.goto(`/scopes/${slug}`);
  await expect(page.getByTestId("header-review-count")).toHaveText("2");
  await expect(page.getByTestId("recent-mutations")).toContainText("wait for a reviewer · waiting for review");
  await expect(page.getByTestId("recent-mutations")).not.toContainText("pending_review");
  await snap(page, "20-reviewer-scope-home");
  await page.getByTestId("header-review").click();
  await expect(page).toHaveURL(new RegExp(`/scopes/${slug}/review$`));
  const cards = page.getByTestId("pending-mutation");
  await expect(cards).toHaveCount(2);
  await expect(cards.first().getByTestId("existing-text")).toHaveText("The public API rate limit is 100 requests per minute.");
  await expect(cards.first().getByRole("region", { name: "Decision path" })).toContainText("→ review");
  // The cited evidence is shown as text with its kind, and the existing belief as it stands now.
  await expect(cards.filter({ hasText: "50 requests per minute" }).getByTestId("proposed-source")).toContainText("An integration test saw HTTP 429 responses at 50 requests per minute.");
  await expect(cards.filter({ hasText: "50 requests per minute" }).getByTestId("proposed-source")).toContainText("observation");
  await expect(cards.first().getByTestId("existing-now")).toContainText(/Now:\s*\w+\s*credence 0\.\d\d/);
  await expect(cards.first()).not.toContainText("mutationType");
  await expect(page.getByTestId("frozen-topic")).toHaveCount(1);
  await expect(page.getByTestId("stability")).toContainText("oscillation hard stop");
  await snap(page, "21-review-queue");
  await page.emulateMedia({ colorScheme: "dark" });
  await snap(page, "21-review-queue-dark");
  await page.emulateMedia({ colorScheme: "light" });

  const fifty = cards.filter({ hasText: "50 requests per minute" });
  // No resolution is chosen for the reviewer (a 50-vs-100 conflict is not "coexist" by default).
  await expect(fifty.getByLabel("Resolution")).toHaveValue("");
  await fifty.getByLabel("Resolution").selectOption("supersede");
  await fifty.getByLabel("Note for the journal").fill("The gateway was reconfigured to 50/min last week.");
  // A supersede asks first, with both beliefs' figures, and warns that the replacement is weaker.
  await fifty.getByRole("button", { name: "Supersede…" }).click();
  const confirm = page.getByRole("dialog", { name: "Replace the existing belief?" });
  await expect(confirm.getByTestId("review-weaker")).toContainText("The replacement is weaker than the belief it replaces");
  await confirm.getByRole("button", { name: "Yes, supersede" }).click();
  await expect(cards).toHaveCount(1);
  await expect(page.getByTestId("toast").first()).toContainText("Approved: “The public API rate limit is 50 requests per minute.” The journal keeps your note.");
  await expect(page.getByTestId("header-review-count")).toHaveText("1");

  const sixty = cards.filter({ hasText: "60 requests per minute" });
  // Its conflict report shows the existing belief as it is now: superseded by the approval, no longer "credence 0.98" alone.
  await expect(sixty.getByTestId("existing-now")).toContainText("superseded");
  await expect(sixty.getByTestId("existing-now")).toContainText("no longer live");
  await snap(page, "23-review-existing-superseded");
  await sixty.getByRole("radio", { name: "Reject" }).check();
  await expect(sixty.getByLabel("Resolution")).toHaveCount(0);
  // Rejecting asks for confirmation; an empty note is refused before anything is sent (the field is required).
  await sixty.getByRole("button", { name: "Reject…" }).click();
  await expect(sixty).toContainText("Reject this proposal?");
  await sixty.getByRole("button", { name: "Yes, reject" }).click();
  await expect(sixty.getByLabel("Note for the journal")).toHaveJSProperty("validity.valueMissing", true);
  await expect(cards).toHaveCount(1);
  await sixty.getByLabel("Note for the journal").fill("One partner's report; no measurement.");
  await sixty.getByRole("button", { name: "Yes, reject" }).click();
  await expect(page.getByTestId("review-empty")).toContainText(/no/i);
  await expect(page.getByTestId("toast").last()).toContainText("Rejected");
  await expect(page.getByTestId("header-review-count")).toHaveText("0");

  const frozen = page.getByTestId("frozen-topic");
  await frozen.getByPlaceholder("Why the topic may change again").fill("Checked the cron job with the DBA: daily is right.");
  await frozen.getByRole("button", { name: "Lift freeze" }).click();
  await expect(page.getByTestId("frozen-empty")).toBeVisible();
  // With the freeze lifted, its oscillation warning is gone too.
  await expect(page.getByText("oscillation hard stop")).toHaveCount(0);
  await snap(page, "22-review-queue-done");

  const journal = await rest("GET", "/mutations");
  const statuses = (journal.body.mutations as { belief: string; status: string }[]).map((m) => `${m.status}: ${m.belief}`);
  expect(statuses).toContain("approved: The public API rate limit is 50 requests per minute.");
  expect(statuses).toContain("rejected: The public API rate limit is 60 requests per minute.");
  // The freeze is gone: the topic accepts a mutation again.
  const after = await registerEvidence(rest, "document", "Backup runbook v2: backups run daily at 02:00.");
  expect((await propose(rest, "Production database backups run once a day at 02:00.", after, "updated")).status).toBe(201);
});

test("an editor cannot open the review queue; the header shows no count to them", async ({ browser }) => {
  const [owner, editor] = await Promise.all([createUser("owner"), createUser("editor")]);
  const slug = uniqueSlug("queue");
  await createScope(slug, "Queue", owner.email);
  await addMember(slug, editor.email, "editor");
  const page = await newPage(null, browser, editor);
  await page.goto(`/scopes/${slug}/review`);
  await expect(page.getByTestId("review-forbidden")).toBeVisible();
  await expect(page.getByTestId("header-review")).toHaveCount(0);
  await expect(page.getByTestId("pending-mutation")).toHaveCount(0);
});

test("the owner lets another team cite this scope; that team's member can then resolve a cited item", async ({ browser, request }) => {
  const [owner, researcher] = await Promise.all([createUser("owner"), createUser("researcher")]);
  const platform = uniqueSlug("platform");
  const research = uniqueSlug("research");
  await createScope(platform, "Platform", owner.email);
  await createScope(research, "Research", researcher.email);
  const platformRest = restClient(request, await createToken(owner.email, "platform-agent"), platform);
  const researchRest = restClient(request, await createToken(researcher.email, "research-agent"), research);
  const benchmark = await registerEvidence(platformRest, "measurement", "Benchmark run 42: p95 latency 180 ms at 2x peak load.");

  const cite = () =>
    researchRest("POST", "/assimilate", { claim: "The platform handles twice the peak load.", evidence: [{ sourceId: benchmark, tier: "measurement" }] });
  const before = await cite();
  expect((before.body.entries as { verified: boolean }[])[0]?.verified).toBe(false);

  const ownerPage = await newPage(null, browser, owner);
  await ownerPage.goto(`/scopes/${platform}/settings`);
  const grant = ownerPage.getByRole("form", { name: "Let another scope cite this one" });
  await grant.getByLabel(/Slug of the scope/).fill(research);
  await grant.getByRole("button", { name: "Allow citing" }).click();
  await expect(ownerPage.getByTestId("grant-row")).toContainText(research);
  await snap(ownerPage, "23-owner-grants-citing");

  const after = await cite();
  expect(after.status).toBe(200);
  expect((after.body.entries as { verified: boolean; effectiveTier: string }[])[0]).toMatchObject({ verified: true, effectiveTier: "measurement" });

  // The grant resolves items; it does not let the research team browse the platform scope.
  const researcherPage = await newPage(null, browser, researcher);
  const hidden = await researcherPage.goto(`/scopes/${platform}`);
  expect(hidden?.status()).toBe(404);
  await researcherPage.goto(`/scopes/${research}`);
  await researcherPage.getByRole("link", { name: "The platform handles twice the peak load." }).click();
  await expect(researcherPage.getByTestId("history")).toContainText("yes");
  await snap(researcherPage, "24-research-cites-platform");
});

test("the owner changes a scope parameter and sees the new version in the history", async ({ page }) => {
  const [owner] = await Promise.all([createUser("owner")]);
  const slug = uniqueSlug("params");
  await createScope(slug, "Params", owner.email);
  await signIn(page, owner);
  await page.goto(`/scopes/${slug}`);
  await page.getByTestId("scope-parameters-link").click();
  await expect(page.getByTestId("params-version")).toHaveText("defaults (0)");
  await expect(page.getByTestId("params-version-row")).toHaveCount(1);
  await page.getByRole("button", { name: "Save as new version" }).click();
  await expect(page.getByTestId("params-message")).toHaveText("Nothing changed: edit a value first.");
  await page.locator("#param-essThreshold").fill("");
  await page.getByRole("button", { name: "Save as new version" }).click();
  await expect(page.getByRole("form", { name: "Scope parameters" }).getByRole("alert").first()).toHaveText("Enter a number.");
  await page.locator("#param-essThreshold").fill("0.4");
  await page.locator('[id="param-tierStrength.observation"]').fill("0.6");
  await page.getByLabel("Note (why)").fill("Stricter expansion for this team.");
  await page.getByRole("button", { name: "Save as new version" }).click();
  await expect(page.getByTestId("params-message")).toHaveText("Saved as version 1.");
  await expect(page.getByTestId("params-version")).toHaveText("1");
  await expect(page.locator("#param-essThreshold")).toHaveValue("0.4");
  const newest = page.getByTestId("params-version-row").first();
  await expect(newest).toContainText("(essThreshold): 0.3 → 0.4");
  await expect(newest).toContainText("(tierStrength.observation): 0.5 → 0.6");
  await expect(newest).toContainText(owner.email);
  await snap(page, "25-parameters-new-version");
  expect(JSON.parse(await cli("params", "show", "--scope", slug))).toMatchObject({ version: 1 });

  // A second change keeps the first one (versions build on each other).
  await page.locator("#param-driftMaxMutations").fill("8");
  await page.getByRole("button", { name: "Save as new version" }).click();
  await expect(page.getByTestId("params-version")).toHaveText("2");
  await expect(page.locator("#param-essThreshold")).toHaveValue("0.4");
  await expect(page.getByTestId("params-version-row")).toHaveCount(3);
});

test("the analyst ingests with a dry run, then commits, and the recall box finds the deploy branch contested", async ({ page, request }) => {
  const [owner, analyst] = await Promise.all([createUser("owner"), createUser("analyst")]);
  const slug = uniqueSlug("deploys");
  await createScope(slug, "Deploys", owner.email);
  await addMember(slug, analyst.email, "editor");
  const rest = restClient(request, await createToken(analyst.email, "check"), slug);
  await signIn(page, analyst);
  await page.goto(`/scopes/${slug}`);
  await page.getByTestId("scope-ingest-link").click();

  const form = page.getByRole("form", { name: "Ingest text" });
  await form.getByLabel("Text or model output").fill("Deploys go from the main branch.");
  await form.getByLabel("Topic (optional)").fill("deploy branch");
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByTestId("ingest-outcome")).toHaveText("dry run");
  await expect(page.getByTestId("ingest-claims")).toContainText("Deploys go from the main branch.");
  await expect(page.getByTestId("ingest-changes")).toContainText("new belief");
  await expect(page.getByTestId("assessor-label").first()).toContainText("heuristic");
  await expect(form.getByLabel("Text or model output")).toHaveJSProperty("readOnly", true);
  await snap(page, "26-ingest-dry-run");
  await page.emulateMedia({ colorScheme: "dark" });
  await snap(page, "26-ingest-dry-run-dark");
  await page.emulateMedia({ colorScheme: "light" });
  expect(((await rest("GET", "/beliefs")).body.beliefs as unknown[]).length).toBe(0);

  await page.getByRole("button", { name: "Discard" }).click();
  await expect(page.getByTestId("ingest-result")).toHaveCount(0);
  await expect(form.getByLabel("Text or model output")).toHaveValue("Deploys go from the main branch.");
  await form.getByRole("button", { name: "Dry run" }).click();
  await page.getByRole("button", { name: "Commit change-set" }).click();
  await expect(page.getByTestId("ingest-outcome")).toHaveText("committed");
  await expect(page.getByTestId("ingest-committed")).toContainText("Committed 1 of 1");
  expect(((await rest("GET", "/beliefs")).body.beliefs as unknown[]).length).toBe(1);

  await page.getByRole("button", { name: "Ingest more" }).click();
  await form.getByLabel("Text or model output").fill("Deploys go out from the protected release branch; nothing is ever deployed from the main branch.");
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByTestId("ingest-disagreements")).toContainText("Deploys go from the main branch.");
  await snap(page, "27-ingest-disagreement");
  await page.getByRole("button", { name: "Commit change-set" }).click();
  await expect(page.getByTestId("ingest-outcome")).toHaveText("committed");

  await page.goto(`/scopes/${slug}`);
  await page.getByLabel("Question").fill("Which branch do deploys go from?");
  await page.getByRole("button", { name: "Recall" }).click();
  await expect(page.getByTestId("recall-mode")).toHaveText("Contested");
  // Both positions are on screen, each as its own text: the release branch leads, main is the competing view.
  await expect(page.getByTestId("recall-dominant")).toContainText(/release branch/i);
  await expect(page.getByTestId("recall-competing")).toContainText(/main branch/i);
  await expect(page.getByTestId("recall-why")).not.toContainText("No other belief");
  await snap(page, "28-recall-contested");
});

test("a long paste is ingested part by part with a progress bar", async ({ page }) => {
  const [owner] = await Promise.all([createUser("owner")]);
  const slug = uniqueSlug("long");
  await createScope(slug, "Long", owner.email);
  await signIn(page, owner);
  await page.goto(`/scopes/${slug}/ingest`);
  // Distinct sentences: a run of six words said twice reads as repetition (pressure) and would be discarded.
  const paragraph = (i: number) =>
    Array.from({ length: 28 }, (_, j) => `Cluster ${i}-${j} node ${j * 7 + i} logged ${i * 100 + j} disk errors and ${i * 300 + j * 3} timeouts on day ${i * 1000 + j}.`).join(" ");
  const text = [1, 2, 3].map(paragraph).join("\n\n");
  const form = page.getByRole("form", { name: "Ingest text" });
  await form.getByLabel("Text or model output").fill(text);
  await expect(page.getByTestId("ingest-size")).toContainText("3 parts");
  // The progress bar may be on screen only briefly: an observer records every state it was drawn in.
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __progress: string[] }).__progress = seen;
    const record = (el: Element) => seen.push(`${el.getAttribute("aria-valuenow")}/${el.getAttribute("aria-valuemax")}`);
    new MutationObserver((records) => {
      for (const r of records) {
        if (r.type === "attributes" && r.target instanceof Element && r.target.getAttribute("role") === "progressbar") record(r.target);
        for (const node of r.addedNodes) {
          if (!(node instanceof Element)) continue;
          if (node.getAttribute("role") === "progressbar") record(node);
          node.querySelectorAll('[role="progressbar"]').forEach(record);
        }
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ["aria-valuenow"] });
  });
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByTestId("ingest-staged")).toBeVisible();
  const progress = await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
  // A bar was drawn, counting parts of three and never going back.
  expect(progress.length).toBeGreaterThan(0);
  expect(progress.every((p) => /^[0-3]\/3$/.test(p))).toBe(true);
  const done = progress.map((p) => Number(p.split("/")[0]));
  expect(done).toEqual([...done].sort((a, b) => a - b));
  await expect(page.getByTestId("ingest-result")).toHaveCount(3);
  for (const verdict of await page.getByTestId("ingest-verdict").all()) await expect(verdict).toHaveText("not manipulative");
  await snap(page, "29-ingest-long-staged");
  await page.getByRole("button", { name: "Commit 3 parts" }).click();
  // 84 claims, each embedded and matched by meaning before it is written: give the commit time on a loaded machine.
  await expect(page.getByTestId("ingest-committed")).toContainText("Committed 3 of 3", { timeout: 120_000 });
  await snap(page, "30-ingest-long-committed");
});

test("an editor adds evidence, previews and retracts a source, and proposes a mutation from the belief page; a viewer sees no actions", async ({ browser, request }) => {
  const [owner, editor, viewer] = await Promise.all([createUser("owner"), createUser("editor"), createUser("viewer")]);
  const slug = uniqueSlug("actions");
  await createScope(slug, "Actions", owner.email);
  await addMember(slug, editor.email, "editor");
  await addMember(slug, viewer.email, "viewer");
  const rest = restClient(request, await createToken(editor.email, "agent"), slug);
  const blog = await registerEvidence(rest, "document", "A blog post says left-pad was removed from npm in 2016.");
  const created = await rest("POST", "/assimilate", { claim: "The left-pad package was removed from npm in 2016.", evidence: [{ sourceId: blog, tier: "document" }] });
  const beliefId = (created.body.belief as { id: string }).id;
  const beliefUrl = `/scopes/${slug}/beliefs/${encodeURIComponent(beliefId)}`;

  const page = await newPage(null, browser, editor);
  await page.goto(beliefUrl);
  const actions = page.getByTestId("belief-actions");
  await actions.locator("summary", { hasText: "Add evidence" }).click();
  const add = page.getByRole("form", { name: "Add evidence" });
  await add.getByLabel("Evidence").fill("The npm incident report of March 2016 documents the unpublishing of left-pad.");
  await add.getByLabel(/Kind/).selectOption("document");
  await add.getByRole("button", { name: "Add evidence" }).click();
  await expect(add.getByRole("status")).toContainText("Recorded. Credence now");
  await expect(page.getByTestId("history").locator("tbody tr")).toHaveCount(2);

  await actions.locator("summary", { hasText: "Retract a source" }).click();
  // The source is picked by its text (no pasted id), and the evidence history shows evidence as text.
  await expect(page.getByTestId("history-evidence").first()).toContainText("A blog post says left-pad was removed from npm in 2016.");
  await page.getByTestId("retract-sources").getByText("A blog post says left-pad was removed from npm in 2016.").click();
  await page.getByRole("button", { name: "Preview the cascade" }).click();
  await expect(page.getByTestId("retract-preview")).toContainText("cites this source directly");
  await expect(page.getByTestId("retract-preview")).toContainText("The left-pad package was removed from npm in 2016.");
  await expect(page.getByTestId("retract-preview")).toContainText("retracted #1");
  await snap(page, "31-belief-retract-preview");
  expect(JSON.stringify((await rest("GET", `/beliefs/${encodeURIComponent(beliefId)}`)).body)).not.toContain('"retracted"');
  await page.getByRole("button", { name: /^Retract/ }).click();
  await expect(page.getByText(/Retracted\. 1 belief\(s\) changed\./)).toBeVisible();
  await expect(page.getByTestId("history")).toContainText("entry #1 retracted");

  await actions.locator("summary", { hasText: "Propose a mutation" }).click();
  const propose = page.getByRole("form", { name: "Propose a mutation" });
  await propose.getByLabel(/Proposed belief/).fill("The left-pad package was unpublished from npm in March 2016.");
  await propose.getByLabel(/Reason/).fill(`The incident report ${blog} names the month.`);
  await propose.getByLabel("Source event id").fill(blog);
  await propose.getByRole("button", { name: "Propose mutation" }).click();
  await expect(propose.getByTestId("mutation-decision")).toContainText("The protocol decided");
  await snap(page, "32-belief-actions");

  const viewerPage = await newPage(null, browser, viewer);
  await viewerPage.goto(beliefUrl);
  await expect(viewerPage.getByTestId("belief-text")).toHaveText("The left-pad package was removed from npm in 2016.");
  await expect(viewerPage.getByTestId("belief-actions")).toHaveCount(0);
});

test("a reviewer accepts one synthesis candidate and the queue no longer proposes it", async ({ browser, request }) => {
  const [owner] = await Promise.all([createUser("owner")]);
  const slug = uniqueSlug("synth");
  await createScope(slug, "Synthesis", owner.email);
  const rest = restClient(request, await createToken(owner.email, "agent"), slug);
  // Two beliefs, each with real support from two change-sets, and a real rebuttal of B by evidence supporting A.
  const side = async (claim: string, texts: [string, string]) => {
    const first = await registerEvidence(rest, "document", texts[0]);
    const created = await rest("POST", "/assimilate", { claim, evidence: [{ sourceId: first, tier: "document" }] });
    const id = (created.body.belief as { id: string }).id;
    const second = await registerEvidence(rest, "document", texts[1]);
    await rest("POST", "/assimilate", { beliefId: id, evidence: [{ sourceId: second, tier: "document" }] });
    return { id, first, possibleDuplicate: created.body.possibleDuplicate as { otherBeliefId: string } | null };
  };
  const a = await side("Remote work raises engineering productivity.", ["Study A: remote engineers closed 12% more tickets.", "Survey B: remote teams shipped more features per quarter."]);
  // The two sides differ by one swapped word: the write keeps them apart and links them as a possible duplicate.
  const b = await side("Office work raises engineering productivity.", ["Study C: co-located engineers resolved incidents 20% faster.", "Report D: office teams onboarded new hires in half the time."]);
  expect(b.id).not.toBe(a.id);
  expect(b.possibleDuplicate?.otherBeliefId).toBe(a.id);
  await rest("POST", "/assimilate", { beliefId: b.id, evidence: [{ sourceId: a.first, tier: "document", relation: "REBUTS", weight: 0.8 }] });

  const page = await newPage(null, browser, owner);
  await page.goto(`/scopes/${slug}/review`);
  const candidate = page.getByTestId("synthesis-candidate");
  await expect(candidate).toHaveCount(1);
  await expect(candidate).toContainText("Remote work raises engineering productivity.");
  await snap(page, "33-synthesis-candidate");
  await candidate.getByRole("button", { name: "Accept synthesis" }).click();
  await expect(candidate.getByRole("status")).toContainText("Accepted");
  await page.reload();
  await expect(page.getByTestId("synthesis-empty")).toBeVisible();
});
