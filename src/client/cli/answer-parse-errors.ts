import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';

/**
 * JSON-RPC 2.0 §5.1 for the stdio server: a line that is not JSON is answered with a -32700
 * parse error, and JSON that is no JSON-RPC message with -32600 (id null: none can be read),
 * where the SDK's stdio transport only reports them to `onerror` and the client would wait
 * for an answer forever. Call after `connect`, which sets `onerror`.
 */
export function answerParseErrors(transport: Transport): void {
  const reported = transport.onerror;
  transport.onerror = (error) => {
    reported?.(error);
    const parse = error instanceof SyntaxError;
    const invalid = !parse && error.name === 'ZodError';
    if (!parse && !invalid) return;
    void transport
      .send({
        jsonrpc: '2.0',
        id: null,
        error: parse
          ? { code: ErrorCode.ParseError, message: 'Parse error: the line is not JSON' }
          : { code: ErrorCode.InvalidRequest, message: 'Invalid Request: not a JSON-RPC message' },
      } as never)
      .catch(() => {});
  };
}
