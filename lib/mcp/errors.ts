// The MCP registry's own error: a not-found that reads as one sentence naming
// the server, the same from the admin page, the designer and the routes.
import { AppError } from "../errors";

export class McpServerNotFound extends AppError {
  constructor(name: string) {
    super("not_found", 404, `There is no MCP server named "${name}"`);
    this.name = "McpServerNotFound";
  }
}
