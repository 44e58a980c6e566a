import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#local/stack";

/** `npm run soak`'s options: help, and bad options refused with exit 2 before anything starts. */

const run = promisify(execFile);
const tsx = join(repoRoot, "node_modules", ".bin", "tsx");
const soak = (...args: string[]) =>
  run(tsx, ["test/reliability/soak.ts", ...args], { cwd: repoRoot }).catch(
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe("npm run soak's options", () => {
  it("--help prints the usage with every part, and starts nothing", async () => {
    const result = await soak("--help");
    expect(result).toMatchObject({
      stdout: expect.stringContaining("run only these parts: authorization, model, races, fuzz, faults, load"),
    });
    expect("code" in result ? result.code : 0).toBe(0);
  });

  it.each([
    [["--only", "models,load"], 'There is no part "models"; the parts are authorization, model, races, fuzz, faults, load.'],
    [["--seed", "x"], '--seed takes a whole number, like the one a part printed, not "x".'],
    [["--sizes", "big"], "Unknown option '--sizes'"],
  ])("%j exits 2 saying what would be right", async (args, message) => {
    expect(await soak(...args)).toMatchObject({ code: 2, stderr: expect.stringContaining(message) });
  });
}, 60_000);
