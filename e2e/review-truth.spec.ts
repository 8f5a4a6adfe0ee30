import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { addMember, createScope, createToken, createUser, expect, expectAxeClean, signIn, snap, test, type TestUser, uniqueSlug } from "./fixtures";

/**
 * The review queue tells the truth and a supersede can be taken back: the card names the agent token that proposed,
 * reads an update that changes a figure as that change, quotes the numbers as written and walks its decision path
 * again when shown; a supersede asks first (with a warning: the replacement is weaker) and is undone from the queue,
 * which reinstates the old belief and puts the proposal back. Desktop and phone (390 px), light and dark.
 */

const PHONE = { width: 390, height: 844 };

async function pageFor(browser: Browser, user: TestUser, options: { phone?: boolean; dark?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    ...(options.phone ? { viewport: PHONE, isMobile: true, hasTouch: true } : { viewport: { width: 1280, height: 900 } }),
    colorScheme: options.dark ? "dark" : "light",
  });
  const page = await context.newPage();
  await signIn(page, user);
  return page;
}

/** REST as the agent's token. */
function agentClient(request: APIRequestContext, token: string, slug: string) {
  return async (method: "GET" | "POST", path: string, data?: unknown) => {
    const response = await request.fetch(`/api/v1/scopes/${slug}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      ...(data === undefined ? {} : { data: JSON.stringify(data) }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status(), JSON.stringify(body)).toBeLessThan(300);
    return body;
  };
}

test("a supersede asks first, warns that the replacement is weaker, and can be undone from the review queue", async ({ browser, request }) => {
  const [owner, reviewer] = await Promise.all([createUser("truth-owner"), createUser("truth-reviewer")]);
  const slug = uniqueSlug("truth");
  await createScope(slug, "Review truth", owner.email);
  await addMember(slug, reviewer.email, "reviewer");
  const rest = agentClient(request, await createToken(owner.email, "rate-limit probe"), slug);

  const docs: string[] = [];
  for (let i = 1; i <= 4; i++) docs.push(((await rest("POST", "/evidence", { kind: "document", text: `Gateway policy ${i}: 100 requests per minute per token.`, assess: false })).evidence as { id: string }).id);
  const old = (await rest("POST", "/assimilate", { claim: "The public API rate limit is 100 requests per minute.", topic: "api rate limit", match: "exact", evidence: docs.map((sourceId) => ({ sourceId, tier: "document" })) })).belief as { id: string; credence: number; status: string };
  const sighting = ((await rest("POST", "/evidence", { kind: "observation", text: "A load probe was throttled at 50 requests per minute.", assess: false })).evidence as { id: string }).id;
  const proposal = await rest("POST", "/mutations", { belief: "The public API rate limit is 50 requests per minute.", strength: 0.7, reason: `Observed in ${sighting}.`, evidenceIds: [sighting], sourceEvent: sighting, mutationType: "updated" });
  expect((proposal.mutation as { status: string }).status).toBe("pending_review");

  const page = await pageFor(browser, reviewer);
  await page.goto(`/scopes/${slug}/review`);
  const card = page.getByTestId("pending-mutation");
  await expect(card).toHaveCount(1);
  // Who proposed, and what they meant: an agent's token, changing the figure — not "reinforce the existing belief".
  await expect(card.getByTestId("proposal-intent")).toContainText("The agent token “rate-limit probe”");
  await expect(card.getByTestId("proposal-intent")).toContainText("change “100” to “50” in the existing belief");
  await expect(card).not.toContainText("reinforce");
  // The path is walked again for this view and says when; the numbers read as written.
  await expect(card.getByTestId("decision-path-when")).toContainText(/Walked again at \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(card.getByRole("region", { name: "Decision path" })).toContainText("“50 requests per minute” against “100 requests per minute”");
  await expect(card).not.toContainText("per_day");

  // Supersede asks first. The note comes before the dialog; Escape backs out and puts focus back where it was.
  await card.getByLabel("Resolution").selectOption("supersede");
  await card.getByLabel("Note for the journal").fill("The gateway now throttles at 50/min.");
  const trigger = card.getByRole("button", { name: "Supersede…" });
  await trigger.click();
  const dialog = page.getByRole("dialog", { name: "Replace the existing belief?" });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("credence 0.");
  await expect(dialog).toContainText("4 supporting entries");
  await expect(dialog.getByTestId("review-weaker")).toContainText("The replacement is weaker than the belief it replaces: its credence is");
  await expect(dialog.getByTestId("review-weaker")).toContainText("it rests on 1 supporting entry against 4");
  // A weaker replacement: focus starts on the safe answer.
  await expect(dialog.getByRole("button", { name: "Cancel" })).toBeFocused();
  await snap(page, "truth-01-supersede-confirm");
  await expectAxeClean(page, "review confirm (light)");
  await page.emulateMedia({ colorScheme: "dark" });
  await snap(page, "truth-02-supersede-confirm-dark");
  await expectAxeClean(page, "review confirm (dark)");
  await page.emulateMedia({ colorScheme: "light" });
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(trigger).toBeFocused();
  expect(((await rest("GET", `/beliefs/${old.id}`)).belief as { status: string }).status).toBe(old.status);

  // Confirmed by keyboard: Tab from Cancel to the confirm button.
  await trigger.press("Enter");
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Yes, supersede" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("review-empty")).toBeVisible();
  await expect(page.getByTestId("toast").first()).toContainText("Approved");
  expect(((await rest("GET", `/beliefs/${old.id}`)).belief as { status: string }).status).toBe("superseded");

  // Undo from the queue's recent decisions: asks why, then reinstates the old belief and puts the proposal back.
  const decided = page.getByTestId("recent-decision");
  await expect(decided).toHaveCount(1);
  await expect(decided).toContainText("Superseded “The public API rate limit is 100 requests per minute.” with “The public API rate limit is 50 requests per minute.”");
  await snap(page, "truth-03-superseded-undo-offered");
  await decided.getByRole("button", { name: /^Undo the supersede/ }).click();
  const undo = page.getByRole("dialog", { name: "Undo this supersede?" });
  await expect(undo.getByLabel("Why (for the journal)")).toBeFocused();
  await page.keyboard.type("Approved before the gateway change was confirmed.");
  await undo.getByRole("button", { name: "Yes, undo" }).click();
  await expect(undo).toBeHidden();
  await expect(page.getByTestId("toast").last()).toContainText("Undone");
  await expect(card).toHaveCount(1);
  await expect(card).toContainText("an approval of it was undone");
  await expect(page.getByTestId("decided-empty")).toBeVisible();

  const restored = ((await rest("GET", `/beliefs/${old.id}`)) as { belief: { status: string; credence: number; validUntil: string | null; history: { type: string }[] } }).belief;
  expect(restored.status).toBe(old.status);
  expect(restored.credence).toBeCloseTo(old.credence, 9);
  expect(restored.validUntil).toBeNull();
  expect(restored.history.map((h) => h.type).slice(-2)).toEqual(["superseded", "reinstated"]);
  const mutations = (await rest("GET", "/mutations")).mutations as { id: string; status: string; undone?: { resolution: string; undoNote: string }[] }[];
  const journal = mutations.find((m) => m.id === (proposal.mutation as { id: string }).id);
  expect(journal?.status).toBe("pending_review");
  expect(journal?.undone).toEqual([expect.objectContaining({ resolution: "supersede", undoNote: "Approved before the gateway change was confirmed." })]);

  // The old belief's page shows both steps of its history.
  await page.goto(`/scopes/${slug}/beliefs/${old.id}`);
  await expect(page.getByText(/^reinstated: undo of mutation/)).toBeVisible();

  // The phone: the card and the dialog fit 390 px, in both schemes.
  for (const dark of [false, true]) {
    const phone = await pageFor(browser, reviewer, { phone: true, dark });
    await phone.goto(`/scopes/${slug}/review`);
    const phoneCard = phone.getByTestId("pending-mutation");
    await phoneCard.getByLabel("Resolution").selectOption("supersede");
    await phoneCard.getByLabel("Note for the journal").fill("Checking the layout.");
    await phoneCard.getByRole("button", { name: "Supersede…" }).click();
    await expect(phone.getByRole("dialog", { name: "Replace the existing belief?" })).toBeVisible();
    // The card and the dialog fit the screen (the page header's own width is the phone layout's business).
    for (const part of [phoneCard, phone.getByRole("dialog")]) {
      const box = await part.boundingBox();
      expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 9_999) <= PHONE.width).toBe(true);
    }
    await snap(phone, `truth-04-phone-confirm${dark ? "-dark" : ""}`);
    await phone.keyboard.press("Escape");
    await snap(phone, `truth-05-phone-card${dark ? "-dark" : ""}`);
    await phone.context().close();
  }
});
