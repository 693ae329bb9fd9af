// The MCP tests' name for the shared condition wait.
export { waitFor } from '../../support/waitFor';
