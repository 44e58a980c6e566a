import { describe, expect, it } from "vitest";
import { deployedTools as tools } from "#deploy/tool-functions";
import { scopes } from "#core/principal";
import type { ToolSpec } from "#runtime/handler";

/**
 * A tool's function takes its name and input schema from its own module, not from the registry, so that its
 * bundle builds only the schemas it uses. These tests hold each function to the registry entry that names it.
 */
describe("each tool's function serves its registry entry", () => {
  it.each(tools.map((t) => [t.name, t] as const))(
    "%s: the entry module's spec is the registry's name and the very same input schema",
    async (_name, tool) => {
      // The entry is a path from the repository root, known only at run time: import it by its file URL, which
      // Vite leaves alone (a template like `../../${entry}` makes it warn that it cannot analyse the import).
      const entry = new URL(`../../${tool.entry}`, import.meta.url).href;
      const module = (await import(entry)) as { spec?: ToolSpec; handler?: unknown };
      expect(typeof module.handler).toBe("function");
      expect(module.spec?.name).toBe(tool.name);
      expect(module.spec?.input).toBe(tool.input);
    },
  );

  it("a reading tool needs orders:read and a changing tool orders:write, as readTool and changeTool demand", () => {
    for (const tool of tools) expect([tool.name, tool.scope]).toEqual([tool.name, tool.kind === "read" ? scopes.read : scopes.write]);
  });
});
