import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

/**
 * The layers, bottom first (docs/architecture.md draws the same list). A file may import from its own layer and from
 * any layer below it, never from a layer above: `layerRule` below turns this list into one lint zone per pair of
 * layers, so the list is the only place the order is written. A new folder under lib/ (or a new top-level source
 * folder) takes its place here; lib/layers.test.ts fails until it has one. Tests, test support (`testing/`) and
 * e2e/ may reach any layer.
 */
export const LAYERS = [
  { name: "engine", paths: ["lib/engine"] },
  { name: "kernel", paths: ["lib/errors", "lib/ops", "lib/env.ts", "lib/redact-url.ts", "lib/process-singleton.ts"] },
  { name: "reading", paths: ["lib/reading"] },
  { name: "database", paths: ["lib/db"] },
  { name: "access", paths: ["lib/access"] },
  { name: "identity", paths: ["lib/identity"] },
  { name: "adapters", paths: ["lib/graph", "lib/embed", "lib/assess"] },
  { name: "retrieval", paths: ["lib/retrieval"] },
  { name: "application", paths: ["lib/beliefs"] },
  { name: "session", paths: ["lib/auth"] },
  { name: "http", paths: ["lib/api"] },
  { name: "interfaces", paths: ["lib/actions", "lib/mcp", "lib/jobs"] },
  { name: "components", paths: ["components"] },
  { name: "routes", paths: ["app", "proxy.ts"] },
  { name: "entry points and tools", paths: ["bin", "bench", "research", "tools"] },
];

/**
 * The boundaries between and inside the layers. Every rule below is one arrow that must not exist. ESLint replaces
 * (does not merge) a rule's options when two blocks match a file, so each block lists the test-support rule together
 * with its own patterns.
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
      { group: ["@/lib/identity/*"], message: "Identity is reached through the services (lib/beliefs)." },
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
  adapterBoundary(["lib/assess/openai/**/*.ts"], ["@/lib/reading/**", "@/lib/graph/**", "@/lib/embed/*"], "The OpenAI assessor imports no other adapter."),
  adapterBoundary(["lib/embed/**/*.ts"], ["@/lib/graph/**", "@/lib/assess/**"], "Embedders import no other adapter."),
];

/** Everything else: test support stays out of production code. */
const productionCode = {
  files: ["**/*.{ts,tsx}"],
  ignores: [...TEST_FILES, ...BENCHMARKS],
  rules: { "no-restricted-imports": restrict() },
};

const importSettings = {
  "import-x/extensions": [".ts", ".tsx", ".mts", ".js", ".mjs"],
  "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts"] },
  "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
};

/** No import cycles anywhere (type-only imports included: a cycle of types is a cycle of concepts). */
const noCycles = {
  files: ["**/*.{ts,tsx}"],
  plugins: { "import-x": importX },
  settings: importSettings,
  rules: { "import-x/no-cycle": ["error", { ignoreExternal: true }] },
};

/**
 * No upward import: for each layer, one zone per layer above it (so the message names both). Imports are resolved
 * (aliases, relative paths, `import type`, re-exports and dynamic `import()` alike) before they are compared.
 */
const layerZones = LAYERS.flatMap((lower, i) =>
  LAYERS.slice(i + 1).map((upper) => ({
    target: lower.paths,
    from: upper.paths,
    message: `The ${lower.name} layer (${lower.paths.join(", ")}) sits below the ${upper.name} layer and must not import it (LAYERS in eslint.config.mjs; docs/architecture.md).`,
  })),
);
const layerRule = {
  files: ["**/*.{ts,tsx,mts,mjs}"],
  ignores: TEST_FILES,
  plugins: { "import-x": importX },
  settings: importSettings,
  rules: { "import-x/no-restricted-paths": ["error", { basePath: import.meta.dirname, zones: layerZones }] },
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
  layerRule,
);
