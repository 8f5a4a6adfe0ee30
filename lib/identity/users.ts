import { hash, verify } from "@node-rs/argon2";
import { z } from "zod";
import { isUniqueViolation } from "./errors";
import { fieldError, parseServiceInput } from "@/lib/errors/belief-service-error";
import type { IdentityDb } from "./identity-db";
import { emailSchema, passwordSchema, userNameSchema } from "./schemas";

export type PublicUser = { id: string; email: string; name: string | null; createdAt: Date };

const publicUserSelect = { id: true, email: true, name: true, createdAt: true } as const;

/** argon2id with the library's defaults (m = 19 MiB, t = 2, p = 1, OWASP's minimum). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password and for a malformed stored hash alike. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

const createUserInput = z.object({
  email: emailSchema,
  password: passwordSchema.optional(),
  name: userNameSchema.optional(),
});

/** A user with an email (stored lowercased) and, for credentials sign-in, a password. */
export async function createUser(db: IdentityDb, input: unknown): Promise<PublicUser> {
  const data = parseServiceInput(createUserInput, input);
  const passwordHash = data.password === undefined ? null : await hashPassword(data.password);
  try {
    return await db.prisma.user.create({
      data: { email: data.email, name: data.name ?? null, passwordHash },
      select: publicUserSelect,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError("conflict", `a user with email ${data.email} already exists`, "email");
    throw error;
  }
}

// Verifying against a fixed hash when the email is unknown keeps both answers equally slow.
let decoyHash: Promise<string> | undefined;

/** The user when the email and password match, otherwise null (unknown email, no password set, wrong password). */
export async function verifyCredentials(db: IdentityDb, email: string, password: string): Promise<PublicUser | null> {
  const parsed = emailSchema.safeParse(email);
  const user = parsed.success
    ? await db.prisma.user.findUnique({
        where: { email: parsed.data },
        select: { ...publicUserSelect, passwordHash: true },
      })
    : null;
  if (!user?.passwordHash) {
    decoyHash ??= hashPassword("credence-decoy-password");
    await verifyPassword(await decoyHash, password);
    return null;
  }
  if (!(await verifyPassword(user.passwordHash, password))) return null;
  return { id: user.id, email: user.email, name: user.name, createdAt: user.createdAt };
}

/** Finds or creates the user for an email (OIDC sign-in); an existing user's name is left as it is. */
export async function ensureUserForEmail(db: IdentityDb, email: string, name?: string): Promise<PublicUser> {
  const data = parseServiceInput(createUserInput.pick({ email: true, name: true }), { email, name: name?.trim() || undefined });
  return db.prisma.user.upsert({
    where: { email: data.email },
    update: {},
    create: { email: data.email, name: data.name ?? null },
    select: publicUserSelect,
  });
}

export async function findUserByEmail(db: IdentityDb, email: string): Promise<PublicUser | null> {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) return null;
  return db.prisma.user.findUnique({ where: { email: parsed.data }, select: publicUserSelect });
}

/** Like findUserByEmail, but a missing user is a `not_found` error naming the email. */
export async function requireUserByEmail(db: IdentityDb, email: string, field = "email"): Promise<PublicUser> {
  const normalised = parseServiceInput(z.object({ [field]: emailSchema }), { [field]: email })[field] as string;
  const user = await findUserByEmail(db, normalised);
  if (!user) throw fieldError("not_found", `no user with email ${normalised}`, field);
  return user;
}

/** Emails by user id, for the ids that exist. */
export async function userEmails(db: IdentityDb, ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.prisma.user.findMany({ where: { id: { in: [...ids] } }, select: { id: true, email: true } });
  return new Map(rows.map((u) => [u.id, u.email]));
}

export async function listUsers(db: IdentityDb): Promise<PublicUser[]> {
  return db.prisma.user.findMany({ select: publicUserSelect, orderBy: { email: "asc" } });
}

/** Sets (or replaces) a user's password. */
export async function setPassword(db: IdentityDb, email: string, password: string): Promise<void> {
  const user = await requireUserByEmail(db, email);
  const parsed = parseServiceInput(z.object({ password: passwordSchema }), { password });
  await db.prisma.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(parsed.password) } });
}
