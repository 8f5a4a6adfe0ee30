import type { Browser, Page } from "@playwright/test";
import { addMember, createScope, createToken, createUser, expect, expectAxeClean, signIn, test, type TestUser, uniqueSlug } from "./fixtures";

/**
 * An analyst corrects a misread relation on a belief's page, sees credence move, and undoes it: with the mouse on a
 * desktop (light), by keyboard on a desktop (dark), and 390 px wide. Screenshots go to this test's output folder
 * (test-results/…); one signed-in page throughout, so the journey stays short.
 */

const CLAIM = "The staging cluster mirrors the production network layout.";
const MISREAD = "The network audit found that staging runs on a flat network while production is split into three zones.";

interface Seeded {
  slug: string;
  analyst: TestUser;
  beliefId: string;
}

async function seed(request: import("@playwright/test").APIRequestContext): Promise<Seeded> {
  const [owner, analyst] = await Promise.all([createUser("owner"), createUser("analyst")]);
  const slug = uniqueSlug("relations");
  await createScope(slug, "Relations", owner.email);
  await addMember(slug, analyst.email, "editor");
  const token = await createToken(owner.email, "agent");
  const rest = async (path: string, data: unknown) => {
    const response = await request.post(`/api/v1/scopes/${slug}${path}`, { headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, data: JSON.stringify(data) });
    const body = (await response.json()) as Record<string, unknown>;
    expect(response.status(), JSON.stringify(body)).toBeLessThan(300);
    return body;
  };
  const doc = async (text: string) => ((await rest("/evidence", { kind: "document", text, assess: false })).evidence as { id: string }).id;
  const runbook = await doc("The environments runbook: staging is built from the same network templates as production.");
  const audit = await doc(MISREAD);
  // The audit argues against the claim, but was recorded as supporting it.
  const belief = await rest("/assimilate", { claim: CLAIM, topic: "environments", match: "exact", evidence: [{ sourceId: runbook, tier: "document" }, { sourceId: audit, tier: "document" }] });
  return { slug, analyst, beliefId: (belief.belief as { id: string }).id };
}

async function pageFor(browser: Browser, user: TestUser): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: "light" })).newPage();
  await signIn(page, user);
  return page;
}

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });
}

async function credence(page: Page): Promise<number> {
  return Number(await page.getByTestId("belief-credence").textContent());
}

/** The audit's entry row in the evidence history. */
const auditRow = (page: Page) => page.getByTestId("history").getByRole("row").filter({ hasText: MISREAD });

