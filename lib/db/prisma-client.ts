import { PrismaPg } from "@prisma/adapter-pg";
import type { Pool } from "pg";
import { PrismaClient } from "./generated/client";

/** Secrets never leave the database unless a query selects them explicitly (`omit: { passwordHash: false }`). */
const omitSecrets = {
  user: { passwordHash: true },
  apiToken: { tokenHash: true },
} as const;

/** Prisma on an existing pg pool (the Database owns and ends the pool, so the adapter must not). */
export function createPrismaClient(pool: Pool) {
  return new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: false }), omit: omitSecrets });
}

export type AppPrismaClient = ReturnType<typeof createPrismaClient>;

/** The client inside `prisma.$transaction(async (tx) => …)`. */
export type AppPrismaTransaction = Parameters<Parameters<AppPrismaClient["$transaction"]>[0]>[0];

/** Either the client or a transaction client: what identity services accept. */
export type PrismaExecutor = AppPrismaClient | AppPrismaTransaction;
