import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#local/stack";

/**
 * controller.ts composes a turn from its steps; the steps live in their own modules (the layer test's areas). Its
 * bound keeps it a composition a reader sees whole: logic that would grow it belongs in the module of its area.
 */
describe("the controller's composition", () => {
  it("controller/controller.ts stays within 500 lines", () => {
    const lines = readFileSync(join(repoRoot, "controller/controller.ts"), "utf8").split("\n").length - 1;
    expect(lines).toBeGreaterThan(100);
    expect(lines).toBeLessThanOrEqual(500);
  });
});
