// The 2025-11-25 wire adapter: `elicitation/create` sent with the originating request attached
// (relatedRequestId), so it rides that request's stream, never the standalone GET stream; an
// explicit timeout (a human needs longer than the SDK's 60 s default); and the request's abort
// signal. It uses the low-level request, not elicitInput, so the engine validates answers itself.
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ElicitResultSchema, ErrorCode, McpError, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import {
  WireAbortedError,
  WireDisconnectedError,
  WireRefusedError,
  WireTimeoutError,
  type FormAnswer,
  type WireAdapter,
} from "@/lib/elicitation/wire";

export function wire20251125(
  server: McpServer,
  origin: { requestId: RequestId; signal: AbortSignal; protocolVersion: string; clientGone?: AbortSignal },
): WireAdapter {
  const send = async (params: Record<string, unknown>, timeoutMs: number) => {
    try {
      return await server.server.request({ method: "elicitation/create", params: params as never }, ElicitResultSchema, {
        relatedRequestId: origin.requestId,
        // The client going away (its stream closed, its session ended or evicted) ends the wait at once.
        signal: origin.clientGone ? AbortSignal.any([origin.signal, origin.clientGone]) : origin.signal,
        timeout: timeoutMs,
        maxTotalTimeout: timeoutMs,
      });
    } catch (err) {
      // Checked first: closing a session also aborts the SDK's request signal.
      if (origin.clientGone?.aborted) throw new WireDisconnectedError("the client went away");
      if (origin.signal.aborted) throw new WireAbortedError("the originating request was cancelled");
      if (err instanceof McpError && err.code === ErrorCode.RequestTimeout) throw new WireTimeoutError("no answer within the timeout");
      if (err instanceof McpError) throw new WireRefusedError(err.code);
      throw err;
    }
  };
  return {
    // Answers arrive in the same call here; `options.step` only matters to a multi-round-trip wire.
    async askForm(params, options) {
      // `mode` arrived with 2025-11-25; an older client gets the params it knows (absent = form).
      const withMode = origin.protocolVersion >= "2025-11-25" ? { mode: "form" as const, ...params } : params;
      const result = await send(withMode, options.timeoutMs);
      return { action: result.action, content: result.content as FormAnswer["content"] };
    },
    async askUrl(params, options) {
      const result = await send({ mode: "url", ...params }, options.timeoutMs);
      return { action: result.action, droppedContent: result.content !== undefined && Object.keys(result.content).length > 0 };
    },
  };
}
