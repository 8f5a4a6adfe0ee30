import { createHash, randomBytes } from "node:crypto";
import { z } from "zod";
import { fieldError, parseServiceInput } from "@/lib/errors/belief-service-error";
import { callerOf, userIdOf, type Actor, type IdentityDb } from "./identity-db";
import { cachedAccess } from "@/lib/access/access-cache";
import { requireScopeRole } from "@/lib/access/authorised-view";
import { idSchema, slugSchema, tokenNameSchema } from "./schemas";
import { getLogger } from "@/lib/ops/logger";

/** Secrets look like `cred_<43 base64url chars>` (256 random bits); the prefix shown in lists is the first 12 chars. */
export const TOKEN_PREFIX = "cred_";
const DISPLAY_PREFIX_LENGTH = 12;

export type TokenView = {
  id: string;
  userId: string;
  name: string;
  prefix: string;
  scopeId: string | null;
  scopeSlug: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
};

/** sha-256 hex: the secret has 256 random bits, so a fast hash is enough (no dictionary to slow down). */
export function hashToken(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

export function generateTokenSecret(): string {
  return TOKEN_PREFIX + randomBytes(32).toString("base64url");
}

const tokenSelect = {
  id: true,
  userId: true,
  name: true,
  prefix: true,
  scopeId: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
  scope: { select: { slug: true } },
} as const;

type TokenRow = Omit<TokenView, "scopeSlug"> & { scope: { slug: string } | null };

function toView({ scope, ...row }: TokenRow): TokenView {
  return { ...row, scopeSlug: scope?.slug ?? null };
}

const createTokenInput = z.object({ name: tokenNameSchema, scopeSlug: slugSchema.optional() });

/**
 * A token acting as `userId`, optionally limited to one scope the user is a member of. The secret is returned
 * here once and never stored.
 */
export async function createToken(
  db: IdentityDb,
  userId: string,
  input: unknown,
): Promise<TokenView & { token: string }> {
  const data = parseServiceInput(createTokenInput, input);
  const scope = data.scopeSlug === undefined ? null : (await requireScopeRole(db, callerOf(userId), data.scopeSlug, "viewer")).home;
  const token = generateTokenSecret();
  const row = await db.prisma.apiToken.create({
    data: {
      userId,
      scopeId: scope?.id ?? null,
      name: data.name,
      tokenHash: hashToken(token),
      prefix: token.slice(0, DISPLAY_PREFIX_LENGTH),
    },
    select: tokenSelect,
  });
  return { ...toView(row), token };
}

/** The user's tokens, newest first, revoked ones included (marked). */
export async function listTokens(db: IdentityDb, userId: string): Promise<TokenView[]> {
  const rows = await db.prisma.apiToken.findMany({ where: { userId }, select: tokenSelect, orderBy: { createdAt: "desc" } });
  return rows.map(toView);
}

/** The owner of a token (or the operator) revokes it; revoking twice is harmless. Another user's token is `not_found`. */
export async function revokeToken(db: IdentityDb, actor: Actor, tokenId: string): Promise<void> {
  const id = parseServiceInput(z.object({ tokenId: idSchema }), { tokenId }).tokenId;
  const userId = userIdOf(actor);
  const where = userId === null ? { id } : { id, userId };
  const token = await db.prisma.apiToken.findFirst({ where, select: { id: true, revokedAt: true } });
  if (!token) throw fieldError("not_found", "no such token", "tokenId");
  if (!token.revokedAt) await db.prisma.apiToken.update({ where: { id }, data: { revokedAt: new Date() } });
}

/** A token as a scope's owner sees it: whose it is, besides what its user sees. */
export type ScopeTokenView = TokenView & { userEmail: string; userName: string | null };

/**
 * The live tokens that can act in scope `scopeId`: not revoked, unrestricted or limited to this scope, and held by a
 * current member (a token acts as its user, so a non-member's token reaches nothing here beyond what a public scope
 * shows anyone, and is not the scope's to govern).
 */
function reachingScope(scopeId: string) {
  return { revokedAt: null, OR: [{ scopeId: null }, { scopeId }], user: { memberships: { some: { scopeId } } } };
}

const scopeTokenSelect = { ...tokenSelect, user: { select: { email: true, name: true } } } as const;

/**
 * Owner only: every live token of every member that can reach the scope (any other caller is refused as
 * `requireScopeRole` refuses: `not_found` when the scope is hidden from them, `forbidden` below owner). Newest first.
 */
export async function listScopeTokens(db: IdentityDb, actor: Actor, scopeSlug: string): Promise<ScopeTokenView[]> {
  const slug = parseServiceInput(z.object({ scopeSlug: slugSchema }), { scopeSlug }).scopeSlug;
  const { home } = await requireScopeRole(db, callerOf(actor), slug, "owner");
  const rows = await db.prisma.apiToken.findMany({ where: reachingScope(home.id), select: scopeTokenSelect, orderBy: { createdAt: "desc" } });
  return rows.map(({ user, ...row }) => ({ ...toView(row), userEmail: user.email, userName: user.name }));
}

/**
 * Owner only: revokes a live token that can reach the scope, whoever holds it. A token that cannot reach it (another
 * scope's, a non-member's, an unknown or already revoked one) is `not_found`, so the answer says nothing about tokens
 * outside the owner's scope. The revocation is logged with who did it.
 */
export async function revokeScopeToken(db: IdentityDb, actor: Actor, scopeSlug: string, tokenId: string): Promise<void> {
  const input = parseServiceInput(z.object({ scopeSlug: slugSchema, tokenId: idSchema }), { scopeSlug, tokenId });
  const { home } = await requireScopeRole(db, callerOf(actor), input.scopeSlug, "owner");
  const revoked = await db.prisma.apiToken.updateMany({ where: { id: input.tokenId, ...reachingScope(home.id) }, data: { revokedAt: new Date() } });
  if (revoked.count === 0) throw fieldError("not_found", "no such token in this scope", "tokenId");
  getLogger().info({ event: "token_revoked", tokenId: input.tokenId, scope: home.slug, by: userIdOf(actor) ?? "operator" }, "an owner revoked a token that could reach the scope");
}

export type TokenPrincipal = { tokenId: string; userId: string; scopeId: string | null; name: string };

/** A token's principal is read again at least this often, so its recorded use stays within about a minute. */
const TOKEN_KEPT_MS = 30_000;

/**
 * The identity behind a presented secret, or null for an unknown, malformed or revoked one. One statement: it checks
 * revocation and records the use (`lastUsedAt`, to the minute: a token used again within a minute of its recorded use
 * is not written again, so a busy agent's requests do not all write and lock its token row). Inside a request the
 * principal read by an earlier request is reused for up to TOKEN_KEPT_MS while the access counter has not moved (a
 * revocation moves it: lib/access/access-cache); an unknown or revoked secret is never kept.
 */
export async function authenticateToken(db: IdentityDb, secret: string, now: Date = new Date()): Promise<TokenPrincipal | null> {
  if (!secret.startsWith(TOKEN_PREFIX) || secret.length > 200) return null;
  const tokenHash = hashToken(secret);
  return cachedAccess(db, `token\u0000${tokenHash}`, () => readToken(db, tokenHash, now), { maxAgeMs: TOKEN_KEPT_MS, keep: (p) => p !== null, now: now.getTime() });
}

async function readToken(db: IdentityDb, tokenHash: string, now: Date): Promise<TokenPrincipal | null> {
  // `timestamp(3)` columns hold UTC wall time (Prisma's convention): the ISO text's zone is dropped by the cast.
  const at = now.toISOString();
  const rows = await db.prisma.$queryRaw<{ id: string; user_id: string; scope_id: string | null; name: string }[]>`
    WITH t AS (SELECT id, user_id, scope_id, name, last_used_at FROM api_tokens WHERE token_hash = ${tokenHash} AND revoked_at IS NULL),
    used AS (
      UPDATE api_tokens a SET last_used_at = ${at}::timestamp(3) FROM t
      WHERE a.id = t.id AND (t.last_used_at IS NULL OR t.last_used_at < ${at}::timestamp(3) - interval '1 minute'
                             OR t.last_used_at > ${at}::timestamp(3))
      RETURNING a.id
    )
    SELECT t.id, t.user_id, t.scope_id, t.name FROM t`;
  const row = rows[0];
  // Frozen: a kept principal is shared by later requests.
  return row ? Object.freeze({ tokenId: row.id, userId: row.user_id, scopeId: row.scope_id, name: row.name }) : null;
}
