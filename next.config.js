import process from "node:process";

/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // Native or WASM packages that must be required from node_modules, not bundled (STACK.md: PGlite under Next.js).
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@electric-sql/pglite-socket",
    "@electric-sql/pglite-pgvector",
    "pglite-prisma-adapter",
    "@node-rs/argon2",
    "pg",
    "pg-protocol",
    "neo4j-driver",
    "@huggingface/transformers",
    "onnxruntime-node",
  ],
  // `npm test` runs tsc over the whole repository once; the build does not repeat it.
  typescript: { ignoreBuildErrors: true },
  // CI builds in a fresh clone: the build cache Turbopack writes at the end (~1 min on the 2-core machine) is never read
  // there. Developers keep it, for quicker rebuilds.
  // A production server loads a route's modules when the route is first asked for, not every page and route at start
  // (Next.js's default): less CPU before it serves and less memory for routes a server never answers. Measured with
  // bin/serve.ts on Postgres, start to ready: 13 % less CPU, ~18 MiB less peak memory (BENCHMARKS.md, start-up).
  experimental: { turbopackFileSystemCacheForBuild: !process.env.CI, preloadEntriesOnStart: false },
};

export default nextConfig;
