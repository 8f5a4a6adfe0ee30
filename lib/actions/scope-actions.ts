"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { authedAction, type ActionResult } from "./safe-action";
import { roleSchema } from "@/lib/identity/schemas";

const slug = z
  .string()
  .trim()
  .toLowerCase()
  .min(2, "At least 2 characters.")
  .max(48, "At most 48 characters.")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Lowercase letters, digits and single dashes only.");
const email = z.string().trim().toLowerCase().email("Enter a valid email address.");
const role = roleSchema;

const createScopeInput = z.object({ slug, name: z.string().trim().min(1, "Give the scope a name.").max(120) });
const create = authedAction(createScopeInput, async (input, { services, caller }) => {
  const scope = await services.createScope(caller, { slug: input.slug, name: input.name });
  revalidatePath("/", "layout");
  return { slug: scope.slug };
});
export async function createScopeAction(_p: unknown, formData: FormData): Promise<ActionResult<{ slug: string }>> {
  return create(formData);
}

const memberInput = z.object({ scope: slug, email, role });
const add = authedAction(memberInput, async (input, { services, caller }) => {
  await services.addMember(caller, input.scope, { email: input.email, role: input.role });
  revalidatePath(`/scopes/${input.scope}/settings`);
  return null;
});
export async function addMemberAction(_p: unknown, formData: FormData): Promise<ActionResult<null>> {
  return add(formData);
}

const roleInput = z.object({ scope: slug, userId: z.string().min(1), role });
const change = authedAction(roleInput, async (input, { services, caller }) => {
  await services.changeRole(caller, input.scope, { userId: input.userId, role: input.role });
  revalidatePath(`/scopes/${input.scope}/settings`);
  return null;
});
export async function changeRoleAction(input: z.input<typeof roleInput>): Promise<ActionResult<null>> {
  return change(input);
}

const removeInput = z.object({ scope: slug, userId: z.string().min(1) });
const remove = authedAction(removeInput, async (input, { services, caller }) => {
  await services.removeMember(caller, input.scope, { userId: input.userId });
  revalidatePath(`/scopes/${input.scope}/settings`);
  return null;
});
export async function removeMemberAction(input: z.input<typeof removeInput>): Promise<ActionResult<null>> {
  return remove(input);
}

const publicInput = z.object({ scope: slug, isPublic: z.boolean() });
const togglePublic = authedAction(publicInput, async (input, { services, caller }) => {
  await services.setScopePublic(caller, input.scope, { isPublic: input.isPublic });
  revalidatePath(`/scopes/${input.scope}/settings`);
  return null;
});
export async function setPublicAction(input: z.input<typeof publicInput>): Promise<ActionResult<null>> {
  return togglePublic(input);
}

const grantInput = z.object({ scope: slug, toSlug: slug });
const grant = authedAction(grantInput, async (input, { services, caller }) => {
  await services.addGrant(caller, input.scope, { toSlug: input.toSlug });
  revalidatePath(`/scopes/${input.scope}/settings`);
  return null;
});
export async function addGrantAction(_p: unknown, formData: FormData): Promise<ActionResult<null>> {
  return grant(formData);
}
const ungrant = authedAction(grantInput, async (input, { services, caller }) => {
  await services.removeGrant(caller, input.scope, { toSlug: input.toSlug });
  revalidatePath(`/scopes/${input.scope}/settings`);
  return null;
});
export async function removeGrantAction(input: z.input<typeof grantInput>): Promise<ActionResult<null>> {
  return ungrant(input);
}

const tokenInput = z.object({
  scope: slug,
  name: z.string().trim().min(1, "Name the token after the agent that will use it.").max(80),
  limitToScope: z.preprocess((v) => v === "on" || v === true, z.boolean()),
});
const mint = authedAction(tokenInput, async (input, { services, caller }) => {
  const created = await services.createToken(caller, { name: input.name, scopeSlug: input.limitToScope ? input.scope : undefined });
  revalidatePath(`/scopes/${input.scope}/settings`);
  return { token: created.token };
});
export async function createTokenAction(_p: unknown, formData: FormData): Promise<ActionResult<{ token: string }>> {
  return mint(formData);
}

const revokeInput = z.object({ scope: slug, tokenId: z.string().min(1) });
const revoke = authedAction(revokeInput, async (input, { services, caller }) => {
  await services.revokeToken(caller, { tokenId: input.tokenId });
  revalidatePath(`/scopes/${input.scope}/settings`);
  return null;
});
export async function revokeTokenAction(input: z.input<typeof revokeInput>): Promise<ActionResult<null>> {
  return revoke(input);
}

/** An owner revokes any live token that can reach the scope (the service checks the role and the token's reach). */
const revokeInScope = authedAction(revokeInput, async (input, { services, caller }) => {
  await services.revokeScopeToken(caller, input.scope, { tokenId: input.tokenId });
  revalidatePath(`/scopes/${input.scope}/settings`);
  return null;
});
export async function revokeScopeTokenAction(input: z.input<typeof revokeInput>): Promise<ActionResult<null>> {
  return revokeInScope(input);
}
