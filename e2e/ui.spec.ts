import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { addMember, createScope, createToken, createUser, expect, expectAxeClean, signIn, snap, test, type TestUser, uniqueSlug } from "./fixtures";

/**
 * What each user sees, at desktop, phone (390×844) and in dark mode: the explorer's first view, time travel, search,
 * unknown links, parameters refused with a message, the outsider's public scope, sign-in returning to a shared link,
 * and an axe-core check of every page in light and dark (no moderate, serious or critical finding).
 */

interface Seeded {
  slug: string;
  owner: TestUser;
  analyst: TestUser;
  token: string;
  beliefs: { id: string; text: string }[];
}

const PHONE = { width: 390, height: 844 };

async function seed(request: APIRequestContext, label: string, options: { isPublic?: boolean } = {}): Promise<Seeded> {
  const [owner, analyst] = await Promise.all([createUser(`${label}-owner`), createUser(`${label}-analyst`)]);
  const slug = uniqueSlug(label);
  await createScope(slug, `UI ${label}`, owner.email, { isPublic: options.isPublic });
  await addMember(slug, analyst.email, "editor");
  const token = await createToken(owner.email, "e2e agent", slug);
  const headers = { authorization: `Bearer ${token}` };
  const evidence = async (text: string) => {
    const res = await request.post(`/api/v1/scopes/${slug}/evidence`, { headers, data: { kind: "document", text, assess: false } });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { evidence: { id: string } }).evidence.id;
  };
  const assimilate = async (claim: string, topic: string, entries: { sourceId: string; relation: "SUPPORTS" | "REBUTS" }[]) => {
    const res = await request.post(`/api/v1/scopes/${slug}/assimilate`, { headers, data: { claim, topic, evidence: entries.map((e) => ({ ...e, tier: "document" })) } });
    expect(res.ok(), await res.text()).toBe(true);
    return ((await res.json()) as { belief: { id: string; text: string } }).belief;
  };
  const [runbook, incident, staging, cache] = await Promise.all([
    evidence("Runbook: production deploys are cut from the main branch."),
    evidence("Incident 214: last Friday's deploy went out from a release branch."),
    evidence("Staging config is generated from the production manifests."),
    evidence("The CDN caches static assets for one day."),
  ]);
  const beliefs = [
    await assimilate("Production deploys go out from the main branch.", "deploy-branch", [
      { sourceId: runbook, relation: "SUPPORTS" },
      { sourceId: incident, relation: "REBUTS" },
    ]),
    await assimilate("Staging mirrors production configuration.", "staging", [{ sourceId: staging, relation: "SUPPORTS" }]),
    await assimilate("Static assets are cached for a day at the edge.", "cdn", [{ sourceId: cache, relation: "SUPPORTS" }]),
  ];
  return { slug, owner, analyst, token, beliefs };
}

async function pageFor(browser: Browser, user: TestUser, options: { phone?: boolean; dark?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ ...(options.phone ? { viewport: PHONE, isMobile: true, hasTouch: true } : { viewport: { width: 1440, height: 900 } }), colorScheme: options.dark ? "dark" : "light" });
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

