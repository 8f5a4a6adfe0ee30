import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./", import.meta.url)) } },
  test: {
    include: ["lib/**/*.test.ts", "bin/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts"],
    globalSetup: ["./lib/testing/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Every suite must run: a skipped suite is a CI failure (see .ci/run).
    allowOnly: false,
  },
});
