// The MCP server: the context its tool list costs, and its start (measured by scripts/lib/bench-mcp.ts).
import { mcpRows } from '../bench-mcp.js';
import type { BenchSection } from './section.js';

export const mcp: BenchSection = {
  part: 'mcp',
  title: 'the MCP server',
  async run({ row }) {
    for (const entry of await mcpRows()) row(entry.measure, entry.figure, entry.anchor, entry.notes);
  },
};
