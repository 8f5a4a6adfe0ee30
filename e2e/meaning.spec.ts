import { cli, expect, signIn, snap, test } from "./fixtures";

/**
 * Four misreadings of the demo, tried in the browser on the demo itself (`npm run cli -- demo seed`, the stories
 * `npm run demo` serves), with the server's real embedding model:
 * 1. "Deploys still go out from the protected release branch." is not read as a rebuttal of the release belief;
 * 2. it reinforces that belief instead of creating a duplicate;
 * 3. the graph's search box finds a belief from a paraphrase that shares almost no words with it;
 * 4. a question nothing in the scope answers is not answered with the backups dispute.
 */
test.setTimeout(300_000);

test("on the demo, a restatement reinforces its belief, the graph finds a paraphrase, and an unrelated question borrows no answer", async ({ page }) => {
  await cli("demo", "seed");
  await signIn(page, { email: "analyst@example.com", password: "credence-demo", name: "Ana Analyst" });

  // 1 and 2: the restatement, dry run first.
  await page.goto("/scopes/platform/ingest");
  const form = page.getByRole("form", { name: "Ingest text" });
  await form.getByLabel("Text or model output").fill("Deploys still go out from the protected release branch.");
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByTestId("ingest-outcome")).toHaveText("dry run");
  const changes = page.getByTestId("ingest-changes");
  const releaseRow = changes.getByRole("row").filter({ hasText: "Deploys go out from the protected release branch" });
  await expect(releaseRow).toContainText("revised");
  await expect(changes).not.toContainText("new belief");
  // The disagreement report is shown, and the release belief is not among the beliefs this text disagrees with (the
  // main-branch one may be).
  await expect(page.getByRole("heading", { name: /^Disagreement report \(\d+\)$/ })).toBeVisible();
  await expect(page.getByTestId("ingest-no-disagreement").or(page.getByTestId("ingest-disagreements"))).toBeVisible();
  await expect(page.getByTestId("ingest-disagreements").getByRole("listitem").filter({ hasText: /rebuts Deploys go out from the protected release branch/ })).toHaveCount(0);
  await snap(page, "meaning-01-restatement-reinforces");
  await page.getByRole("button", { name: "Commit change-set" }).click();
  await expect(page.getByTestId("ingest-outcome")).toHaveText("committed");

  // 3: the graph's search box, by meaning: no node contains the question, one belief means it.
  await page.goto("/scopes/platform/graph");
  // The graph loaded (the stats read "Loading the graph…" before it is): new data redraws the view and drops a search begun
  // before it, which once left the result empty on a loaded machine.
  await expect(page.getByTestId("graph-loading")).toHaveCount(0);
  await expect(page.getByTestId("graph-stats")).toHaveText(/^[1-9]\d* beliefs? ·/);
  await expect(page.getByTestId("graph-stats")).not.toContainText("updating");
  await page.getByLabel("Find a node by its text").fill("Does the autoscaler cope with the busiest hours?");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("graph-search-result")).toContainText("1 node found by meaning");
  await expect(page.getByTestId("graph-panel-text")).toHaveText("The staging cluster autoscaler keeps up with peak load.");
  await snap(page, "meaning-02-graph-search-by-meaning");

  // 4: recall does not answer an unrelated question with the backups dispute.
  await page.goto("/scopes/platform");
  await page.getByLabel("Question").fill("What port does the canary service run on?");
  await page.getByRole("button", { name: "Recall" }).click();
  const mode = page.getByTestId("recall-mode");
  await expect(mode).toBeVisible();
  await expect(mode).not.toHaveText(/settled|contested/i);
  await expect(page.getByTestId("recall-dominant").filter({ hasText: /backup/i })).toHaveCount(0);
  await expect(page.getByTestId("recall-competing")).toHaveCount(0);
  await snap(page, "meaning-03-recall-unrelated");
});
