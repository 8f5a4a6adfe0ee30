/**
 * Writes embed: every change-set the services apply carries the sentence vectors of the beliefs it creates and the
 * evidence texts it registers, computed before the transaction and stored in it (`ApplyOptions.embeddings`), so a
 * belief is never searchable by words but not by meaning.
 *
 * Only new nodes are embedded: a belief's text does not change after creation (updates restate its numbers). An
 * embedder that fails does not block the write: the change-set is applied without the vectors, one line is logged,
 * and `npm run cli -- embeddings rebuild` (or the next write's rebuild) fills them in; retrieval embeds the text of a
 * belief that has no stored vector meanwhile.
 */
import { EmbeddingError, modelKey, type ChangeSet, type EmbeddingModel } from "@/lib/engine";
import { embeddingTextHash, type NodeEmbedding } from "@/lib/graph/embeddings";
import type { ApplyOptions, GraphStore } from "@/lib/graph/graph-store";

/** What embeds texts for the store: the services' cached matcher, or an Embedder itself. */
export interface TextVectors {
  readonly model: EmbeddingModel;
  vectors(texts: readonly string[]): Promise<Float32Array[]>;
}

/** The nodes of `changeSet` that need a vector: new beliefs and registered (not placeholder) evidence. */
export function nodesToEmbed(changeSet: ChangeSet): { id: string; kind: "belief" | "evidence"; text: string }[] {
  return [
    ...changeSet.beliefs.filter((u) => u.expectedVersion === null).map((u) => ({ id: u.belief.id, kind: "belief" as const, text: u.belief.text })),
    ...changeSet.evidence.filter((e) => e.kind !== "unresolved").map((e) => ({ id: e.id, kind: "evidence" as const, text: e.text })),
  ];
}

export async function embeddingsFor(changeSet: ChangeSet, vectors: TextVectors): Promise<NodeEmbedding[]> {
  const nodes = nodesToEmbed(changeSet);
  if (nodes.length === 0) return [];
  const computed = await vectors.vectors(nodes.map((n) => n.text));
  const model = modelKey(vectors.model);
  return nodes.flatMap((node, i) => {
    const vector = computed[i];
    return vector ? [{ id: node.id, kind: node.kind, vector, model, textHash: embeddingTextHash(node.text) }] : [];
  });
}

/**
 * `store` whose `apply` adds the change-set's vectors (every other method untouched). `log` receives one line per
 * failed embedding (default console.warn).
 */
export function withVectorsOnApply(store: GraphStore, vectors: TextVectors, log: (line: string) => void = (line) => console.warn(line)): GraphStore {
  const apply = async (changeSet: ChangeSet, options: ApplyOptions = {}) => {
    let embeddings: NodeEmbedding[] = [];
    try {
      embeddings = await embeddingsFor(changeSet, vectors);
    } catch (error) {
      if (!(error instanceof EmbeddingError)) throw error;
      log(`credence: change-set ${changeSet.id} written without vectors (${error.message}); run \`npm run cli -- embeddings rebuild\``);
    }
    return store.apply(changeSet, { ...options, embeddings: [...(options.embeddings ?? []), ...embeddings] });
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === "apply") return apply;
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
