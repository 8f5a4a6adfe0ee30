import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync } from "node:fs";
import { promisify } from "node:util";
import { expect, type Page } from "@playwright/test";
import { scriptCommand } from "../lib/ops/compiled-script";

const run = promisify(execFile);

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

/** A user with a unique email, so specs run in parallel without sharing state. */
export async function createUser(label: string): Promise<TestUser> {
  const id = randomUUID().slice(0, 8);
  const user = { email: `${label}-${id}@e2e.test`, password: `pw-${randomUUID()}`, name: `${label} ${id}` };
  await cli("user", "create", "--email", user.email, "--password", user.password, "--name", user.name);
  return user;
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
