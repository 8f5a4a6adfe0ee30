import { openApiDocument } from "@/lib/api/openapi";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain, dependency-free reference page generated from the OpenAPI document (no CDN: the app runs offline). */
export function GET(): Response {
  const doc = openApiDocument();
  const rows = Object.entries(doc.paths)
    .flatMap(([path, methods]) =>
      Object.entries(methods as Record<string, { summary: string; requestBody?: unknown }>).map(
        ([method, operation]) =>
          `<section><h2><code>${method.toUpperCase()} ${escape(path)}</code></h2><p>${escape(operation.summary)}</p>${
            operation.requestBody ? `<details><summary>Request body schema</summary><pre>${escape(JSON.stringify(operation.requestBody, null, 2))}</pre></details>` : ""
          }</section>`,
      ),
    )
    .join("\n");
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Credence API</title><meta name="viewport" content="width=device-width">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:900px;margin:2rem auto;padding:0 1rem;color-scheme:light dark}h2{font-size:1rem;margin:1.5rem 0 .25rem}pre{overflow:auto;background:#8881;padding:.5rem}</style></head>
<body><h1>${escape(doc.info.title)}</h1><p>${escape(doc.info.description)}</p><p><a href="/api/v1/openapi.json">OpenAPI 3.1 document</a></p>${rows}</body></html>`;
  return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
}
