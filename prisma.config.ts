import { defineConfig } from "prisma/config";

// Prisma 7 reads the URL here, not from the schema. Only `prisma generate` runs on this machine (migrations are
// plain SQL applied by lib/db/migrate.ts), so a placeholder URL is fine when DATABASE_URL is unset.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/credence" },
});