test("the analyst reads the graph at a glance: labels at the default fit, time travel over the history, search with a message, unknown links explained", async ({ browser, request }) => {
  const seeded = await seed(request, "glance");
  const page = await pageFor(browser, seeded.analyst);
  await page.goto(`/scopes/${seeded.slug}/graph`);
  await expect(page.getByTestId("graph-stats")).toContainText("3 beliefs · 7 nodes · 4 edges");
  // Every belief carries its label at the default fit (the canvas reports how many it labelled).
  await expect.poll(async () => Number(await page.getByTestId("graph-canvas").getAttribute("data-labels"))).toBeGreaterThanOrEqual(3);
  await page.waitForTimeout(600);
  await snap(page, "ui-01-graph-default-fit");

  // The slider runs from the first to the last history event (not from the scope's creation to now).
  const times: string[] = [];
  for (const b of seeded.beliefs) {
    const res = await request.get(`/api/v1/scopes/${seeded.slug}/beliefs/${encodeURIComponent(b.id)}`, { headers: { authorization: `Bearer ${seeded.token}` } });
    // The history rides on the belief (or beside it, in the older response shape).
    const body = (await res.json()) as { belief?: { history?: { time: string }[] }; history?: { time: string }[] };
    times.push(...(body.belief?.history ?? body.history ?? []).map((h) => h.time));
  }
  times.sort();
  const utc = (iso: string) => `${new Date(iso).toISOString().slice(0, 16).replace("T", " ")} UTC`;
  expect(times.length).toBeGreaterThanOrEqual(4);
  await expect(page.getByTestId("graph-as-of-first")).toHaveText(utc(times[0]!));
  await expect(page.getByTestId("graph-as-of-last")).toHaveText(utc(times.at(-1)!));
  const slider = page.getByLabel("As of");
  await expect(slider).toHaveAttribute("max", "2");
  // Step back one change-set: the third belief is not there yet, and the diff says what came after.
  await page.getByRole("button", { name: "Previous change" }).click();
  await expect(page).toHaveURL(/asOf=/);
  await expect(page.getByTestId("graph-stats")).toContainText("2 beliefs");
  await page.getByLabel(/What changed from/).selectOption("now");
  await expect(page.getByTestId("graph-diff-list")).toContainText("Static assets are cached for a day at the edge.");
  await snap(page, "ui-02-graph-time-travel");
  await page.getByRole("button", { name: "Back to now" }).click();
  await expect(page.getByTestId("graph-stats")).toContainText("3 beliefs");

  // Search highlights and centres; a 5 000-character search is refused with a message, never silently.
  await page.getByLabel("Find a node by its text").fill("staging");
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("graph-search-result")).toContainText("2 nodes found");
  await page.getByLabel("Find a node by its text").fill("x".repeat(5_000));
  await page.getByRole("button", { name: "Find" }).click();
  await expect(page.getByTestId("graph-search-result")).toContainText("limited to 500 characters; this one has 5,000");

  // Presets: "contested" keeps the deploy-branch story whatever its tension.
  await page.getByTestId("graph-presets").getByRole("button", { name: "Contested" }).click();
  await expect(page.getByTestId("graph-stats")).toContainText("1 belief ·");

  // An unknown node id in a link says so.
  await page.goto(`/scopes/${seeded.slug}/graph?nodeId=no-such-node`);
  await expect(page.getByTestId("graph-unknown-node")).toContainText("There is no node with the id “no-such-node”");
  await page.getByTestId("graph-unknown-node").getByRole("button", { name: "Show the whole scope" }).click();
  await expect(page.getByTestId("graph-stats")).toContainText("3 beliefs");

  // The belief page: evidence as text in the history, a time axis, a link back to the belief in the graph.
  await page.goto(`/scopes/${seeded.slug}/beliefs/${encodeURIComponent(seeded.beliefs[0]!.id)}`);
  await expect(page.getByTestId("history-evidence").first()).toContainText("Runbook: production deploys are cut from the main branch.");
  await expect(page.getByTestId("history-evidence").first()).toContainText("document");
  await expect(page.getByTestId("credence-chart-event")).toHaveCount(2);
  await page.getByTestId("belief-graph-link").click();
  await expect(page.getByTestId("graph-panel-text")).toHaveText("Production deploys go out from the main branch.");
});

