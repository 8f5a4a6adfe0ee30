import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { addMember, createScope, createToken, createUser, expect, expectAxeClean, signIn, snap, test, uniqueSlug } from "./fixtures";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** Writes a small scope through the REST API as its owner's agent: two beliefs, one of them contested. */
async function writeBeliefs(request: APIRequestContext, slug: string, token: string): Promise<string[]> {
  const headers = { authorization: `Bearer ${token}` };
  const evidence = async (text: string) => {
    const res = await request.post(`/api/v1/scopes/${slug}/evidence`, { headers, data: { kind: "document", text, assess: false } });
    expect(res.status(), await res.text()).toBe(201);
    return ((await res.json()) as { evidence: { id: string } }).evidence.id;
  };
  const claims = ["Nightly backups of the billing database finish before 04:00 UTC.", "Restoring the billing database from a backup takes under an hour."];
  const [log, drill, slowDrill] = [
    await evidence("Backup job log for March: every nightly run of the billing database completed between 02:10 and 03:25 UTC."),
    await evidence("Restore drill notes: the billing database came back from Tuesday's backup in 41 minutes."),
    await evidence("Second restore drill: replaying the write-ahead log pushed the billing restore to 95 minutes."),
  ];
  for (const [claim, entries] of [
    [claims[0]!, [{ sourceId: log, relation: "SUPPORTS" }]],
    [claims[1]!, [{ sourceId: drill, relation: "SUPPORTS" }, { sourceId: slowDrill, relation: "REBUTS" }]],
  ] as const) {
    const res = await request.post(`/api/v1/scopes/${slug}/assimilate`, {
      headers,
      data: { claim, topic: "backups", match: "exact", evidence: entries.map((e) => ({ ...e, tier: "document" })) },
    });
    expect(res.ok(), await res.text()).toBe(true);
  }
  return claims;
}

/** The scope page's belief table, row by row as a reader sees it (text, status, credence, tension, topic), sorted. */
async function beliefRows(page: Page, slug: string): Promise<string[]> {
  await page.goto(`/scopes/${slug}`);
  await expect(page.getByTestId("belief-row").first()).toBeVisible();
  return (await page.getByTestId("belief-row").allInnerTexts()).sort();
}

