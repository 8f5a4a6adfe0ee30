import type { Page } from "@playwright/test";
import { addMember, createScope, createToken, createUser, expect, expectAxeClean, signIn, test, uniqueSlug } from "./fixtures";

/**
 * An editor pastes a paragraph, unticks one relation in the dry run (by keyboard) and changes nothing else, commits,
 * and sees only the ticked relations stored: in the committed result and on the beliefs' pages. Desktop 1440×900 and
 * phone 390×844, light and dark; screenshots go to this test's output folder (test-results/…).
 */

const SEEDS = ["The build cache is cleared every Friday.", "Backups are copied to the second data centre.", "The support rota changes every Monday."];
const PARAGRAPH = "The build cache is cleared every Friday evening. Backups are not copied to the second data centre. The support rota does not change on Mondays.";
const KEPT = "Backups are copied to the second data centre.";
const UNTICKED = "The support rota changes every Monday.";
/** The belief the paragraph creates that rebuts KEPT: the winning side of that conflict. */
const WINNER = "Backups are not copied to the second data centre.";

async function shot(page: Page, name: string, fullPage = true): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });
}

const relation = (page: Page, beliefText: string) => page.getByTestId("ingest-relation").filter({ hasText: beliefText });

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
}

test("an editor unticks one relation in an ingest dry run and commits the rest (desktop and phone, light and dark)", async ({ browser, request }) => {
  const [owner, editor] = await Promise.all([createUser("owner"), createUser("editor")]);
  const slug = uniqueSlug("ingest-edit");
  await createScope(slug, "Operations", owner.email);
  await addMember(slug, editor.email, "editor");
  const token = await createToken(owner.email, "seed");
  for (const text of SEEDS) {
    const response = await request.post(`/api/v1/scopes/${slug}/ingest`, { headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, data: JSON.stringify({ text }) });
    expect(response.status()).toBe(200);
  }

  const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: "light" })).newPage();
  await signIn(page, editor);
  await page.goto(`/scopes/${slug}/ingest`);
  const form = page.getByRole("form", { name: "Ingest text" });
  await form.getByLabel("Text or model output").fill(PARAGRAPH);
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByTestId("ingest-outcome")).toHaveText("dry run");
  await expect(relation(page, KEPT)).toHaveCount(1);
  await expect(relation(page, UNTICKED)).toHaveCount(1);
  const relationsBefore = await page.getByTestId("ingest-relation").count();
  expect(relationsBefore).toBeGreaterThanOrEqual(2);
  for (const box of await page.getByRole("checkbox").all()) await expect(box).toBeChecked();

  // Untick the rota relation by keyboard: its checkbox is a real one, named after the belief.
  const untick = relation(page, UNTICKED).getByRole("checkbox", { name: /^Keep relation \d+: claim \d+ and “The support rota changes every Monday\.”$/ });
  await untick.focus();
  await page.keyboard.press("Space");
  await expect(untick).not.toBeChecked();
  await expect(relation(page, UNTICKED).getByRole("combobox", { name: /^Relation \d+$/ })).toBeDisabled();
  await expect(relation(page, KEPT).getByRole("combobox", { name: /^Relation \d+$/ })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Commit change-set with 1 edit" })).toBeVisible();
  await shot(page, "desktop-light-1-dry-run-edited");
  await expectAxeClean(page, "ingest dry run with an edit (light)", { least: "moderate" });
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "desktop-dark-1-dry-run-edited");
  await expectAxeClean(page, "ingest dry run with an edit (dark)", { least: "moderate" });
  await page.emulateMedia({ colorScheme: "light" });

  await page.getByRole("button", { name: "Commit change-set with 1 edit" }).click();
  await expect(page.getByTestId("ingest-outcome")).toHaveText("committed");
  await expect(page.getByTestId("ingest-relation")).toHaveCount(relationsBefore - 1);
  await expect(relation(page, KEPT)).toHaveCount(1);
  await expect(relation(page, UNTICKED)).toHaveCount(0);
  await expect(page.getByTestId("ingest-excluded-relations")).toContainText(UNTICKED);
  // Each stored relation offers the belief page's correction.
  await expect(relation(page, KEPT).getByTestId("correct-relation")).toBeVisible();
  await shot(page, "desktop-light-2-committed");
  await expectAxeClean(page, "ingest committed (light)", { least: "moderate" });
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "desktop-dark-2-committed");
  await expectAxeClean(page, "ingest committed (dark)", { least: "moderate" });

  // Phone, light and dark: the committed result fits.
  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await shot(page, "phone-dark-2-committed");
  await page.emulateMedia({ colorScheme: "light" });
  await shot(page, "phone-light-2-committed");
  await expectAxeClean(page, "ingest committed on a phone (light)", { least: "moderate" });

  // The belief pages: the kept relation's belief cites the paragraph; the unticked one's does not.
  const keptHref = await relation(page, KEPT).getByRole("link", { name: KEPT }).getAttribute("href");
  const untickedHref = await page.getByTestId("ingest-excluded-relations").getByRole("link", { name: UNTICKED }).getAttribute("href");
  const evidenceRows = (p: Page) => p.getByTestId("history").getByRole("row").filter({ hasText: "Backups are not copied to the second data centre." });
  const beliefPage = await page.context().newPage();
  const winnerHref = await page.getByTestId("ingest-changes").getByRole("link", { name: WINNER }).getAttribute("href");
  await beliefPage.goto(keptHref ?? "");
  await expect(beliefPage.getByRole("heading", { level: 1 })).toContainText(KEPT);
  await expect(evidenceRows(beliefPage)).not.toHaveCount(0);
  // Both sides of the rebuttal name each other: the rebutted belief links the one the paragraph created, and back.
  // (The paragraph supports every belief it created, so its item names them all; the winner is among them.)
  await expect(beliefPage.getByTestId("belief-rival")).toHaveCount(1);
  await expect(beliefPage.getByTestId("belief-rival")).toHaveAttribute("data-side", "rebuts_this");
  await expect(beliefPage.getByTestId("belief-rival").getByRole("link", { name: WINNER })).toBeVisible();
  await beliefPage.goto(winnerHref ?? "");
  await expect(beliefPage.getByRole("heading", { level: 1 })).toContainText(WINNER);
  await expect(beliefPage.getByTestId("belief-rival").filter({ hasText: KEPT })).toHaveAttribute("data-side", "this_rebuts");
  await beliefPage.screenshot({ path: test.info().outputPath("desktop-light-3-winner-page.png"), fullPage: true });
  await expectAxeClean(beliefPage, "the winning belief's page (light)", { least: "moderate" });
  await beliefPage.goto(untickedHref ?? "");
  await expect(beliefPage.getByRole("heading", { level: 1 })).toContainText(UNTICKED);
  await expect(beliefPage.getByTestId("history")).toBeVisible();
  await expect(evidenceRows(beliefPage)).toHaveCount(0);

  // The graph panel of the paragraph's evidence offers the same correction for each relation it stored.
  const keptId = decodeURIComponent(keptHref?.split("/").at(-1) ?? "");
  const detail = await request.get(`/api/v1/scopes/${slug}/beliefs/${encodeURIComponent(keptId)}`, { headers: { authorization: `Bearer ${token}` } });
  const history = ((await detail.json()) as { belief: { history: { type: string; sourceId?: string | null }[] } }).belief.history;
  const evidenceId = history.filter((i) => i.type === "entry").at(-1)?.sourceId ?? "";
  await beliefPage.goto(`/scopes/${slug}/graph?nodeId=${encodeURIComponent(evidenceId)}&node=${encodeURIComponent(evidenceId)}`);
  const panel = beliefPage.getByTestId("graph-panel-relations");
  await expect(panel.getByRole("listitem").filter({ hasText: KEPT })).toContainText("rebuts");
  await expect(panel.getByRole("listitem").filter({ hasText: KEPT }).getByTestId("correct-relation")).toBeVisible();
  await expect(panel).not.toContainText(UNTICKED);
  await beliefPage.screenshot({ path: test.info().outputPath("desktop-light-4-graph-panel.png") });
  await beliefPage.close();

  // The editing controls on a phone, light and dark: the same paragraph read again, then discarded.
  await page.getByRole("button", { name: "Ingest more" }).click();
  await form.getByLabel("Text or model output").fill(PARAGRAPH);
  await form.getByRole("button", { name: "Dry run" }).click();
  await expect(page.getByTestId("ingest-outcome")).toHaveText("dry run");
  await page.getByTestId("keep-claim").first().uncheck();
  await noSidewaysScroll(page);
  await shot(page, "phone-light-1-dry-run-edited");
  await expectAxeClean(page, "ingest dry run on a phone (light)", { least: "moderate" });
  await page.emulateMedia({ colorScheme: "dark" });
  await shot(page, "phone-dark-1-dry-run-edited");
  await expectAxeClean(page, "ingest dry run on a phone (dark)", { least: "moderate" });
  await page.getByRole("button", { name: "Discard" }).click();
  await expect(page.getByTestId("ingest-result")).toHaveCount(0);
});