test("an analyst corrects a misread relation, sees credence move, and undoes it (desktop light and dark, phone)", async ({ browser, request }) => {
  const seeded = await seed(request);
  const url = `/scopes/${seeded.slug}/beliefs/${encodeURIComponent(seeded.beliefId)}`;

  // Desktop, light, with the mouse.
  const page = await pageFor(browser, seeded.analyst);
  await page.goto(url);
  const before = await credence(page);
  await expect(auditRow(page).getByTestId("history-relation")).toContainText("supports");
  await auditRow(page).getByTestId("correct-relation").click();
  const dialog = page.getByRole("dialog", { name: "Correct the relation" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("radio", { name: /supports/ })).toBeDisabled();
  // Nothing chosen and no reason: the dialog names both fields before anything is sent.
  await dialog.getByRole("button", { name: "Review the change" }).click();
  await expect(dialog.getByRole("alert")).toHaveText(["Choose how the evidence bears on the belief.", "Say why, in a sentence."]);
  await dialog.getByRole("radio", { name: /rebuts/ }).check();
  await dialog.getByLabel("Why? (kept in the history)").fill("The audit says staging is flat, so it argues against mirroring.");
  await dialog.getByRole("button", { name: "Review the change" }).click();
  await expect(dialog.getByTestId("correct-relation-confirm")).toContainText("Change supports to rebuts?");
  await shot(page, "desktop-light-1-confirm", false);
  await dialog.getByRole("button", { name: "Confirm correction" }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId("toast")).toContainText("Relation corrected: supports → rebuts. Credence");
  await expect.poll(() => credence(page)).toBeLessThan(before);
  const after = await credence(page);
  await expect(auditRow(page).getByTestId("history-relation")).toContainText("rebuts");
  await expect(auditRow(page).getByTestId("history-relation")).toContainText("recorded as supports");
  const note = page.getByTestId("correction-note");
  await expect(note).toHaveText(`relation of entry #2 corrected by ${seeded.analyst.name}: supports → rebuts. Why: “The audit says staging is flat, so it argues against mirroring.”`);
  await shot(page, "desktop-light-2-corrected");
  await expectAxeClean(page, "belief page after a correction (light)", { least: "moderate" });

  // The undo on the correction's row: credence returns, and the history keeps both.
  await page.getByTestId("undo-correction").click();
  await expect(page.getByTestId("toast").last()).toContainText("Undone: rebuts → supports.");
  await expect.poll(() => credence(page)).toBe(before);
  await expect(note).toHaveCount(2);
  await expect(note.nth(1)).toContainText(`corrected by ${seeded.analyst.name}: rebuts → supports. Why: “Undo of the correction to rebuts:`);
  await expect(page.getByTestId("undo-correction")).toHaveCount(1);
  await shot(page, "desktop-light-3-undone");

  // Desktop, dark, by keyboard only: open, choose, give the reason, review, confirm; then the toast's Undo.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.reload();
  await auditRow(page).getByTestId("correct-relation").focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("radio", { name: /rebuts/ })).toBeFocused();
  await page.keyboard.press("ArrowDown");
  await expect(dialog.getByRole("radio", { name: /scopes \(context\)/ })).toBeChecked();
  await page.keyboard.press("ArrowDown");
  await expect(dialog.getByRole("radio", { name: /unrelated/ })).toBeChecked();
  await page.keyboard.press("Tab");
  await page.keyboard.type("The audit is about network zones, not about what staging mirrors.");
  await expectAxeClean(page, "correction dialog (dark)", { least: "moderate" });
  await shot(page, "desktop-dark-1-dialog", false);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Tab");
  await expect(dialog.getByRole("button", { name: "Review the change" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog.getByTestId("correct-relation-confirm")).toContainText("Change supports to unrelated?");
  await expect(dialog.getByRole("button", { name: "Confirm correction" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
  await expect.poll(() => credence(page)).toBeGreaterThan(after);
  await expect(auditRow(page).getByTestId("history-relation")).toContainText("unrelated");
  await expect(auditRow(page).getByTestId("correct-relation")).toBeFocused();
  await shot(page, "desktop-dark-2-corrected");
  // The toast's Undo, while it shows (8 s).
  await page.getByTestId("toast").getByRole("button", { name: "Undo" }).click();
  await expect.poll(() => credence(page)).toBe(before);

  // Phone, 390 px wide, light.
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await auditRow(page).getByTestId("correct-relation").click();
  await dialog.getByRole("radio", { name: /rebuts/ }).check();
  // A reason is text, never markup.
  await dialog.getByLabel("Why? (kept in the history)").fill("Misread on the phone <img src=x onerror=alert(1)> <b>not bold</b>.");
  await dialog.getByRole("button", { name: "Review the change" }).click();
  await shot(page, "phone-1-confirm", false);
  const box = await dialog.boundingBox();
  expect(box !== null && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await dialog.getByRole("button", { name: "Confirm correction" }).click();
  await expect.poll(() => credence(page)).toBe(after);
  await expect(page.getByTestId("correction-note").last()).toContainText("Why: “Misread on the phone <img src=x onerror=alert(1)> <b>not bold</b>.”");
  await expect(page.getByTestId("history").locator("img, b:text('not bold')")).toHaveCount(0);
  await shot(page, "phone-2-corrected");
  await page.getByTestId("undo-correction").click();
  await expect.poll(() => credence(page)).toBe(before);
  await shot(page, "phone-3-undone");
});