async function noSidewaysScroll(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

test("an owner downloads a scope, restores it into a new scope, and revokes a member's token", async ({ browser, request }) => {
  const [owner, analyst] = await Promise.all([createUser("backup-owner"), createUser("backup-analyst")]);
  const slug = uniqueSlug("billing");
  await createScope(slug, "Billing ops", owner.email);
  await addMember(slug, analyst.email, "editor");
  const ownerAgent = await createToken(owner.email, "owner agent", slug);
  // The analyst's token is not limited to any scope: before, the owner could not see it at all.
  const analystToken = await createToken(analyst.email, "analyst laptop");
  const claims = await writeBeliefs(request, slug, ownerAgent);

  const context = await browser.newContext({ viewport: DESKTOP, colorScheme: "light", acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, owner);
  await page.goto(`/scopes/${slug}/settings`);
  await expect(page.getByTestId("backup")).toBeVisible();

  // ---- the JSON download is the export document, with both beliefs and their histories ----
  const [jsonDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-json").click()]);
  expect(jsonDownload.suggestedFilename()).toMatch(new RegExp(`^${slug}-\\d{4}-\\d\\d-\\d\\d-\\d\\d-\\d\\d\\.json$`));
  const jsonPath = await jsonDownload.path();
  const exported = JSON.parse(await readFile(jsonPath, "utf8")) as { format: string; beliefs: { belief: { id: string; text: string }; history: unknown[] }[] };
  expect(exported.format).toBe("credence.scope-export");
  expect(exported.beliefs.map((b) => b.belief.text).sort()).toEqual([...claims].sort());
  expect(exported.beliefs.find((b) => b.belief.text === claims[1])?.history).toHaveLength(2);

  // ---- the zip holds the same scope.json and one history file per belief ----
  const [zipDownload] = await Promise.all([page.waitForEvent("download"), page.getByTestId("export-zip").click()]);
  expect(zipDownload.suggestedFilename()).toMatch(/\.zip$/);
  const zipPath = await zipDownload.path();
  const files = unzipSync(new Uint8Array(await readFile(zipPath)));
  expect(JSON.parse(strFromU8(files["scope.json"]!))).toEqual(exported);
  for (const b of exported.beliefs) {
    const lines = strFromU8(files[`history/${b.belief.id}.jsonl`]!).trimEnd().split("\n");
    expect(lines).toHaveLength(b.history.length);
  }
  expect(Object.keys(files)).toContain("README.txt");

  // ---- a wrong file is refused, and creates nothing ----
  const form = page.getByRole("form", { name: "Import a backup" });
  const wrongSlug = uniqueSlug("never");
  await form.getByLabel("Backup file (.json or .zip)").setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("groceries: eggs, rice") });
  await form.getByLabel("New scope's name").fill("Never made");
  await form.getByLabel("New scope's slug").fill(wrongSlug);
  await form.getByRole("button", { name: "Import" }).click();
  await expect(form.getByRole("alert")).toContainText("neither a zip nor JSON");
  expect((await page.request.get(`/scopes/${wrongSlug}`)).status()).toBe(404);

  // ---- the zip restored into a new scope shows the same beliefs ----
  const copySlug = uniqueSlug("billing-copy");
  await form.getByLabel("Backup file (.json or .zip)").setInputFiles(zipPath);
  await form.getByLabel("New scope's name").fill("Billing ops (restored)");
  await form.getByLabel("New scope's slug").fill(copySlug);
  await form.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("import-done")).toContainText(`Imported 2 beliefs, 3 evidence items and 3 history items into ${copySlug}`);
  await snap(page, "owners-01-imported-desktop-light");

  // Importing into a scope that is no longer empty is refused in words, and writes nothing.
  await form.getByLabel("Backup file (.json or .zip)").setInputFiles(jsonPath);
  await form.getByLabel("an empty scope I own").check();
  await form.getByLabel("Scope to import into (it must be empty)").selectOption(copySlug);
  await form.getByRole("button", { name: "Import" }).click();
  await expect(page.getByTestId("import-error")).toContainText("is not empty");

  const original = await beliefRows(page, slug);
  const copy = await beliefRows(page, copySlug);
  expect(copy).toEqual(original);
  expect(copy).toHaveLength(2);
  for (const claim of claims) expect(copy.some((row) => row.startsWith(claim))).toBe(true);

  // ---- the owner sees the analyst's unrestricted token and revokes it; it then gets 401 over REST ----
  const probe = () => request.get(`/api/v1/scopes/${slug}/beliefs`, { headers: { authorization: `Bearer ${analystToken}` } });
  expect((await probe()).status()).toBe(200);
  await page.goto(`/scopes/${slug}/settings`);
  const rows = page.getByTestId("scope-token-row");
  await expect(rows).toHaveCount(2);
  const analystRow = rows.filter({ hasText: "analyst laptop" });
  await expect(analystRow.getByTestId("scope-token-holder")).toContainText(analyst.email);
  await expect(analystRow).toContainText("all their scopes");
  // Every date on the page is absolute UTC, with the relative time on hover.
  const created = analystRow.locator("time").first();
  await expect(created).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  await expect(created).toHaveAttribute("title", /ago|just now/);
  await snap(page, "owners-02-settings-desktop-light");
  await expectAxeClean(page, "settings desktop light");

  await analystRow.getByRole("button", { name: /Revoke/ }).click();
  const dialog = page.getByTestId("revoke-token-confirm");
  await expect(dialog).toContainText("stops working in every scope its holder belongs to");
  await snap(page, "owners-03-revoke-confirm-desktop-light");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  expect((await probe()).status()).toBe(200);
  await analystRow.getByRole("button", { name: /Revoke/ }).click();
  await dialog.getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByTestId("toast").first()).toContainText("Revoked “analyst laptop”");
  await expect(rows).toHaveCount(1);
  expect((await probe()).status()).toBe(401);

  // ---- dark scheme and the phone: same page, no sideways scroll, axe clean ----
  await page.emulateMedia({ colorScheme: "dark" });
  await snap(page, "owners-04-settings-desktop-dark");
  await expectAxeClean(page, "settings desktop dark");
  await page.setViewportSize(PHONE);
  await page.reload();
  await expect(page.getByTestId("scope-tokens")).toBeVisible();
  await noSidewaysScroll(page);
  await snap(page, "owners-05-settings-phone-dark");
  await expectAxeClean(page, "settings phone dark");
  await page.emulateMedia({ colorScheme: "light" });
  await snap(page, "owners-06-settings-phone-light");
  await expectAxeClean(page, "settings phone light");

  // ---- the analyst, not an owner, sees only their own tokens and no backup section ----
  const analystPage = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  await signIn(analystPage, analyst);
  await analystPage.goto(`/scopes/${slug}/settings`);
  await expect(analystPage.getByTestId("tokens")).toBeVisible();
  await expect(analystPage.getByTestId("scope-tokens")).toHaveCount(0);
  await expect(analystPage.getByTestId("backup")).toHaveCount(0);
  expect((await analystPage.request.get(`/scopes/${slug}/export?format=json`)).status()).toBe(403);
});
