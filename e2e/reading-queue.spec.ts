import type { Page } from "@playwright/test";
import { makeEntry, paramsVersion, resolveParams, undecidedItem, type Belief, type DecidedRelation, type Evidence, type HistoryItem } from "../lib/engine";
import { derivedFields, replay, withEntryOutputs } from "../lib/engine/replay";
import type { ScopeExport } from "../lib/graph/graph-store";
import { addMember, createScope, createUser, expect, expectAxeClean, importScope, signIn, snap, test, type TestUser, uniqueSlug } from "./fixtures";

/**
 * A reviewer clears the "needs a reader" queue by keyboard alone: five undecided readings, seeded through the CLI's
 * import (not left to the text reader), decided with j/k and s/r/c/u, one decision undone with z and decided again.
 * Desktop and phone, light and dark. A viewer sees the queue is not theirs.
 */

/** Five beliefs, each with one supporting document and one document the reader could not place. */
const STORIES = [
  { claim: "The nightly export finishes before the Berlin office opens.", known: "Scheduler log: the export job ended at 05:40 on each of the last ten nights.", unsure: "Ops chat: the export overlapped with the morning stand-up twice this month.", guess: "REBUTS" },
  { claim: "Customer invoices are generated in the customer's own currency.", known: "Billing spec: invoice currency follows the account's billing country.", unsure: "Finance memo: the Swiss accounts were billed in euros until the spring migration.", guess: "SUPPORTS" },
  { claim: "Every production database has a replica in a second region.", known: "Infrastructure inventory lists a cross-region replica for each production cluster.", unsure: "The replica in the second region lags by up to four minutes at peak load.", guess: "CONTEXTUALIZES" },
  { claim: "The mobile app supports offline editing of drafts.", known: "Release notes 4.2: drafts can be edited without a connection and sync later.", unsure: "Support ticket: a draft edited on a plane vanished after the phone reconnected.", guess: "REBUTS" },
  { claim: "Password resets expire after thirty minutes.", known: "Auth config: reset tokens carry a lifetime of 1800 seconds.", unsure: "The security review asked for shorter reset lifetimes on admin accounts.", guess: "UNRELATED" },
] as const satisfies readonly { claim: string; known: string; unsure: string; guess: DecidedRelation }[];

/** A scope export with the five stories (ids start with the scope's slug: ids are unique across scopes); stored fields are the engine's replay of each history, as import expects. */
function readingScope(scope: string): ScopeExport {
  const params = resolveParams({});
  const t0 = Date.parse("2026-11-20T09:00:00.000Z");
  const at = (minutes: number) => new Date(t0 + minutes * 60_000).toISOString();
  const evidence: Evidence[] = [];
  const beliefs = STORIES.map((story, i) => {
    const known = `${scope}-known-${i}`;
    const unsure = `${scope}-unsure-${i}`;
    const created = at(i * 10);
    for (const [id, text] of [[known, story.known], [unsure, story.unsure]] as const) {
      evidence.push({ id, scope, kind: "document", text, uri: null, registeredBy: "e2e", ess: 0.8, reasoningType: "documentary", discarded: false, createdAt: created, retractedAt: null });
    }
    const changeSet = `cs-story-${i}`;
    const items: HistoryItem[] = [
      makeEntry({ seq: 1, sourceId: known, sourceKind: "evidence", relation: "SUPPORTS", tier: "document", weight: 0.7, ess: 0.8, time: created, actor: "e2e", changeSet }),
      {
        ...undecidedItem({ sourceId: unsure, sourceKind: "evidence", guess: story.guess, confidence: 0.4 + 0.05 * i, weight: 0.6, tier: "document", verified: true, effectiveTier: "document", ess: 0.8, reasoning: "the cue words point both ways", assessor: "e2e-reader", time: at(i * 10 + 1), actor: "e2e", changeSet }),
        seq: 2,
      } as HistoryItem,
    ];
    const state = replay(items, params);
    const history = withEntryOutputs(items, state);
    const belief: Belief = {
      id: `${scope}-b-${i}`, scope, topic: "operations", text: story.claim, key: story.claim.toLowerCase(), quantity: null, contextTags: [], validFrom: created, supersedesId: null,
      version: history.length, createdAt: created, updatedAt: history.at(-1)?.time ?? created, ...derivedFields(state), paramsVersion: paramsVersion(params),
    };
    return { belief, history };
  });
  return { format: "credence.scope-export", formatVersion: 1, scope, beliefs, evidence: evidence.sort((a, b) => (a.id < b.id ? -1 : 1)), mutations: [], edges: [], topicFreezes: [] };
}

