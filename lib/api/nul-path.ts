/**
 * The dotted path of the first string or object key holding U+0000, else null. Postgres text cannot store it, so every
 * boundary (REST, MCP) refuses it as an invalid field before it reaches the services. Iterative: deep nesting cannot
 * overflow the stack.
 */
export function nulPath(root: unknown): string | null {
  const stack: [unknown, string][] = [[root, ""]];
  while (stack.length > 0) {
    const [value, path] = stack.pop() as [unknown, string];
    if (typeof value === "string") {
      if (value.includes("\u0000")) return path;
    } else if (Array.isArray(value)) {
      value.forEach((item, i) => stack.push([item, path ? `${path}.${i}` : String(i)]));
    } else if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes("\u0000")) return at;
        stack.push([item, at]);
      }
    }
  }
  return null;
}
