import { cli, createScope, createUser, expect, signIn, snap, test, uniqueSlug } from "./fixtures";

test("signed-out visitors are sent to the sign-in page", async ({ page }) => {
  await page.goto("/");
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  await snap(page, "01-sign-in");
});

test("a wrong password gets a readable error", async ({ page }) => {
  const user = await createUser("wrongpw");
  await page.goto("/signin");
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill("not-the-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("form", { name: "Sign in" }).getByRole("alert")).toHaveText("That email and password do not match an account.");
  await snap(page, "02-sign-in-error");
});

test("owner creates a scope and adds a member; the member sees it; a non-member gets not found", async ({ browser }) => {
  const [owner, member, outsider] = await Promise.all([createUser("owner"), createUser("member"), createUser("outsider")]);
  const slug = uniqueSlug("platform");

  const ownerPage = await (await browser.newContext()).newPage();
  await signIn(ownerPage, owner);
  await expect(ownerPage.getByTestId("scopes-empty")).toBeVisible();
  await snap(ownerPage, "03-scopes-empty");

  const create = ownerPage.getByRole("form", { name: "Create a scope" });
  await create.getByLabel("Name").fill("Platform team");
  await create.getByLabel(/Slug/).fill("Not A Slug!");
  await create.getByRole("button", { name: "Create scope" }).click();
  await expect(create.getByRole("alert")).toContainText("Lowercase letters, digits and single dashes only.");
  await create.getByLabel(/Slug/).fill(slug);
  await create.getByRole("button", { name: "Create scope" }).click();
  await expect(ownerPage).toHaveURL(new RegExp(`/scopes/${slug}/settings$`));
  await expect(ownerPage.getByTestId("member-row")).toHaveCount(1);
  await snap(ownerPage, "04-settings-new-scope");

  const addMember = ownerPage.getByRole("form", { name: "Add a member" });
  await addMember.getByLabel(/Email/).fill("nobody-" + slug + "@e2e.test");
  await addMember.getByRole("button", { name: "Add member" }).click();
  await expect(addMember.getByRole("alert")).toContainText(/no user/i);
  await addMember.getByLabel(/Email/).fill(member.email);
  await addMember.getByLabel("Role").selectOption("editor");
  await addMember.getByRole("button", { name: "Add member" }).click();
  await expect(ownerPage.getByTestId("member-row")).toHaveCount(2);
  await expect(ownerPage.getByLabel(`Role of ${member.email}`)).toHaveValue("editor");

  // The last owner cannot be removed or demoted (the change asks first; confirmed, it is refused).
  await ownerPage.getByLabel(`Role of ${owner.email}`).selectOption("viewer");
  await ownerPage.getByTestId("member-confirm").getByRole("button", { name: "Change role" }).click();
  await expect(ownerPage.getByTestId("members").getByRole("alert")).toContainText(/last owner/i);
  await snap(ownerPage, "05-settings-members");

  const memberPage = await (await browser.newContext()).newPage();
  await signIn(memberPage, member);
  await expect(memberPage.getByRole("list", { name: "Scopes" })).toContainText("Platform team");
  await memberPage.getByRole("link", { name: "Platform team" }).click();
  await expect(memberPage.getByTestId("scope-title")).toHaveText("Platform team");
  await snap(memberPage, "06-member-scope");

  const outsiderPage = await (await browser.newContext()).newPage();
  await signIn(outsiderPage, outsider);
  const hidden = await outsiderPage.goto(`/scopes/${slug}`);
  await expect(outsiderPage.getByTestId("not-found")).toBeVisible();
  const hiddenBody = await outsiderPage.getByTestId("not-found").innerHTML();
  const missing = await outsiderPage.goto(`/scopes/${uniqueSlug("never-created")}`);
  await expect(outsiderPage.getByTestId("not-found")).toBeVisible();
  expect(await outsiderPage.getByTestId("not-found").innerHTML()).toBe(hiddenBody);
  expect(hidden?.status()).toBe(404);
  expect(missing?.status()).toBe(404);
  const hiddenSettings = await outsiderPage.goto(`/scopes/${slug}/settings`);
  expect(hiddenSettings?.status()).toBe(404);
  await snap(outsiderPage, "07-outsider-not-found");
});

test("an owner creates an API token that is shown once, and the CLI can mint one too", async ({ page }) => {
  const owner = await createUser("tokens");
  const slug = uniqueSlug("agents");
  await createScope(slug, "Agents", owner.email);
  await signIn(page, owner);
  await page.goto(`/scopes/${slug}/settings`);
  const form = page.getByRole("form", { name: "Create an API token" });
  await form.getByLabel("Token name").fill("research-agent");
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token")).toHaveText(/^cred_/);
  await expect(page.getByTestId("token-row")).toHaveCount(1);
  await snap(page, "08-token-created");
  await page.reload();
  await expect(page.getByTestId("new-token")).toHaveCount(0);
  await page.getByTestId("token-row").getByRole("button", { name: "Revoke" }).click();
  await page.getByTestId("token-row").getByRole("button", { name: "Yes, revoke" }).click();
  await expect(page.getByTestId("token-row")).toContainText("revoked");

  const token = await cli("token", "create", "--email", owner.email, "--name", "cli");
  expect(token).toMatch(/^cred_[A-Za-z0-9_-]+$/);
});
