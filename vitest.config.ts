import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * Two lanes, one run: `npm test` runs both (`vitest run`), `npm run test:unit` only the first, `npm run test:backend`
 * only the second.
 * - unit: the pure layers (engine, reader, retrieval, embedders, assessors, graph mapping, components). Its global setup
 *   starts nothing: no Postgres, no Neo4j.
 * - backend: everything that opens a store or starts a server (PGlite, the Postgres server, Neo4j, the built app), and
 *   any file named `*.pglite.test.ts`, `*.postgres.test.ts` or `*.neo4j.test.ts` wherever it sits.
 */
/** The tests of a folder (`dir/*`, or `dir/**` for its subfolders too) except those named for a backend. */
const pure = (dir: string) => `${dir}/!(*.pglite|*.postgres|*.neo4j).test.ts`;
const UNIT = [
  pure("lib"),
  pure("lib/engine/**"),
  pure("lib/reading/**"),
  pure("lib/retrieval/**"),
  pure("lib/embed/**"),
  pure("lib/assess/**"),
  pure("lib/graph"),
  pure("components/**"),
];
const ALL = ["lib/**/*.test.ts", "bin/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts"];

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every suite must run: a skipped suite is a CI failure (tools/ci/check-no-skips.mjs).
    allowOnly: false,
    projects: [
      { extends: true, test: { name: "unit", include: UNIT } },
      { extends: true, test: { name: "backend", include: ALL, exclude: [...configDefaults.exclude, ...UNIT], globalSetup: ["./lib/testing/global-setup.ts"] } },
    ],
  },
});
