import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { addMember, createScope, createToken, createUser, expect, signIn, snap, test, type TestUser, uniqueSlug } from "./fixtures";

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
  await createScope(slug, `Graph ${label}`, owner.email);
  await addMember(slug, analyst.email, "viewer");
  const token = await createToken(owner.email, "e2e agent", slug);
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

/** Selects a node through the list view (the graph's keyboard and screen-reader form): its row button, then Enter. */
async function selectInList(page: Page, text: string): Promise<void> {
  await page.getByRole("button", { name: "List", exact: true }).click();
  const row = page.getByTestId("graph-list").getByRole("button", { name: text, exact: true });
  await row.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("graph-panel-text")).toHaveText(text);
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
  await expect(page.getByTestId("graph-legend")).toContainText("rebuts");
  // Labels at the default fit: both beliefs carry theirs (the canvas reports what it labelled).
  await expect.poll(async () => Number(await page.getByTestId("graph-canvas").getAttribute("data-labels"))).toBeGreaterThanOrEqual(2);
  await page.waitForTimeout(600); // let the first layout's animation finish before the screenshot
  await snap(page, "graph-01-whole-scope");

  // One click: the contested preset (any live rebuttal); the filter lands in the URL so the view can be shared.
  await page.getByTestId("graph-presets").getByRole("button", { name: "Contested" }).click();
  await expect(page).toHaveURL(/minTension=0\.01/);
  await expect(await graphStats(page)).toContainText("1 belief · 3 nodes · 2 edges");
  await page.getByTestId("graph-filters-toggle").click();
  await page.getByLabel("Tension from").fill("0.25");
  await expect(page).toHaveURL(/minTension=0\.25/);
  await expect(await graphStats(page)).toContainText("1 belief · 3 nodes · 2 edges");

  // The keyboard: the canvas is one Tab stop; an arrow key selects a node and Tab leaves without selecting another.
  const canvas = page.getByTestId("graph-canvas");
  await canvas.focus();
  await page.keyboard.press("ArrowDown");
  await expect.poll(() => selectedNode(page)).not.toBeNull();
  const picked = selectedNode(page);
  await page.keyboard.press("Tab");
  expect(await canvas.evaluate((el) => el === document.activeElement)).toBe(false);
  expect(selectedNode(page)).toBe(picked);

  // The list view selects the belief; the side panel shows it with the same wording as the figures.
  await selectInList(page, "Production deploys go out from the main branch.");
  const panel = page.getByTestId("graph-panel");
  await expect(panel).toContainText("contested");
  await expect(page).toHaveURL(new RegExp(`node=${contested.id}`));
  await page.getByRole("button", { name: "Graph", exact: true }).click();
  await snap(page, "graph-02-contested-selected");
  const shared = page.url();
  await canvas.focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/scopes/${seeded.slug}/beliefs/${contested.id}$`));

  // The shared link reproduces the filtered view (its filters open); the panel's link opens the belief page too.
  await page.goto(shared);
  await expect(page.getByLabel("Tension from")).toHaveValue("0.25");
  await expect(await graphStats(page)).toContainText("1 belief ·");
  await expect(page.getByTestId("graph-panel-open")).toBeVisible();
  await page.getByTestId("graph-panel-open").click();
  await expect(page).toHaveURL(new RegExp(`/beliefs/${contested.id}$`));

  // A filter that matches nothing says so and offers a way back.
  await page.goto(`/scopes/${seeded.slug}/graph?text=no-such-words`);
  await expect(page.getByTestId("graph-empty-filter")).toBeVisible();
  // The renderer in the figures line is reported by the canvas once the page runs in the browser: a click before that
  // would land on the server-rendered button, which does nothing yet.
  await expect(await graphStats(page)).toContainText("canvas");
  await page.getByTestId("graph-empty-filter").getByRole("button", { name: "Clear filters" }).click();
  await expect(await graphStats(page)).toContainText("2 beliefs");
  await expect(page).not.toHaveURL(/text=/);
  // Typing in the search box filters after a pause, and lands in the URL.
  await page.getByLabel("Search belief text").fill("staging");
  await expect(page).toHaveURL(/text=staging/);
  await expect(await graphStats(page)).toContainText("1 belief ·");

  // A click on the canvas selects: one belief alone (no edge type kept) is fitted into the middle.
  await page.goto(`/scopes/${seeded.slug}/graph?edgeTypes=SUPERSEDES&text=staging`);
  await expect(await graphStats(page)).toContainText("1 belief · 1 node · 0 edges");
  await page.waitForTimeout(600);
  await page.getByTestId("graph-canvas").click();
  await expect(page.getByTestId("graph-panel-text")).toHaveText("Staging mirrors production configuration.");

  // Double-click focuses on the node's neighbourhood (its evidence comes back once the edge filter is cleared).
  await page.getByTestId("graph-canvas").dblclick();
  await expect(page.getByTestId("graph-focus")).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`nodeId=${settled.id}`));
  await page.getByRole("button", { name: "Clear filters" }).first().click();
  await expect(await graphStats(page)).toContainText("1 belief · 2 nodes · 1 edge");

  // Exports: the view as JSON (the elements shown) and as PNG.
  await page.locator("summary", { hasText: "Export" }).click();
  const [json] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export JSON" }).click()]);
  expect(json.suggestedFilename()).toBe(`${seeded.slug}-graph.json`);
  const exported = JSON.parse(await readFile((await json.path()) ?? "", "utf8")) as { format: string; nodes: { data: { id: string } }[]; edges: unknown[] };
  expect(exported.format).toBe("credence.graph-view");
  expect(exported.nodes.map((n) => n.data.id)).toContain(settled.id);
  expect(exported.edges).toHaveLength(1);
  const [png] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export PNG" }).click()]);
  expect(png.suggestedFilename()).toBe(`${seeded.slug}-graph.png`);
  expect((await readFile((await png.path()) ?? "")).subarray(1, 4).toString("latin1")).toBe("PNG");
  // GraphML for Gephi or yEd, and CSV of the beliefs and edges shown.
  const [graphml] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export GraphML" }).click()]);
  expect(graphml.suggestedFilename()).toBe(`${seeded.slug}-graph.graphml`);
  const xml = await readFile((await graphml.path()) ?? "", "utf8");
  expect(xml).toContain(`<node id="${settled.id}">`);
  expect(xml).toContain("<data key=\"text\">Staging mirrors production configuration.</data>");
  expect(xml.match(/<edge /g)).toHaveLength(1);
  const [beliefsCsv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export beliefs CSV" }).click()]);
  const rows = (await readFile((await beliefsCsv.path()) ?? "", "utf8")).trim().split("\r\n");
  expect(rows[0]).toBe("id,text,topic,status,credence,confidence,tension,supporting,rebutting,created_at,updated_at");
  expect(rows).toHaveLength(2);
  expect(rows[1]).toContain(`${settled.id},Staging mirrors production configuration.,staging,`);
  const [edgesCsv] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Export edges CSV" }).click()]);
  expect((await readFile((await edgesCsv.path()) ?? "", "utf8")).trim().split("\r\n")).toHaveLength(2);

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

  await selectInList(page, evidenceText);
  await expect(page.getByTestId("graph-list").locator("img, script, b")).toHaveCount(0);
  await page.getByTestId("graph-panel-text").hover();
  await page.waitForTimeout(600);
  await snap(page, "graph-04-xss-literal");
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
