import { z } from "zod";

const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === "" ? undefined : value.trim()));

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Set: a Postgres server. Unset: embedded PGlite in CREDENCE_DATA_DIR. */
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
  CREDENCE_DATA_DIR: optionalString.transform((value) => value ?? "./.data"),
  NEO4J_URI: optionalString,
  NEO4J_USER: optionalString,
  NEO4J_PASSWORD: optionalString,
  NEO4J_DATABASE: optionalString,
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalString.pipe(z.url().optional()),
  OPENAI_MODEL: optionalString,
  AUTH_SECRET: optionalString,
  NEXTAUTH_SECRET: optionalString,
  AUTH_OIDC_ISSUER: optionalString.pipe(z.url().optional()),
  AUTH_OIDC_ID: optionalString,
  AUTH_OIDC_SECRET: optionalString,
  PORT: optionalString.transform((port) => port ?? "3000").pipe(z.coerce.number<string>().int().min(1).max(65_535)),
});

export type Env = z.infer<typeof envSchema> & {
  /** AUTH_SECRET, falling back to NEXTAUTH_SECRET (next-auth v4 name). */
  authSecret: string | undefined;
  /** All three OIDC variables are set. */
  oidcEnabled: boolean;
};

/** Parses a given environment; throws one readable error naming every bad variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  const result = envSchema.safeParse(source);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const env = result.data;
  return {
    ...env,
    authSecret: env.AUTH_SECRET ?? env.NEXTAUTH_SECRET,
    oidcEnabled: Boolean(env.AUTH_OIDC_ISSUER && env.AUTH_OIDC_ID && env.AUTH_OIDC_SECRET),
  };
}

let cached: Env | undefined;

/** The process environment, parsed on first use (never at import time) and cached. */
export function getEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}
