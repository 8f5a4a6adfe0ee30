import type { APIRequestContext, Page } from "@playwright/test";
import { createScope, createToken, createUser, expect, signIn, snap, test, uniqueSlug } from "./fixtures";

const IMG = `<img src=x onerror="alert('img')">`;
const SCRIPT = `<script>alert('script')</script>`;
const BELIEF = `Deploys from ${IMG} main are ${SCRIPT} <b>always</b> safe.`;
const EVIDENCE = `Runbook ${SCRIPT} says <i>so</i> ${IMG}.`;
const REASONING = `Because <a href="javascript:alert('a')">this link</a> ${SCRIPT}.`;

function rest(request: APIRequestContext, token: string, scope: string) {
  return async (path: string, data: unknown) => {
    const response = await request.post(`/api/v1/scopes/${scope}${path}`, { headers: { authorization: `Bearer ${token}` }, data });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status(), JSON.stringify(body)).toBeLessThan(300);
    return body;
  };
}

/** Fails the test if anything on the page ever opens a dialog (alert/confirm/prompt). */
function watchDialogs(page: Page): string[] {
  const fired: string[] = [];
  page.on("dialog", (dialog) => {
    fired.push(dialog.message());
    void dialog.dismiss();
  });
  return fired;
}

async function expectInert(page: Page): Promise<void> {
  await expect(page.locator("img[src='x']")).toHaveCount(0);
  await expect(page.locator("main script")).toHaveCount(0);
  await expect(page.locator("main a[href^='javascript']")).toHaveCount(0);
}

test("belief, evidence and reasoning texts with markup and script appear literally and never execute", async ({ page, request }) => {
  const owner = await createUser("xss");
  const slug = uniqueSlug("xss");
  await createScope(slug, "XSS <b>scope</b>", owner.email);
  const post = rest(request, await createToken(owner.email, "agent"), slug);

  const evidence = ((await post("/evidence", { kind: "document", text: EVIDENCE })).evidence as { id: string }).id;
  const created = await post("/assimilate", { claim: BELIEF, evidence: [{ sourceId: evidence, tier: "document", reasoning: REASONING }] });
  const beliefId = (created.belief as { id: string }).id;
  // A mutation left for review whose reason carries markup (the queue shows it beside the conflicting belief).
  const docs: string[] = [];
  for (let i = 1; i <= 4; i++) docs.push(((await post("/evidence", { kind: "document", text: `API gateway policy ${i}: 100 requests per minute per token.` })).evidence as { id: string }).id);
  await post("/assimilate", { claim: "The public API rate limit is 100 requests per minute.", evidence: docs.map((sourceId) => ({ sourceId, tier: "document" })) });
  const sighting = ((await post("/evidence", { kind: "observation", text: `Saw HTTP 429 at 50 requests per minute ${IMG}` })).evidence as { id: string }).id;
  const REASON = `Observed in ${sighting} ${IMG} ${SCRIPT}.`;
  const proposed = await post("/mutations", { belief: "The public API rate limit is 50 requests per minute.", strength: 0.6, reason: REASON, evidenceIds: [sighting], sourceEvent: sighting, mutationType: "updated" });
  expect((proposed.mutation as { decision: string }).decision).toBe("review");

  const dialogs = watchDialogs(page);
  await signIn(page, owner);

  await page.goto(`/scopes/${slug}`);
  await expect(page.getByTestId("scope-title")).toHaveText("XSS <b>scope</b>");
  await expect(page.getByRole("link", { name: BELIEF })).toBeVisible();
  await expectInert(page);
  await snap(page, "40-xss-scope-home");

  await page.goto(`/scopes/${slug}/beliefs/${encodeURIComponent(beliefId)}`);
  await expect(page.getByTestId("belief-text")).toHaveText(BELIEF);
  await expect(page.getByTestId("belief-text").locator("b")).toHaveCount(0);
  await expect(page.getByTestId("history")).toContainText(REASONING);
  await expectInert(page);
  await snap(page, "41-xss-belief");

  await page.goto(`/scopes/${slug}/review`);
  await expect(page.getByRole("heading", { name: "Review queue" })).toBeVisible();
  await expect(page.getByTestId("pending-mutation")).toContainText(REASON);
  await expectInert(page);
  await snap(page, "42-xss-review");

  await page.goto(`/scopes/${slug}/ingest`);
  const form = page.getByRole("form", { name: "Ingest text" });
  await form.getByLabel("Text or model output").fill(`Deploys from main are never safe ${IMG} ${SCRIPT}.`);
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByTestId("ingest-claims")).toContainText(IMG);
  await expectInert(page);
  await snap(page, "43-xss-ingest");

  await page.goto(`/scopes/${slug}`);
  await page.getByLabel("Question").fill(`Are deploys from main safe? ${SCRIPT}`);
  await page.getByRole("button", { name: "Recall" }).click();
  await expect(page.getByTestId("recall-mode")).toBeVisible();
  await expectInert(page);

  expect(dialogs).toEqual([]);
});