/** A fresh scope holding the five stories, with a reviewer and a viewer besides its owner. */
async function seed(label: string): Promise<{ slug: string; reviewer: TestUser; viewer: TestUser }> {
  const [owner, reviewer, viewer] = await Promise.all([createUser(`${label}-owner`), createUser(`${label}-reviewer`), createUser(`${label}-viewer`)]);
  const slug = uniqueSlug(label);
  await createScope(slug, "Operations notes", owner.email);
  await addMember(slug, reviewer.email, "reviewer");
  await addMember(slug, viewer.email, "viewer");
  expect(await importScope(slug, JSON.stringify(readingScope(slug)))).toContain("5 beliefs");
  return { slug, reviewer, viewer };
}

const items = (page: Page) => page.getByTestId("queue-item");
/** The item the cursor is on. */
const current = (page: Page) => page.locator('[data-testid="queue-item"][aria-current="true"]');

/** Press a decision key on the item at the cursor and wait until the queue has `left` items and the decision is saved. */
async function press(page: Page, key: string, left: number, said: RegExp): Promise<void> {
  await page.keyboard.press(key);
  await expect(items(page)).toHaveCount(left);
  await expect(page.getByTestId("queue-status")).toHaveText(said);
}

async function beliefCredence(page: Page, slug: string, id: string): Promise<number> {
  await page.goto(`/scopes/${slug}/beliefs/${id}`);
  return Number(await page.getByTestId("belief-credence").textContent());
}

/** The preview a decision button gives for the item at the cursor ("0.62 → 0.48"): the credence after. */
async function previewAfter(page: Page, decision: string): Promise<number> {
  const text = (await current(page).locator(`[data-decision="${decision}"]`).getByTestId("queue-preview").textContent()) ?? "";
  return Number(text.split("→")[1]);
}

