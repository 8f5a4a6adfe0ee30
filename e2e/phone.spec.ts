import type { APIRequestContext, Page } from "@playwright/test";
import { createScope, createToken, createUser, expect, expectAxeClean, signIn, snap, test, uniqueSlug } from "./fixtures";

/**
 * An owner on a phone (390×844), light and dark: the scope table, a belief, the review queue, the settings and the
 * graph fit the width without sideways scrolling, and axe (all rules, best practices included) finds nothing at all,
 * not even a minor finding such as an empty table header. The scope's name is long on purpose: the header's scope switcher must not widen the page. Screenshots go
 * to e2e/artifacts/phone-*.png.
 */

const PHONE = { width: 390, height: 844 };

async function seed(request: APIRequestContext) {
  const owner = await createUser("phone-owner");
  const slug = uniqueSlug("phone");
  await createScope(slug, "Platform operations and release engineering notes", owner.email);
  const token = await createToken(owner.email, "phone agent", slug);
  const rest = async (path: string, data: unknown) => {
    const res = await request.post(`/api/v1/scopes/${slug}${path}`, { headers: { authorization: `Bearer ${token}` }, data });
    expect(res.status(), await res.text()).toBeLessThan(300);
    return (await res.json()) as { evidence: { id: string }; belief: { id: string }; mutation: { status: string } };
  };
  const evidence = async (text: string, kind = "document") => (await rest("/evidence", { kind, text, assess: false })).evidence.id;
  const [handbook, outage, queue] = await Promise.all([
    evidence("Handbook: database failover is rehearsed on the first Monday of every quarter."),
    evidence("Outage review: the last quarter's failover rehearsal was skipped for a release freeze."),
    evidence("Queue metrics: the ingestion backlog drains within ten minutes after a spike."),
  ]);
  const contested = (await rest("/assimilate", {
    claim: "Database failover is rehearsed every quarter without exception.",
    topic: "failover rehearsal",
    evidence: [{ sourceId: handbook, relation: "SUPPORTS", tier: "document" }, { sourceId: outage, relation: "REBUTS", tier: "document" }],
  })).belief;
  await rest("/assimilate", { claim: "The ingestion backlog drains within ten minutes of a traffic spike.", topic: "ingestion backlog", evidence: [{ sourceId: queue, relation: "SUPPORTS", tier: "document" }] });
  // A pending proposal, so the review queue shows a full card.
  const probe = await evidence("A load test saw the backlog take forty minutes to drain.", "observation");
  const proposal = await rest("/mutations", { belief: "The ingestion backlog drains within forty minutes of a traffic spike.", strength: 0.7, reason: `Observed in ${probe}.`, evidenceIds: [probe], sourceEvent: probe, mutationType: "updated" });
  expect(proposal.mutation.status).toBe("pending_review");
  return { owner, slug, contested };
}

async function expectFitsPhone(page: Page, name: string): Promise<void> {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${name} is ${width} px wide`).toBeLessThanOrEqual(PHONE.width);
}

test("on a phone, light and dark, the scope, a belief, review, settings and graph fit 390 px and pass axe", async ({ browser, request }) => {
  const { owner, slug, contested } = await seed(request);
  for (const scheme of ["light", "dark"] as const) {
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true, colorScheme: scheme });
    const page = await context.newPage();
    await signIn(page, owner);
    const visits: { name: string; path: string; ready: (p: Page) => Promise<void> }[] = [
      { name: "scope", path: `/scopes/${slug}`, ready: (p) => expect(p.getByTestId("belief-row")).toHaveCount(3) },
      { name: "belief", path: `/scopes/${slug}/beliefs/${encodeURIComponent(contested.id)}`, ready: (p) => expect(p.getByRole("heading", { level: 1 })).toBeVisible() },
      { name: "review", path: `/scopes/${slug}/review`, ready: (p) => expect(p.getByTestId("pending-mutation")).toHaveCount(1) },
      { name: "settings", path: `/scopes/${slug}/settings`, ready: (p) => expect(p.getByTestId("token-row")).toHaveCount(1) },
      { name: "graph", path: `/scopes/${slug}/graph`, ready: (p) => expect(p.getByTestId("graph-stats")).toHaveText(/\d+ beliefs? ·/) },
    ];
    for (const visit of visits) {
      await page.goto(visit.path);
      await visit.ready(page);
      // The legend's headings count for heading order only once it is open.
      if (visit.name === "graph") await page.getByText("Legend in full").click();
      await snap(page, `phone-${visit.name}-${scheme}`);
      await expectFitsPhone(page, `${visit.name} (${scheme})`);
      await expectAxeClean(page, `${visit.name} (${scheme})`, { least: "minor", allRules: true });
    }
    // The scope table keeps Tension in view beside each belief.
    await page.goto(`/scopes/${slug}`);
    const tension = page.getByTestId("belief-row").first().locator('[title^="tension"]');
    const box = await tension.boundingBox();
    expect(box !== null && box.x + box.width <= PHONE.width).toBe(true);
    await context.close();
  }
});