test("dark mode and phone: a dark canvas without moderate or worse axe findings, and the canvas near the top of a phone screen", async ({ browser, request }) => {
  const seeded = await seed(request, "phone");
  const dark = await pageFor(browser, seeded.analyst, { dark: true });
  await dark.goto(`/scopes/${seeded.slug}/graph`);
  await expect(dark.getByTestId("graph-stats")).toContainText("3 beliefs");
  // The computed colour may be oklch(): a canvas converts it to sRGB.
  const [r, g, b] = await dark.locator("#graph-frame").evaluate((el) => {
    const ctx = document.createElement("canvas").getContext("2d");
    if (!ctx) return [255, 255, 255];
    ctx.fillStyle = getComputedStyle(el).backgroundColor;
    ctx.fillRect(0, 0, 1, 1);
    return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3));
  });
  expect((r ?? 255) + (g ?? 255) + (b ?? 255)).toBeLessThan(120);
  await dark.waitForTimeout(600);
  await snap(dark, "ui-03-graph-dark");
  await expectAxeClean(dark, "graph (dark)", { least: "moderate", allRules: true });

  const phone = await pageFor(browser, seeded.analyst, { phone: true });
  await phone.goto(`/scopes/${seeded.slug}/graph`);
  await expect(phone.getByTestId("graph-stats")).toContainText("3 beliefs");
  const frame = await phone.locator("#graph-frame").boundingBox();
  expect(frame?.y ?? 9_999).toBeLessThan(420);
  await snap(phone, "ui-04-graph-phone");

  // A tap on a node opens its panel as a sheet on screen (not below the canvas, off-screen).
  await phone.goto(`/scopes/${seeded.slug}/graph?edgeTypes=SUPERSEDES&text=staging`);
  await expect(phone.getByTestId("graph-stats")).toContainText("1 belief · 1 node ·");
  // A link with filters opens them above the canvas; folding them brings the canvas back up.
  await phone.getByTestId("graph-filters-toggle").click();
  await expect(phone.locator("#graph-filters-panel")).toHaveCount(0);
  await phone.waitForTimeout(600);
  const box = await phone.getByTestId("graph-canvas").boundingBox();
  await phone.touchscreen.tap((box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2);
  await expect(phone.getByTestId("graph-panel-text")).toHaveText("Staging mirrors production configuration.");
  await expect(phone.getByTestId("graph-panel-sheet")).toBeInViewport();
  const sheet = await phone.getByTestId("graph-panel-sheet").boundingBox();
  expect((sheet?.y ?? 9_999) + (sheet?.height ?? 0)).toBeLessThanOrEqual(PHONE.height + 1);
  await phone.waitForTimeout(400);
  await snap(phone, "ui-04b-graph-phone-tapped");

  // Folding the filter column on a desktop gives the canvas the width back (Cytoscape is told the new size).
  const desk = await pageFor(browser, seeded.analyst);
  await desk.goto(`/scopes/${seeded.slug}/graph`);
  await expect(desk.getByTestId("graph-stats")).toContainText("3 beliefs");
  const canvasWidth = async () => Number(await desk.getByTestId("graph-canvas").getAttribute("data-width"));
  const frameWidth = async () => Math.round((await desk.locator("#graph-frame").evaluate((el) => el.clientWidth)));
  const wide = await canvasWidth();
  await desk.getByTestId("graph-filters-toggle").click();
  await expect(desk.locator("#graph-filters-panel")).toBeVisible();
  await expect.poll(canvasWidth).toBeLessThan(wide - 100);
  expect(Math.abs((await canvasWidth()) - (await frameWidth()))).toBeLessThanOrEqual(2);
  await desk.getByTestId("graph-filters-toggle").click();
  await expect.poll(canvasWidth).toBe(wide);
});

test("the owner is refused an out-of-range parameter with a message, and the keyboard skips to the content", async ({ browser, request }) => {
  const seeded = await seed(request, "owner");
  const page = await pageFor(browser, seeded.owner);
  await page.goto(`/scopes/${seeded.slug}/parameters`);
  const version = await page.getByTestId("params-version").innerText();
  await page.getByLabel(/ESS threshold/).fill("-5");
  await page.getByRole("button", { name: "Save as new version" }).click();
  await expect(page.getByText("Must be at least 0 (valid: 0 to 1).")).toBeVisible();
  await expect(page.getByLabel(/ESS threshold/)).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByTestId("params-message")).toContainText("nothing was saved");
  await expect(page.getByTestId("params-version")).toHaveText(version);
  await snap(page, "ui-06-params-refused");
  await page.getByLabel(/ESS threshold/).fill("0.35");
  await page.getByLabel("Note (why)").fill("e2e: a little stricter");
  await page.getByRole("button", { name: "Save as new version" }).click();
  await expect(page.getByTestId("params-message")).toContainText("Saved as version 1");
  await expect(page.getByText("Must be at least 0")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Revert to version 0" })).toBeVisible();
  // The version history shows the note the owner gave.
  await expect(page.getByTestId("params-version-row").first().getByTestId("params-version-note")).toHaveText("e2e: a little stricter");
  await snap(page, "ui-06b-params-note");

  // Keyboard: the first Tab reaches "Skip to content", Enter moves focus past the header.
  await page.goto(`/scopes/${seeded.slug}`);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "Skip to content" })).toBeFocused();
});

