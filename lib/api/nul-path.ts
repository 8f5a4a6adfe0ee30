/**
 * Text Postgres cannot store: U+0000 (text refuses it) and a lone UTF-16 surrogate such as "\ud800" (valid in a JSON
 * string, but not Unicode: jsonb refuses it at write time, which would surface as a 500). Every boundary (REST, MCP)
 * refuses both as an invalid field before they reach the services. Iterative: deep nesting cannot overflow the stack.
 */

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units, no `u` flag). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Why `text` cannot be stored, or null. */
export function textProblem(text: string): string | null {
  if (text.includes("\u0000")) return "must not contain the NUL character";
  if (LONE_SURROGATE.test(text)) return "must not contain a lone UTF-16 surrogate (not valid Unicode)";
  return null;
}

/** The first string or object key (dotted path, "" for the root) that cannot be stored, and why; else null. */
export function unstorableText(root: unknown): { field: string; message: string } | null {
  const stack: [unknown, string][] = [[root, ""]];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === "string") {
      const message = textProblem(value);
      if (message !== null) return { field: path, message };
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, path ? `${path}.${i}` : String(i)]));
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        const message = textProblem(key);
        if (message !== null) return { field: at, message };
        stack.push([item, at]);
      }
    }
  }
  return null;
}

/** The dotted path of the first string or key that cannot be stored (see `unstorableText`), else null. */
export function nulPath(root: unknown): string | null {
  return unstorableText(root)?.field ?? null;
}
