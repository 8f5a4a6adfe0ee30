import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

/**
 * The layers and the boundaries between them (docs/architecture.md). Every rule below is one arrow that must not exist.
 * ESLint replaces (does not merge) a rule's options when two blocks match a file, so each block lists the test-support
 * rule together with its own patterns.
 */
const TEST_FILES = ["**/*.test.ts", "**/*.test.tsx", "**/*.spec.ts", "**/testing/**", "e2e/**"];
/** Benchmarks start the same throwaway servers the tests use. */
const BENCHMARKS = ["bench/**"];

/** Test support lives in `testing/` folders (one convention) and is for tests only. */
const testSupport = { group: ["**/testing", "**/testing/**"], message: "Test support is imported only by tests." };

const restrict = (...patterns) => ["error", { patterns: [testSupport, ...patterns] }];

/** Pages, route handlers and components call actions and services (and the REST/MCP boundaries), never the data layer. */
const uiBoundary = {
  files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
  ignores: TEST_FILES,
  rules: {
    "no-restricted-imports": restrict(
      { group: ["@/lib/db", "@/lib/db/*"], message: "app/ and components/ reach data through lib/actions and lib/beliefs, never lib/db." },
      { group: ["@/lib/graph/sql/*", "@/lib/graph/neo4j/*", "@/lib/graph/select-graph-store"], message: "Graph store adapters are wired by the composition root (lib/beliefs)." },
      { group: ["@/lib/identity/*", "!@/lib/identity/roles"], message: "Identity is reached through the services (lib/beliefs); roles are a shared vocabulary." },
      { group: ["@/lib/access/authorised-view", "@/lib/access/readable-scopes"], message: "Who may see what is decided inside the services." },
      { group: ["@/lib/assess/*", "@/lib/assess/**", "@/lib/reading/*", "@/lib/reading/**", "@/lib/embed/*"], message: "Assessors and embedders are adapters, wired by the composition root." },
    ),
  },
};

/** Adapters implement ports; they never import one another. */
const adapterBoundary = (files, forbidden, message) => ({
  files,
  ignores: [...TEST_FILES, ...BENCHMARKS],
  rules: { "no-restricted-imports": restrict({ group: forbidden, message }) },
});
const adapterBoundaries = [
  adapterBoundary(["lib/graph/sql/**/*.ts"], ["@/lib/graph/neo4j/*", "../neo4j/*", "@/lib/assess/**", "@/lib/embed/*"], "The SQL store imports no other adapter."),
  adapterBoundary(["lib/graph/neo4j/**/*.ts"], ["@/lib/graph/sql/*", "../sql/*", "@/lib/assess/**", "@/lib/embed/*"], "The Neo4j store imports no other adapter."),
  adapterBoundary(["lib/reading/**/*.ts"], ["@/lib/assess/openai/**", "@/lib/graph/**", "@/lib/embed/*", "@/lib/beliefs/**", "@/lib/api/**"], "The reader imports no other adapter and nothing above it."),
  adapterBoundary(["lib/assess/openai/**/*.ts"], ["@/lib/reading/**", "@/lib/graph/**", "@/lib/embed/*"], "The OpenAI assessor imports no other adapter."),
  adapterBoundary(["lib/embed/**/*.ts"], ["@/lib/graph/**", "@/lib/assess/**"], "Embedders import no other adapter."),
];

/** Everything else: test support stays out of production code. */
const productionCode = {
  files: ["**/*.{ts,tsx}"],
  ignores: [...TEST_FILES, ...BENCHMARKS],
  rules: { "no-restricted-imports": restrict() },
};

/** No import cycles anywhere (type-only imports included: a cycle of types is a cycle of concepts). */
const noCycles = {
  files: ["**/*.{ts,tsx}"],
  plugins: { "import-x": importX },
  settings: {
    "import-x/extensions": [".ts", ".tsx", ".mts", ".js", ".mjs"],
    "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts"] },
    "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
  },
  rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
};

/** The arrows point inward (docs/architecture.md): the engine imports nothing outside itself. */
const engineBoundary = {
  files: ["lib/engine/**/*.ts"],
  ignores: TEST_FILES,
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          testSupport,
          { group: ["@/*", "../*", "!./*"], message: "lib/engine is the pure core: import only from inside lib/engine." },
          { group: ["node:*", "fs", "path", "http", "https", "net", "child_process", "crypto"], message: "lib/engine does no I/O." },
          { group: ["pg", "@prisma/*", "neo4j-driver", "openai", "next", "next/*", "react", "@electric-sql/*"], message: "lib/engine depends on no adapter or framework." },
        ],
      },
    ],
    "no-restricted-globals": ["error", { name: "fetch", message: "lib/engine does no I/O." }],
    "no-restricted-properties": ["error", { object: "Date", property: "now", message: "Inject the clock." }, { object: "Math", property: "random", message: "Inject randomness." }],
  },
};

/** Engine test helpers (lib/engine/testing) may import the engine itself, one level up, and nothing else outside it. */
const engineTestingBoundary = {
  files: ["lib/engine/testing/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
          { group: ["@/*", "../../*"], message: "lib/engine/testing imports only from inside lib/engine." },
          { group: ["node:*", "fs", "path", "http", "https", "net", "child_process", "crypto"], message: "lib/engine does no I/O." },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".data*/", "lib/db/generated/", "tools/neo4j-test-server/", "tools/api-client/openapi-types.ts", "e2e/artifacts/", "next-env.d.ts", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  { files: ["**/*.mjs"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
  productionCode,
  uiBoundary,
  ...adapterBoundaries,
  engineBoundary,
  engineTestingBoundary,
  noCycles,
);