test("the outsider finds the public scope from the home page, and a shared link survives sign-in", async ({ browser, request }) => {
  const seeded = await seed(request, "public", { isPublic: true });
  const outsider = await createUser("outsider");
  const page = await pageFor(browser, outsider);
  await expect(page.getByTestId("public-scopes")).toContainText(`UI public`);
  await page.getByTestId("public-scopes").getByRole("link", { name: "UI public" }).click();
  await expect(page.getByTestId("scope-title")).toHaveText("UI public");
  await snap(page, "ui-07-outsider-public-scope");

  // Signed out, a shared link asks for a sign-in and then opens the link itself.
  const shared = `/scopes/${seeded.slug}/beliefs/${encodeURIComponent(seeded.beliefs[1]!.id)}`;
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto(shared);
  await expect(fresh).toHaveURL(/\/signin\?callbackUrl=/);
  await fresh.getByLabel("Email").fill(seeded.analyst.email);
  await fresh.getByLabel("Password").fill(seeded.analyst.password);
  await fresh.getByRole("button", { name: "Sign in" }).click();
  await expect(fresh).toHaveURL(new RegExp(`${shared.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
  await expect(fresh.getByTestId("belief-text")).toHaveText("Staging mirrors production configuration.");
});

// One journey per colour scheme: eleven pages × axe each take ~1.5 min on a loaded two-core CI machine, and the two together
// once ran past the test timeout there (3.1 min). `test.slow()` leaves room for a slower machine still.
for (const dark of [false, true]) {
  test(`every page has no moderate, serious or critical accessibility finding, in ${dark ? "dark" : "light"}`, async ({ browser, request }) => {
    test.slow();
    const seeded = await seed(request, dark ? "axe-dark" : "axe");
    const page = await pageFor(browser, seeded.owner, { dark });
    const belief = `/scopes/${seeded.slug}/beliefs/${encodeURIComponent(seeded.beliefs[0]!.id)}`;
    for (const path of ["/", `/scopes/${seeded.slug}`, `/scopes/${seeded.slug}/graph`, `/scopes/${seeded.slug}/graph?view=list`, belief, `/scopes/${seeded.slug}/review`, `/scopes/${seeded.slug}/parameters`, `/scopes/${seeded.slug}/settings`, `/scopes/${seeded.slug}/ingest`, `/scopes/${seeded.slug}/readings`, "/scopes/no-such-scope"]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      await expectAxeClean(page, `${path}${dark ? " (dark)" : ""}`, { least: "moderate", allRules: true });
    }
    // The 404 inside the signed-in layout has one <main>.
    await page.goto("/scopes/no-such-scope");
    await expect(page.locator("main")).toHaveCount(1);
    const signedOut = await (await browser.newContext({ colorScheme: dark ? "dark" : "light" })).newPage();
    await signedOut.goto("/signin");
    await expectAxeClean(signedOut, `/signin${dark ? " (dark)" : ""}`, { least: "moderate", allRules: true });
    // The favicon is served (no console error on every page).
    expect((await signedOut.request.get("/favicon.ico")).status()).toBe(200);
  });
}

test("the owner confirms a role change and the public switch, sees them saved, copies a new token; stale errors go", async ({ browser, request }) => {
  const seeded = await seed(request, "settings");
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
  const page = await context.newPage();
  await signIn(page, seeded.owner);
  await page.goto(`/scopes/${seeded.slug}/settings`);

  // An unknown email is refused with a message...
  await page.getByLabel("Email of an existing user").fill("nobody-here@e2e.test");
  await page.getByRole("button", { name: "Add member" }).click();
  const refused = page.getByTestId("members").getByRole("alert");
  await expect(refused.first()).toBeVisible();

  // ...which goes once the owner does something else. A role change asks first, and Cancel changes nothing.
  const role = page.getByLabel(`Role of ${seeded.analyst.email}`);
  await role.selectOption("reviewer");
  await expect(page.getByTestId("member-confirm")).toContainText("from editor to reviewer?");
  await snap(page, "ui-08-role-confirm");
  await page.getByTestId("member-confirm").getByRole("button", { name: "Cancel" }).click();
  await expect(role).toHaveValue("editor");
  await role.selectOption("reviewer");
  await page.getByTestId("member-confirm").getByRole("button", { name: "Change role" }).click();
  await expect(page.getByTestId("toast").last()).toContainText(`is now reviewer`);
  await expect(refused).toHaveCount(0);
  await page.reload();
  await expect(page.getByLabel(`Role of ${seeded.analyst.email}`)).toHaveValue("reviewer");

  // Making the scope public asks first, then says it is saved.
  const visibility = page.getByTestId("visibility");
  await visibility.getByRole("checkbox").check();
  await expect(page.getByTestId("visibility-confirm")).toContainText("Every signed-in user of this server will be able to read");
  await snap(page, "ui-09-public-confirm");
  await page.getByRole("button", { name: "Make public" }).click();
  await expect(page.getByTestId("toast").last()).toContainText("Saved: the scope is now public.");
  await page.reload();
  await expect(page.getByTestId("visibility").getByRole("checkbox")).toBeChecked();

  // A new token has a copy button that puts it on the clipboard.
  await page.getByLabel("Token name").fill("copy me");
  await page.getByRole("button", { name: "Create token" }).click();
  const token = (await page.getByTestId("new-token").innerText()).trim();
  await page.getByRole("button", { name: "Copy token" }).click();
  await expect(page.getByTestId("token-copied")).toHaveText("Copied to the clipboard.");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
  await snap(page, "ui-10-token-copied");
  await page.emulateMedia({ colorScheme: "dark" });
  await expectAxeClean(page, "settings with confirmations (dark)", { least: "moderate", allRules: true });
});

test("the outsider switches to a public scope from the header; the recall box shows its uncertainty and refuses a 5 000-character question", async ({ browser, request }) => {
  const seeded = await seed(request, "switch", { isPublic: true });
  const outsider = await createUser("switcher");
  const page = await pageFor(browser, outsider);
  await page.getByLabel("Switch scope").selectOption({ label: "UI switch" });
  await expect(page).toHaveURL(new RegExp(`/scopes/${seeded.slug}$`));
  await expect(page.getByTestId("scope-title")).toHaveText("UI switch");
  // The outsider is not sent to settings they cannot open.
  await expect(page.getByRole("link", { name: "Settings" })).toHaveCount(0);

  await page.getByLabel("Question").fill("Which branch do production deploys go out from?");
  await page.getByRole("button", { name: "Recall" }).click();
  await expect(page.getByTestId("recall-figures")).toContainText(/Tension (between the two views|of this belief \(as in the table\))/);
  await expect(page.getByTestId("recall-uncertainty")).toContainText(/Uncertainty:\s*0\.\d\d/);
  await snap(page, "ui-11-recall-uncertainty");
  await page.getByLabel("Question").fill("x".repeat(5_000));
  await page.getByRole("button", { name: "Recall" }).click();
  await expect(page.getByTestId("recall-error")).toHaveText("Questions are limited to 2,000 characters; this one has 5,000. Shorten it and ask again.");
  await expect(page.getByLabel("Question")).toHaveAttribute("aria-invalid", "true");
});

test("a scope of more than 300 nodes is laid out in the layout worker of the production bundle, and drawn", async ({ browser, request }) => {
  const owner = await createUser("big-owner");
  const slug = uniqueSlug("big");
  await createScope(slug, "UI big", owner.email);
  const token = await createToken(owner.email, "bulk", slug);
  // 320 unrelated claims (words drawn from a fixed list, one topic each), four requests at a time. Written verbatim (match: exact): they differ in a number and a word or two, which the relate default could merge; the whole-scope graph (?whole=1), not the topic map that a scope of more than 300 beliefs opens on.
  const words = ["amber", "basalt", "cedar", "delta", "ember", "fjord", "garnet", "harbor", "indigo", "juniper", "kelp", "lagoon", "marble", "nickel", "onyx", "prairie", "quartz", "reef", "sierra", "tundra"];
  const claim = (i: number) => `The ${words[i % 20]} ${words[Math.floor(i / 20) % 20]} gauge ${i} reads ${words[(i * 7) % 20]} ${words[(i * 13 + 5) % 20]} at dawn.`;
  for (let start = 0; start < 320; start += 4) {
    await Promise.all(
      [0, 1, 2, 3].map(async (k) => {
        const res = await request.post(`/api/v1/scopes/${slug}/assimilate`, { headers: { authorization: `Bearer ${token}` }, data: { claim: claim(start + k), match: "exact", topic: `gauge-${start + k}`, evidence: [{ sourceId: null, tier: "model_assertion" }] } });
        expect(res.ok(), await res.text()).toBe(true);
      }),
    );
  }
  const page = await pageFor(browser, owner);
  const warnings: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning" || message.type() === "error") warnings.push(message.text());
  });
  await page.goto(`/scopes/${slug}/graph?whole=1`);
  await expect(page.getByTestId("graph-stats")).toContainText("320 beliefs");
  await expect(page.getByTestId("graph-canvas")).toHaveAttribute("data-layout", "worker", { timeout: 60_000 });
  // Labels are drawn only where they overlap no other node: a packed grid of 320 unlinked beliefs at the default fit has room for a few.
  await expect.poll(async () => Number(await page.getByTestId("graph-canvas").getAttribute("data-labels"))).toBeGreaterThan(0);
  expect(warnings.filter((w) => /layout worker/.test(w))).toEqual([]);
  await page.waitForTimeout(600);
  await snap(page, "ui-12-graph-320-worker");
});
