import js from "@eslint/js";
import tseslint from "typescript-eslint";

/** The arrows point inward (docs/architecture.md): the engine imports nothing outside itself. */
const engineBoundary = {
  files: ["lib/engine/**/*.ts"],
  rules: {
    "no-restricted-imports": [
      "error",
      {
        patterns: [
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
  { ignores: ["node_modules/", ".next/", ".data*/", "lib/db/generated/", "tools/", "e2e/artifacts/", "next-env.d.ts", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  { files: ["**/*.mjs"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
  engineBoundary,
  engineTestingBoundary,
);
