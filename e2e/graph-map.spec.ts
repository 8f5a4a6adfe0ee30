import type { Page } from "@playwright/test";
import { generateTopicScope } from "../bench/topic-scope";
import { addMember, createScope, createUser, expect, expectAxeClean, importScope, signIn, snap, test, type TestUser, uniqueSlug } from "./fixtures";

test.describe.configure({ mode: "serial" });

type Placed = Record<string, [number, number]>;

/**
 * The canvas on screen, as selectors tried in order inside the page: a belief's local graph when one is open (drawn
 * over the hidden map), else the map.
 */
const CANVAS = ["[data-local-canvas] [data-graph-canvas]", "[data-graph-canvas]"] as const;

/** Where every node of the canvas on screen stands (graph coordinates), read from Cytoscape itself. */
async function positions(page: Page): Promise<Placed> {
  return page.evaluate((canvas) => {
    const el = canvas.map((selector) => document.querySelector(selector)).find((found) => found !== null) as { _cyreg?: { cy?: { nodes(): { map<T>(f: (n: { id(): string; position(): { x: number; y: number } }) => T): T[] } } } } | null;
    const cy = el?._cyreg?.cy;
    if (!cy) return {};
    return Object.fromEntries(cy.nodes().map((n) => [n.id(), [n.position().x, n.position().y]]));
  }, CANVAS);
}

/** Page coordinates of a node, for a real click. */
async function nodePoint(page: Page, id: string): Promise<{ x: number; y: number }> {
  return page.evaluate(
    ([canvas, nodeId]) => {
      const el = canvas.map((selector) => document.querySelector(selector)).find((found) => found !== null) as HTMLElement & { _cyreg?: { cy?: { getElementById(id: string): { renderedPosition(): { x: number; y: number } } } } };
      const box = el.getBoundingClientRect();
      const p = el._cyreg!.cy!.getElementById(nodeId).renderedPosition();
      return { x: box.left + p.x, y: box.top + p.y };
    },
    [CANVAS, id] as const,
  );
}

/**
 * What is drawn on top of something else on the canvas on screen, as Cytoscape has it: two nodes whose discs overlap,
 * a label over another node, two labels over each other. Empty when the picture reads.
 */
async function overlapsDrawn(page: Page): Promise<string[]> {
  return page.evaluate((canvas) => {
    type Box = { x1: number; y1: number; x2: number; y2: number };
    type N = { id(): string; position(): { x: number; y: number }; data(k: string): unknown; hasClass(c: string): boolean; boundingBox(o: object): Box };
    const el = canvas.map((selector) => document.querySelector(selector)).find((found) => found !== null) as { _cyreg?: { cy?: { nodes(): { map<T>(f: (n: N) => T): T[] } } } } | null;
    const cy = el?._cyreg?.cy;
    if (!cy) return ["no canvas"];
    const nodes = cy.nodes().map((n) => ({ id: n.id(), ...n.position(), r: Number(n.data("size")) / 2, label: n.hasClass("lbl") ? n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true, includeOverlays: false, includeUnderlays: false }) : null }));
    // Half a graph unit of tolerance: positions are stored to 0.1.
    const discHitsBox = (n: { x: number; y: number; r: number }, b: Box) => Math.hypot(n.x - Math.max(b.x1, Math.min(n.x, b.x2)), n.y - Math.max(b.y1, Math.min(n.y, b.y2))) < n.r - 0.5;
    const out: string[] = [];
    for (let i = 0; i < nodes.length; i++)
      for (let j = 0; j < nodes.length; j++) {
        const [a, b] = [nodes[i]!, nodes[j]!];
        if (i < j && Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r - 0.5) out.push(`nodes ${a.id} and ${b.id} overlap`);
        if (i !== j && a.label && discHitsBox(b, a.label)) out.push(`the label of ${a.id} is over node ${b.id}`);
        if (i < j && a.label && b.label && a.label.x1 < b.label.x2 && b.label.x1 < a.label.x2 && a.label.y1 < b.label.y2 && b.label.y1 < a.label.y2) out.push(`labels of ${a.id} and ${b.id} overlap`);
      }
    return out;
  }, CANVAS);
}

/** The map is drawn and names at least `labels` nodes (a phone opens zoomed in where it can name three or more). */
async function mapReady(page: Page, labels = 6): Promise<void> {
  await expect(page.getByTestId("graph-map-summary")).toContainText("2,000 beliefs");
  await expect(page.getByTestId("graph-loading")).toHaveCount(0);
  await expect.poll(async () => Number(await page.getByTestId("graph-canvas").getAttribute("data-labels")), { timeout: 20_000 }).toBeGreaterThanOrEqual(labels);
}

