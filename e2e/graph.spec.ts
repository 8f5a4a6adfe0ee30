import { readFile } from "node:fs/promises";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { cli, createUser, signIn, snap, uniqueSlug, type TestUser } from "./fixtures";

interface Seeded {
  slug: string;
  owner: TestUser;
  analyst: TestUser;
  token: string;
}

/** A scope with an owner (who mints an agent token) and a viewer: the analyst. */
async function seedScope(label: string): Promise<Seeded> {
  const [owner, analyst] = await Promise.all([createUser(`${label}-owner`), createUser(`${label}-analyst`)]);
  const slug = uniqueSlug(label);
  await cli("scope", "create", "--slug", slug, "--name", `Graph ${label}`, "--owner", owner.email);
  await cli("member", "add", "--scope", slug, "--email", analyst.email, "--role", "viewer");
  const token = await cli("token", "create", "--email", owner.email, "--scope", slug, "--name", "e2e agent");
  return { slug, owner, analyst, token };
}

function api(request: APIRequestContext, seeded: Seeded) {
  const headers = { authorization: `Bearer ${seeded.token}` };
  return {
    async evidence(text: string): Promise<string> {
      const res = await request.post(`/api/v1/scopes/${seeded.slug}/evidence`, { headers, data: { kind: "document", text, assess: false } });
      expect(res.status(), await res.text()).toBe(201);
      return ((await res.json()) as { evidence: { id: string } }).evidence.id;
    },
    async assimilate(claim: string, topic: string, entries: { sourceId: string; relation: "SUPPORTS" | "REBUTS" }[]): Promise<{ id: string; tension: number }> {
      const res = await request.post(`/api/v1/scopes/${seeded.slug}/assimilate`, {
        headers,
        data: { claim, topic, evidence: entries.map((e) => ({ ...e, tier: "document" })) },
      });
      expect(res.ok(), await res.text()).toBe(true);
      return ((await res.json()) as { belief: { id: string; tension: number } }).belief;
    },
  };
}

async function graphStats(page: Page) {
  return page.getByTestId("graph-stats");
}

function selectedNode(page: Page): string | null {
  return new URL(page.url()).searchParams.get("node");
}

/** Tab through the canvas until the side panel shows a node of `kind`; false when Tab left the graph first. */
async function tabToKind(page: Page, kind: "belief" | "evidence"): Promise<boolean> {
  const canvas = page.getByTestId("graph-canvas");
  await canvas.focus();
  await page.keyboard.press("Escape");
  await expect.poll(() => selectedNode(page)).toBeNull();
  for (let i = 0; i < 12; i++) {
    const before = selectedNode(page);
    await page.keyboard.press("Tab");
    if (!(await canvas.evaluate((el) => el === document.activeElement))) return false;
    await expect.poll(() => selectedNode(page)).not.toBe(before);
    const heading = page.locator("#graph-panel-title");
    await expect(heading).toBeVisible();
    if ((await heading.innerText()).toLowerCase().startsWith(kind)) return true;
  }
  return false;
}

