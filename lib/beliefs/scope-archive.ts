/**
 * The browser's backup files of a scope. The JSON file is the CLI's export text (`serializeScopeExport`). The zip holds
 * the same `scope.json` (all an import reads) plus the history of each belief as JSON lines, one file per belief
 * (`history/<belief id>.jsonl`, one history item per line in seq order) so a person can read or diff one belief's past
 * without the whole document, and a README saying so.
 */
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { serializeScopeExport, type ScopeExport } from "@/lib/graph/graph-store";
import { BeliefServiceError } from "@/lib/errors/belief-service-error";

export const SCOPE_FILE = "scope.json";
/** The largest backup file the browser import accepts, and the largest `scope.json` it unpacks from a zip. */
export const MAX_IMPORT_BYTES = 20 * 1024 * 1024;

function readme(data: ScopeExport): string {
  return [
    `Credence scope backup (${data.format} v${data.formatVersion}).`,
    "",
    `${SCOPE_FILE}: the whole scope (${data.beliefs.length} beliefs with their histories, ${data.evidence.length} evidence items, ${data.mutations.length} mutations, edges and topic freezes).`,
    "  This is the file an import reads; it is the same text as the JSON download and the CLI's `export`.",
    "history/<belief id>.jsonl: each belief's history, one item per line in order, for reading; an import ignores these.",
    "",
  ].join("\n");
}

/** The zip of a scope export; `mtime` stamps the entries (the export's moment, so equal exports give equal zips). */
export function scopeArchive(data: ScopeExport, mtime: Date): Uint8Array {
  const files: Record<string, Uint8Array> = {
    "README.txt": strToU8(readme(data)),
    [SCOPE_FILE]: strToU8(`${serializeScopeExport(data)}\n`),
  };
  for (const { belief, history } of data.beliefs) {
    files[`history/${belief.id}.jsonl`] = strToU8(history.map((item) => JSON.stringify(item)).join("\n") + (history.length > 0 ? "\n" : ""));
  }
  return zipSync(files, { level: 6, mtime });
}

function refused(message: string): BeliefServiceError {
  return new BeliefServiceError("invalid", message, { fields: [{ field: "file", message }] });
}

const isZip = (bytes: Uint8Array) => bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * The export document in an uploaded file: a zip's `scope.json`, or the file itself as JSON. Refuses, in words a person
 * can act on, an empty or oversized file, a zip without `scope.json` (or one whose `scope.json` unpacks too large), and
 * text that is not JSON. The document's shape is checked by the import itself.
 */
export function readScopeFile(bytes: Uint8Array): unknown {
  if (bytes.length === 0) throw refused("The file is empty. Choose a .json or .zip file downloaded from a scope's Settings.");
  if (bytes.length > MAX_IMPORT_BYTES) throw refused(`The file is too big: at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);
  let text: string;
  if (isZip(bytes)) {
    let entries: Record<string, Uint8Array>;
    let tooBig = false;
    try {
      entries = unzipSync(bytes, {
        filter: (file) => {
          if (file.name !== SCOPE_FILE) return false;
          if (file.originalSize > MAX_IMPORT_BYTES) tooBig = true;
          return !tooBig;
        },
      });
    } catch {
      throw refused("The zip file is damaged and cannot be opened.");
    }
    if (tooBig) throw refused(`The zip's ${SCOPE_FILE} is too big: at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB.`);
    const inner = entries[SCOPE_FILE];
    if (!inner) throw refused(`The zip holds no ${SCOPE_FILE}: it is not a scope backup from Credence.`);
    text = strFromU8(inner);
  } else {
    text = new TextDecoder("utf-8", { fatal: false }).decode(bytes);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw refused("The file is neither a zip nor JSON. Choose a .json or .zip file downloaded from a scope's Settings.");
  }
}