let slug: string;
let owner: TestUser;
let viewer: TestUser;
let topicIds: string[];

test.beforeAll(async () => {
  [owner, viewer] = await Promise.all([createUser("map-owner"), createUser("map-viewer")]);
  slug = uniqueSlug("map");
  await createScope(slug, "Platform team", owner.email);
  await addMember(slug, viewer.email, "viewer");
  const data = generateTopicScope(2_000, { scope: slug });
  topicIds = [...new Set(data.beliefs.map((b) => b.belief.topic))].sort();
  expect(await importScope(slug, JSON.stringify(data))).toContain("2000 beliefs");
});

const DEVICES = [
  { device: "desktop", viewport: { width: 1440, height: 900 } },
  { device: "phone", viewport: { width: 390, height: 844 } },
] as const;
const RUNS = DEVICES.flatMap((d) => (["light", "dark"] as const).map((scheme) => ({ ...d, scheme })));

for (const { device, viewport, scheme } of RUNS) {
  test(`${device}, ${scheme}: the 2 000-belief scope opens as its topic map; a topic expands in place, then a belief's local graph`, async ({ browser }) => {
    const context = await browser.newContext({ viewport, colorScheme: scheme });
    const page = await context.newPage();
    await signIn(page, owner);
    await page.goto(`/scopes/${slug}/graph`);
    await mapReady(page, device === "phone" ? 3 : 6);
    // The key is on screen with the graph, without scrolling.
    const legend = await page.getByTestId("graph-legend").boundingBox();
    expect(legend && legend.y + legend.height).toBeLessThanOrEqual(viewport.height);
    // Nothing wider than the screen: no sideways scrolling on a phone.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    const overview = await positions(page);
    expect(Object.keys(overview).filter((id) => id.startsWith("topic:")).sort()).toEqual(topicIds.map((t) => `topic:${t}`));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `e2e/artifacts/graph-overview-2000-${device}-${scheme}.png` });
    await expectAxeClean(page, `graph overview, ${device}, ${scheme}`, { least: "moderate" });

    // A click selects a topic (after Fit: a phone opens zoomed in on the part of the map it can name); its panel
    // expands it into its beliefs, where it stood.
    await page.getByRole("button", { name: "Fit", exact: true }).click();
    const topic = topicIds[0]!;
    const at = await nodePoint(page, `topic:${topic}`);
    await page.mouse.click(at.x, at.y);
    await expect(page.getByTestId("graph-topic-panel")).toContainText(topic);
    await page.getByRole("button", { name: "Expand into its beliefs" }).click();
    await expect(page).toHaveURL(new RegExp(`topics=${topic}`));
    // Contested and recent beliefs already orbit their topics: wait for the topic node itself to give way.
    await expect.poll(async () => (await positions(page))[`topic:${topic}`], { timeout: 20_000 }).toBeUndefined();
    const expanded = await positions(page);
    expect(Object.keys(expanded).filter((id) => id.startsWith("b-")).length).toBeGreaterThan(Object.keys(overview).filter((id) => id.startsWith("b-")).length);
    // Where the topic stood, its beliefs (one at its very centre); only topics nearby made room for them.
    const [cx, cy] = overview[`topic:${topic}`]!;
    const others = Object.keys(overview).filter((t) => t.startsWith("topic:") && t !== `topic:${topic}`);
    const stayed = others.filter((id) => expanded[id]![0] === overview[id]![0] && expanded[id]![1] === overview[id]![1]);
    expect(stayed.length).toBeGreaterThan(others.length / 2);
    // Nothing drawn over anything else: no two nodes, no label over a node or another label (after Fit, and zoomed in).
    await page.waitForTimeout(300);
    expect(await overlapsDrawn(page)).toEqual([]);
    await snap(page, `graph-map-expanded-${device}-${scheme}`);
    const centre = await nodePoint(page, Object.keys(expanded).find((id) => id.startsWith("b-") && Math.hypot(expanded[id]![0] - cx, expanded[id]![1] - cy) < 1)!);
    await page.mouse.move(centre.x, centre.y);
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -200);
    await page.waitForTimeout(500);
    expect(await overlapsDrawn(page)).toEqual([]);

    // A belief of the topic: its local graph (evidence and neighbours) around it, depth 2 from the slider.
    const belief = Object.keys(expanded).find((id) => id.startsWith("b-"))!;
    await page.goto(`/scopes/${slug}/graph?topics=${topic}&local=${belief}&node=${belief}`);
    await expect(page.getByTestId("graph-local")).toBeVisible();
    await expect.poll(async () => Object.keys(await positions(page)).filter((id) => id.startsWith("ev-")).length, { timeout: 20_000 }).toBeGreaterThan(0);
    // Drawn on its own: the belief at the centre, no topic of the map around it (the map is hidden underneath).
    await expect(page.locator("[data-map-canvas]")).toHaveCSS("visibility", "hidden");
    expect(Object.keys(await positions(page)).filter((id) => id.startsWith("topic:"))).toEqual([]);
    expect((await positions(page))[belief]).toEqual([0, 0]);
    await page.getByLabel("depth").fill("2");
    await expect(page).toHaveURL(/depth=2/);
    // On a phone the belief's panel is a sheet over the canvas: close it to look at the neighbourhood.
    if (device === "phone") await page.getByRole("button", { name: "Close details" }).click();
    await page.waitForTimeout(500);
    expect(await overlapsDrawn(page)).toEqual([]);
    await snap(page, `graph-map-local-${device}-${scheme}`);
    // Closing it brings the map back as it was.
    await page.getByRole("button", { name: "Close the local graph" }).click();
    await expect(page.locator("[data-local-canvas]")).toHaveCount(0);
    await expect(page.locator("[data-map-canvas]")).toHaveCSS("visibility", "visible");
    expect(await positions(page)).toEqual(expanded);
    await context.close();
  });
}

