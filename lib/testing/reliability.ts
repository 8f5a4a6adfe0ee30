/**
 * Shared parts of the failure suites that drive real server processes (multi-server, crash safety,
 * outages): fixtures made in-process on the shared database (fast, many tokens), HTTP calls that never throw, the
 * store's integrity after a crash, the operator's `replay check`, and the one summary line each family prints (its
 * figures go into docs/reliability.md).
 */
import os from "node:os";
import path from "node:path";
import type { Database } from "@/lib/db/database";
import type { SqlExecutor } from "@/lib/db/sql-executor";
import { runScript } from "@/lib/db/spawn-script";
import { addMember } from "@/lib/identity/members";
import { createScope } from "@/lib/identity/scopes";
import { createToken } from "@/lib/identity/tokens";
import { createUser } from "@/lib/identity/users";

export interface Fixtures {
  scope: string;
  /** Editor tokens of one member: each is its own rate-limit bucket. */
  editorTokens: string[];
  ownerToken: string;
}

/** An owner and an editor in a fresh scope, with `tokens` editor tokens. */
export async function makeFixtures(db: Database, suffix: string, tokens: number): Promise<Fixtures> {
  const owner = await createUser(db, { email: `owner-${suffix}@reliability.test`, name: "Owner" });
  const editor = await createUser(db, { email: `editor-${suffix}@reliability.test`, name: "Editor" });
  const scope = await createScope(db, { slug: `rel-${suffix}`, name: "Reliability", ownerId: owner.id });
  await addMember(db, owner.id, { scopeSlug: scope.slug, email: editor.email, role: "editor" });
  const editorTokens: string[] = [];
  for (let i = 0; i < tokens; i++) editorTokens.push((await createToken(db, editor.id, { name: `editor ${i}` })).token);
  return { scope: scope.slug, editorTokens, ownerToken: (await createToken(db, owner.id, { name: "owner" })).token };
}

export interface Answer {
  /** 0 when there was no HTTP answer (connection refused or reset: the server died). */
  status: number;
  headers: Headers | null;
  text: string;
  ms: number;
  json<T = Record<string, unknown>>(): T;
}

/** A JSON API call that never throws: a dead server is status 0. */
export async function callApi(
  baseUrl: string,
  method: string,
  apiPath: string,
  token: string | null,
  init: { body?: unknown; headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...(init.headers ?? {}) };
  if (token) headers.authorization = `Bearer ${token}`;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const started = performance.now();
  try {
    const response = await fetch(`${baseUrl}${apiPath}`, {
      method,
      headers,
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
      signal: AbortSignal.timeout(init.timeoutMs ?? 120_000),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, ms: performance.now() - started, json: <T>() => JSON.parse(text) as T };
  } catch (error) {
    const text = error instanceof Error ? `${error.message} ${String((error as { cause?: unknown }).cause ?? "")}` : String(error);
    // No answer, so no body to parse: asking for one is a test's mistake, named as such.
    const json = (): never => {
      throw new Error(`no JSON: the request got no answer (${text})`);
    };
    return { status: 0, headers: null, text, ms: performance.now() - started, json };
  }
}

/** The error code of a JSON error body, or `(not json)`. */
export function errorCode(answer: Answer): string {
  try {
    return (JSON.parse(answer.text) as { error: { code: string } }).error.code;
  } catch {
    return "(not json)";
  }
}

export interface Integrity {
  /** History rows whose change-set row is missing. */
  orphanHistory: number;
  /** Evidence entries citing an evidence item that is not there. */
  entriesWithoutEvidence: number;
  /** Beliefs without a single history row. */
  beliefsWithoutHistory: number;
}

/**
 * What a partial change-set would leave behind in the SQL store: history without its change-set row, an entry citing
 * evidence that is missing, a belief without history. Every one must be 0 (a change-set is one transaction).
 */
export async function sqlStoreIntegrity(sql: SqlExecutor): Promise<Integrity> {
  const count = async (query: string) => Number((await sql.query<{ n: string | number }>(query))[0]?.n ?? -1);
  return {
    orphanHistory: await count(`SELECT count(*) AS n FROM graph_history h WHERE NOT EXISTS (SELECT 1 FROM graph_change_sets c WHERE c.id = h.change_set)`),
    entriesWithoutEvidence: await count(
      `SELECT count(*) AS n FROM graph_history h WHERE h.type = 'entry' AND h.source_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM graph_evidence e WHERE e.id = h.source_id)`,
    ),
    beliefsWithoutHistory: await count(`SELECT count(*) AS n FROM graph_beliefs b WHERE NOT EXISTS (SELECT 1 FROM graph_history h WHERE h.belief_id = b.id)`),
  };
}

/** `npm run cli -- replay check --scope S` against the given environment: its exit code and output. */
export async function replayCheck(env: Record<string, string>, scope: string): Promise<{ code: number | null; out: string }> {
  const result = await runScript(path.join(process.cwd(), "bin", "cli.ts"), ["replay", "check", "--scope", scope], env);
  return { code: result.code, out: `${result.stdout}${result.stderr}`.trim() };
}

/** One line a family prints for docs/reliability.md, with the load it ran under. */
export function summaryLine(family: string, figures: Record<string, number | string>): string {
  const load = os.loadavg().map((l) => l.toFixed(2)).join(" ");
  const line = `reliability ${family}: ${Object.entries(figures).map(([k, v]) => `${k}=${v}`).join(" ")} (load ${load})`;
  console.log(line);
  return line;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a value (not undefined) or `timeoutMs` passes (then throws `what`). */
export async function until<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}