test("the analyst explores the graph, filters to contested beliefs and opens one", async ({ page, request }) => {
  const seeded = await seedScope("explore");
  const write = api(request, seeded);
  const [runbook, incident, staging] = await Promise.all([
    write.evidence("Runbook: production deploys are cut from the main branch."),
    write.evidence("Incident 214: last Friday's deploy went out from a release branch."),
    write.evidence("Staging config is generated from the production manifests."),
  ]);
  const contested = await write.assimilate("Production deploys go out from the main branch.", "deploy-branch", [
    { sourceId: runbook, relation: "SUPPORTS" },
    { sourceId: incident, relation: "REBUTS" },
  ]);
  const settled = await write.assimilate("Staging mirrors production configuration.", "staging", [{ sourceId: staging, relation: "SUPPORTS" }]);
  expect(contested.tension).toBeGreaterThan(0.25);
  expect(settled.tension).toBe(0);

  await signIn(page, seeded.analyst);
  await page.goto(`/scopes/${seeded.slug}`);
  await page.getByTestId("scope-graph-link").click();
  await expect(page).toHaveURL(new RegExp(`/scopes/${seeded.slug}/graph`));
  await expect(await graphStats(page)).toContainText("2 beliefs · 5 nodes · 3 edges");
  await expect(page.getByTestId("graph-canvas")).toHaveAttribute("data-renderer", "canvas");
  await expect(page.getByTestId("graph-legend")).toContainText("REBUTS");
  await page.waitForTimeout(600); // let the first layout's animation finish before the screenshot
  await snap(page, "graph-01-whole-scope");

  // Contested = tension from 0.25 (SPEC §4.5's threshold); the filter lands in the URL so the view can be shared.
  await page.getByLabel("Tension from").fill("0.25");
  await expect(page).toHaveURL(/minTension=0\.25/);
  await expect(await graphStats(page)).toContainText("1 beliefs · 3 nodes · 2 edges");

  // The keyboard opens it: Tab to the belief, the side panel shows it, Enter goes to the belief page.
  expect(await tabToKind(page, "belief")).toBe(true);
  const panel = page.getByTestId("graph-panel");
  await expect(panel.getByTestId("graph-panel-text")).toHaveText("Production deploys go out from the main branch.");
  await expect(panel).toContainText("contested");
  await expect(page).toHaveURL(new RegExp(`node=${contested.id}`));
  await snap(page, "graph-02-contested-selected");
  const shared = page.url();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/scopes/${seeded.slug}/beliefs/${contested.id}$`));

  // The shared link reproduces the filtered view; the panel's link opens the belief page too.
  await page.goto(shared);
  await expect(page.getByLabel("Tension from")).toHaveValue("0.25");
  await expect(await graphStats(page)).toContainText("1 beliefs");
  await expect(page.getByTestId("graph-panel-open")).toBeVisible();
  await page.getByTestId("graph-panel-open").click();
  await expect(page).toHaveURL(new RegExp(`/beliefs/${contested.id}$`));

  // A filter that matches nothing says so and offers a way back.
  await page.goto(`/scopes/${seeded.slug}/graph?text=no-such-words`);
  await expect(page.getByTestId("graph-empty-filter")).toBeVisible();
  await page.getByTestId("graph-empty-filter").getByRole("button", { name: "Clear filters" }).click();
  await expect(await graphStats(page)).toContainText("2 beliefs");

  // A click on the canvas selects: one belief alone (no edge type kept) is fitted into the middle.
  await page.goto(`/scopes/${seeded.slug}/graph?edgeTypes=SUPERSEDES&text=staging`);
  await expect(await graphStats(page)).toContainText("1 beliefs · 1 nodes · 0 edges");
  await page.waitForTimeout(600);
  await page.getByTestId("graph-canvas").click();
  await expect(page.getByTestId("graph-panel-text")).toHaveText("Staging mirrors production configuration.");

  // Double-click focuses on the node's neighbourhood (its evidence comes back once the edge filter is cleared).
  await page.getByTestId("graph-canvas").dblclick();
  await expect(page.getByTestId("graph-focus")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`nodeId=${settled.id}`));
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(await graphStats(page)).toContainText("1 beliefs · 2 nodes · 1 edges");

  // Exports: the view as JSON (the elements shown) and as PNG.
  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export JSON" }).click()]);
  expect(json.suggestedFilename()).toBe(`${seeded.slug}-graph.json`);
  const exported = JSON.parse(await readFile((await json.path()) ?? "", "utf8")) as { format: string; nodes: { data: { id: string } }[]; edges: unknown[] };
  expect(exported.format).toBe("credence.graph-view");
  expect(exported.nodes.map((n) => n.data.id)).toContain(settled.id);
  expect(exported.edges).toHaveLength(1);
  const [png] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export PNG" }).click()]);
  expect(png.suggestedFilename()).toBe(`${seeded.slug}-graph.png`);
  expect((await readFile((await png.path()) ?? "")).subarray(1, 4).toString("latin1")).toBe("PNG");

  // Back in time to before anything was written: an empty scope.
  await page.goto(`/scopes/${seeded.slug}/graph?asOf=2000-01-01T00:00:00.000Z`);
  await expect(page.getByTestId("graph-empty")).toContainText("Nothing had been written");
  await snap(page, "graph-03-as-of-empty");
});

test("markup in belief and evidence texts stays literal in the graph panel and nothing executes", async ({ page, request }) => {
  const seeded = await seedScope("xss");
  const write = api(request, seeded);
  const beliefText = `<img src=x onerror="window.__xss=1;alert('img')"> <script>window.__xss=2;alert('script')</script> & "quoted"`;
  const evidenceText = `<b onmouseover=alert(3)>bold</b><script>alert('evidence')</script>`;
  const source = await write.evidence(evidenceText);
  const belief = await write.assimilate(beliefText, "xss", [{ sourceId: source, relation: "SUPPORTS" }]);

  const dialogs: string[] = [];
  page.on("dialog", async (dialog) => {
    dialogs.push(dialog.message());
    await dialog.dismiss();
  });
  await signIn(page, seeded.analyst);
  await page.goto(`/scopes/${seeded.slug}/graph?node=${encodeURIComponent(belief.id)}`);
  await expect(page.getByTestId("graph-panel-text")).toHaveText(beliefText);
  await expect(page.getByTestId("graph-panel").locator("img, script, b")).toHaveCount(0);

  expect(await tabToKind(page, "evidence")).toBe(true);
  await expect(page.getByTestId("graph-panel-text")).toHaveText(evidenceText);
  await page.getByTestId("graph-panel-text").hover();
  await page.waitForTimeout(600);
  await snap(page, "graph-04-xss-literal");
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