const RUNS = [
  { device: "desktop", context: { viewport: { width: 1440, height: 900 } } },
  { device: "phone", context: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
].flatMap((d) => (["light", "dark"] as const).map((scheme) => ({ ...d, scheme })));

for (const { device, context: options, scheme } of RUNS) {
  test(`${device}, ${scheme}: a reviewer clears five undecided readings by keyboard, undoing one and deciding it again`, async ({ browser }) => {
    const { slug, reviewer } = await seed(`queue-${device}-${scheme}`);
    const context = await browser.newContext({ ...options, colorScheme: scheme });
    const page = await context.newPage();
    await signIn(page, reviewer);
    const before = [await beliefCredence(page, slug, `${slug}-b-0`), await beliefCredence(page, slug, `${slug}-b-2`)];

    await page.goto(`/scopes/${slug}/readings`);
    await expect(page.getByRole("heading", { level: 1, name: "Needs a reader" })).toBeVisible();
    await expect(page.getByTestId("readings-count")).toHaveText("5");
    await expect(items(page)).toHaveCount(5);
    // Oldest first, each with its evidence, the reader's guess and how sure it was.
    for (const [i, story] of STORIES.entries()) {
      await expect(items(page).nth(i)).toContainText(story.claim);
      await expect(items(page).nth(i)).toContainText(story.unsure);
      await expect(items(page).nth(i).getByTestId("queue-guess")).toHaveText(`Reader's best guess: ${story.guess.toLowerCase()}, ${Math.round((0.4 + 0.05 * i) * 100)} % sure`);
    }
    await expect(current(page)).toContainText(STORIES[0].claim);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.viewport.width);
    await snap(page, `reading-queue-full-${device}-${scheme}`);
    await expectAxeClean(page, `reading queue, ${device}, ${scheme}`, { least: "moderate", allRules: true });

    // s decides the first as supporting; z undoes it and it comes back, at the end of the queue (reopened now).
    await press(page, "s", 4, /^Decided supports; credence now \d\.\d\d\. Press z to undo\.$/);
    await expect(current(page)).toContainText(STORIES[1].claim);
    await expect(page.getByTestId("queue-undo")).toHaveText("Undo last decision (1)");
    await press(page, "z", 5, /^Undone \(Supports: .+\); credence back to \d\.\d\d\.$/);
    await expect(items(page).last()).toContainText(STORIES[0].claim);
    await expect(page.getByTestId("queue-undo")).toHaveCount(0);

    // j four times reaches it again; r decides it as rebutting.
    for (let n = 0; n < 4; n++) await page.keyboard.press("j");
    await expect(current(page)).toContainText(STORIES[0].claim);
    await snap(page, `reading-queue-cursor-${device}-${scheme}`);
    // The preview is the reviewer's own: having moved this belief a moment ago, their next move counts for less.
    const rebutsTo = await previewAfter(page, "REBUTS");
    await press(page, "r", 4, /^Decided rebuts; credence now \d\.\d\d\./);

    // k back up to the top: unrelated, then supports, then j and context, then supports on the last one.
    for (let n = 0; n < 3; n++) await page.keyboard.press("k");
    await expect(current(page)).toContainText(STORIES[1].claim);
    await press(page, "u", 3, /^Decided unrelated;/);
    await expect(current(page)).toContainText(STORIES[2].claim);
    const supportsTo = await previewAfter(page, "SUPPORTS");
    await press(page, "s", 2, /^Decided supports;/);
    await expect(current(page)).toContainText(STORIES[3].claim);
    await page.keyboard.press("j");
    await expect(current(page)).toContainText(STORIES[4].claim);
    await press(page, "c", 1, /^Decided context;/);
    await expect(current(page)).toContainText(STORIES[3].claim);
    await press(page, "s", 0, /^Decided supports;/);

    // An empty queue says so, and the count above it agrees.
    await expect(page.getByTestId("queue-empty")).toHaveText("Nothing needs a reader: every reading is decided.");
    await expect(page.getByTestId("readings-count")).toHaveText("0");
    await expect(page.getByTestId("queue-undo")).toHaveText("Undo last decision (5)");
    await snap(page, `reading-queue-empty-${device}-${scheme}`);
    await expectAxeClean(page, `empty reading queue, ${device}, ${scheme}`, { least: "moderate", allRules: true });

    // The undone-then-rebutted belief: its history holds the decision, the undo and the second decision, and its
    // credence fell where the preview said it would.
    const rebutted = await beliefCredence(page, slug, `${slug}-b-0`);
    expect(rebutted).toBeLessThan(before[0]!);
    expect(Math.abs(rebutted - rebutsTo)).toBeLessThanOrEqual(0.01);
    const history = page.getByTestId("history");
    await expect(history).toContainText("#2 decided: supports (entry #4): decided in the reader queue");
    await expect(history).toContainText(/#6 decided: rebuts \(entry #8\): decided in the reader queue/);
    await expect(history.getByRole("row").filter({ hasText: STORIES[0].unsure }).getByTestId("history-relation").last()).toContainText(/rebut/i);
    await expect(page.getByTestId("undecided-readings")).toContainText("None.");
    await snap(page, `reading-queue-belief-rebutted-${device}-${scheme}`);
    // A belief decided as supported rose.
    const supported = await beliefCredence(page, slug, `${slug}-b-2`);
    expect(supported).toBeGreaterThan(before[1]!);
    expect(Math.abs(supported - supportsTo)).toBeLessThanOrEqual(0.01);
    await context.close();
  });
}

test("a viewer is told the queue is for editors, reviewers and owners, and sees no item", async ({ browser }) => {
  const { slug, viewer } = await seed("queue-viewer");
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await signIn(page, viewer);
  await page.goto(`/scopes/${slug}/readings`);
  await expect(page.getByTestId("readings-forbidden")).toHaveText("This queue is for this scope's editors, reviewers and owners.");
  await expect(items(page)).toHaveCount(0);
  for (const story of STORIES) await expect(page.getByText(story.unsure)).toHaveCount(0);
  // Keys do nothing for a viewer.
  await page.keyboard.press("s");
  await expect(page.getByTestId("queue-status")).toHaveCount(0);
  await snap(page, "reading-queue-viewer");
  await expectAxeClean(page, "reading queue, viewer", { least: "moderate", allRules: true });
  await context.close();
});
