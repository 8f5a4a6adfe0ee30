import { handleApiError, type ApiErrorBody } from "@/lib/api/api-error";

export interface McpErrorAnswer {
  /** The HTTP status the REST API would answer with. */
  status: number;
  body: ApiErrorBody;
}

/**
 * The REST API's answer to an error, reused verbatim: `handleApiError` is the one place that maps our error classes,
 * zod errors and unknown failures (logged, answered as a generic `internal`) to a status, code and message.
 */
export async function mcpErrorAnswer(error: unknown): Promise<McpErrorAnswer> {
  const response = handleApiError(error);
  return { status: response.status, body: (await response.json()) as ApiErrorBody };
}

/** An MCP tool error (`isError: true`) carrying the REST error body as text (for the model) and as structured content. */
export function toolErrorFromAnswer({ status, body }: McpErrorAnswer) {
  const structured = { ...body, status };
  return {
    isError: true,
    content: [{ type: "text" as const, text: `${body.error.code}: ${body.error.message}\n${JSON.stringify(structured)}` }],
    structuredContent: structured,
  };
}

export async function toolErrorResult(error: unknown) {
  return toolErrorFromAnswer(await mcpErrorAnswer(error));
}
