import { execFile, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { promisify } from "node:util";
import AxeBuilder from "@axe-core/playwright";
import { test as base, expect, type Page } from "@playwright/test";
import { scriptCommand } from "../lib/ops/compiled-script";
import { asOperator } from "../lib/testing/app-server";

const run = promisify(execFile);

/**
 * Playwright's `test`, closing after each test the browser contexts it opened itself (`browser.newContext()`). The
 * browser lives as long as the worker, so such a context would otherwise stay open through every later test, its
 * pages still drawing: an open graph page keeps a tenth of a core busy.
 */
export const test = base.extend<{ closeOwnContexts: void }>({
  closeOwnContexts: [
    async ({ browser }, use) => {
      const before = new Set(browser.contexts());
      await use();
      await Promise.all(browser.contexts().filter((c) => !before.has(c)).map((c) => c.close()));
    },
    { auto: true },
  ],
});
export { expect };

/**
 * The operator CLI against the running server's embedded data folder (it connects through the server's socket), a
 * process of its own each time, compiled once (lib/ops/compiled-script.ts) rather than started through npx and tsx.
 */
export async function cli(...args: string[]): Promise<string> {
  const { command, args: argv } = scriptCommand("bin/cli.ts", args);
  const { stdout } = await run(command, argv, {
    env: { ...process.env, CREDENCE_DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: "" },
  });
  return stdout.trim();
}

export interface TestUser {
  email: string;
  password: string;
  name: string;
}

/**
 * A user with a unique email, so specs run in parallel without sharing state. Made as `cli user create` makes it (the
 * identity services as the operator, on a connection through the running server's socket: lib/testing/app-server.ts's
 * `asOperator`) but in this process: a CLI process costs about 1.5 CPU seconds, and the journeys make dozens of users.
 * The CLI's own path, arguments to printed line, is covered end to end by bin/cli.test.ts and by the specs' `cli` calls.
 */
export async function createUser(label: string): Promise<TestUser> {
  const id = randomUUID().slice(0, 8);
  const user = { email: `${label}-${id}@e2e.test`, password: `pw-${randomUUID()}`, name: `${label} ${id}` };
  await asE2eOperator((services, operator) => services.createUser(operator, user));
  return user;
}

/** The identity services as the operator, on a connection through the running server's socket (see `createUser`). */
function asE2eOperator<T>(work: Parameters<typeof asOperator<T>>[1]): Promise<T> {
  return asOperator({ CREDENCE_DATA_DIR: process.env.E2E_DATA_DIR ?? "", DATABASE_URL: "" }, work);
}

/** A scope with its first owner, as `cli scope create --slug --name --owner [--public]` makes it, in this process. */
export async function createScope(slug: string, name: string, ownerEmail: string, options: { isPublic?: boolean } = {}): Promise<void> {
  await asE2eOperator((services, operator) => services.createScope(operator, { slug, name, ownerEmail, isPublic: options.isPublic === true }));
}

/** A member of a scope, as `cli member add --scope --email --role` adds one, in this process. */
export async function addMember(slug: string, email: string, role: "owner" | "reviewer" | "editor" | "viewer"): Promise<void> {
  await asE2eOperator((services, operator) => services.addMember(operator, slug, { email, role }));
}

/** An API token for a user (limited to one scope when named), as `cli token create` mints one, in this process. */
export async function createToken(email: string, name: string, scope?: string): Promise<string> {
  return (await asE2eOperator((services, operator) => services.createToken(operator, { email, name, scopeSlug: scope }))).token;
}

export function uniqueSlug(label: string): string {
  return `${label}-${randomUUID().slice(0, 6)}`;
}

export async function signIn(page: Page, user: TestUser): Promise<void> {
  await page.goto("/signin");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("signed-in-user")).toContainText(user.email);
}

/** Screenshots land in e2e/artifacts/ (git-ignored) so a person can look at every page a journey visits. */
export async function snap(page: Page, name: string): Promise<void> {
  mkdirSync("e2e/artifacts", { recursive: true });
  await page.screenshot({ path: `e2e/artifacts/${name}.png`, fullPage: true });
}

const IMPACT_RANK = { minor: 0, moderate: 1, serious: 2, critical: 3 } as const;

/**
 * No axe finding at or above `least` on the page as it is now. With `allRules`, axe's best-practice rules (heading
 * order, landmarks) run beside the WCAG 2.x A and AA ones.
 */
export async function expectAxeClean(page: Page, name: string, { least = "serious", allRules = false }: { least?: keyof typeof IMPACT_RANK; allRules?: boolean } = {}): Promise<void> {
  const builder = new AxeBuilder({ page });
  const result = await (allRules ? builder : builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])).analyze();
  const bad = result.violations.filter((v) => IMPACT_RANK[v.impact ?? "minor"] >= IMPACT_RANK[least]);
  expect(bad.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(" | ")}`)).toEqual([]);
}

/** The CLI's `import --scope SLUG` with the export JSON on its stdin; resolves with what it printed on stderr. */
export async function importScope(slug: string, json: string): Promise<string> {
  const { command, args } = scriptCommand("bin/cli.ts", ["import", "--scope", slug]);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: { ...process.env, CREDENCE_DATA_DIR: process.env.E2E_DATA_DIR, DATABASE_URL: "" } });
    let err = "";
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(err.trim()) : reject(new Error(`import exited ${code}: ${err}`))));
    child.stdin.end(json);
  });
}
