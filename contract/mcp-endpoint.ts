/**
 * @module What the server's `/mcp` route hands the MCP server for one message (types only), so
 * server/ and mcp/ share them without importing each other: the runtime wires mcp/'s endpoint in.
 */
import type { OperationId } from './operation-spec.ts'

/** Who sent an MCP message, as the route authenticated them. */
export interface McpCaller {
  /** The operations the caller's token may call, each offered as a tool (none without a token). */
  operations: ReadonlySet<OperationId>
  /** Sends one API request through the server's own gate with the caller's Authorization header. */
  send(path: string, init: RequestInit): Promise<Response>
  /** The server's origin as the caller reached it, for the URLs the tools report. */
  origin: string
}

export interface McpEndpoint {
  /** Answers one POST /mcp whose body, one JSON-RPC message, the route has already read and checked. */
  handle(request: Request, message: unknown, caller: McpCaller): Promise<Response>
}