for (const [i, { device, viewport, scheme }] of RUNS.entries()) {
  test(`${device}, ${scheme}: a reload draws the same positions, and a saved view reopens exactly for another member`, async ({ browser }) => {
    const labels = device === "phone" ? 3 : 6;
    const context = await browser.newContext({ viewport, colorScheme: scheme });
    const page = await context.newPage();
    await signIn(page, owner);
    const topic = topicIds[1]!;
    await page.goto(`/scopes/${slug}/graph?topics=${topic}`);
    await mapReady(page, labels);
    await expect.poll(async () => (await positions(page))[`topic:${topic}`], { timeout: 20_000 }).toBeUndefined();
    const before = await positions(page);
    await page.reload();
    await mapReady(page, labels);
    await expect.poll(async () => Object.keys(await positions(page)).length).toBe(Object.keys(before).length);
    expect(await positions(page)).toEqual(before);
    await page.waitForTimeout(300);
    await snap(page, `graph-map-reloaded-${device}-${scheme}`);

    // Pin a topic somewhere else by dragging it (after Fit, so it is on screen), then save the view under a name.
    await page.getByRole("button", { name: "Fit", exact: true }).click();
    const other = `topic:${topicIds[2 + i]!}`;
    const from = await nodePoint(page, other);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x + 40, from.y + 30, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await positions(page))[other]).not.toEqual(before[other]);
    const count = Object.keys(await positions(page)).length;
    const name = `triage ${device} ${scheme}`;
    await page.getByLabel("Name of the view to save").fill(name);
    await page.getByRole("button", { name: "Save view" }).click();
    await expect(page.getByTestId("graph-save-status")).toContainText(`Saved the view “${name}”`);
    // The canvas is drawn again for the view now open: its nodes, at the places saved.
    await expect(page).toHaveURL(/view=triage/);
    await expect.poll(async () => Object.keys(await positions(page)).length, { timeout: 20_000 }).toBe(count);
    const saved = await positions(page);
    expect(saved[other]).not.toEqual(before[other]);
    await snap(page, `graph-map-view-saved-${device}-${scheme}`);
    await expectAxeClean(page, `graph map, view saved, ${device}, ${scheme}`, { least: "moderate" });
    await context.close();

    // A viewer opens it: the same nodes at the same places, the same topic expanded.
    const reader = await browser.newContext({ viewport, colorScheme: scheme });
    const readerPage = await reader.newPage();
    await signIn(readerPage, viewer);
    await readerPage.goto(`/scopes/${slug}/graph`);
    await mapReady(readerPage, labels);
    await expect(readerPage.getByRole("button", { name: "Save view" })).toHaveCount(0);
    await readerPage.getByTestId("graph-open-view").selectOption(name);
    await expect(readerPage).toHaveURL(new RegExp(`topics=${topic}$`));
    await expect(readerPage.getByLabel("Expanded topics").getByRole("button")).toHaveText([`${topic} ×`]);
    await expect.poll(async () => Object.keys(await positions(readerPage)).length, { timeout: 20_000 }).toBe(Object.keys(saved).length);
    expect(await positions(readerPage)).toEqual(saved);
    await readerPage.waitForTimeout(300);
    await snap(readerPage, `graph-map-view-reopened-${device}-${scheme}`);
    await expectAxeClean(readerPage, `graph map, saved view reopened, ${device}, ${scheme}`, { least: "moderate" });
    await reader.close();
  });
}
