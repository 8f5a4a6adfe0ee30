import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * next-auth needs a secret to sign sessions. In production set AUTH_SECRET; on the embedded default we keep one in the
 * data folder so sessions survive restarts and a newcomer has nothing to configure.
 */
export function ensureAuthSecret(env: { AUTH_SECRET?: string; NEXTAUTH_SECRET?: string; DATABASE_URL?: string; CREDENCE_DATA_DIR: string }): void {
  const configured = env.AUTH_SECRET ?? env.NEXTAUTH_SECRET;
  if (configured) {
    process.env.AUTH_SECRET = configured;
    return;
  }
  if (env.DATABASE_URL && process.env.NODE_ENV === "production") {
    throw new Error("AUTH_SECRET is not set: a server deployment needs a fixed secret (openssl rand -base64 32)");
  }
  const file = join(env.CREDENCE_DATA_DIR, "auth-secret");
  if (!existsSync(file)) {
    mkdirSync(env.CREDENCE_DATA_DIR, { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  process.env.AUTH_SECRET = readFileSync(file, "utf8").trim();
}
