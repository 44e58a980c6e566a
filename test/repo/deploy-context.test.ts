import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "#local/stack";

/**
 * docs/deploy.md does not copy the context values: it names each key and points to `OrderToolsConfig` in
 * lib/config.ts, where each is read and its field's comment says its default and effect. This holds the two to each
 * other: every key the config reads is named in the guide, and is a field of the interface or named in its comments.
 */
const config = readFileSync(join(repoRoot, "lib", "config.ts"), "utf8");
const guide = readFileSync(join(repoRoot, "docs", "deploy.md"), "utf8");
const keys = [...new Set([...config.matchAll(/\(node, "([A-Za-z]+)"/g)].map((m) => m[1] as string))];
const face = config.slice(
  config.indexOf("export interface OrderToolsConfig"),
  config.indexOf("\n}\n", config.indexOf("export interface OrderToolsConfig")),
);

describe("the deployment's context keys", () => {
  it("reads the keys from lib/config.ts (a reader that found none would check nothing)", () => {
    expect(keys.length).toBeGreaterThan(25);
    expect(keys).toContain("throttleRateLimit");
  });

  it("every key the config reads is named in docs/deploy.md", () => {
    expect(keys.filter((key) => !guide.includes(`\`${key}\``))).toEqual([]);
  });

  it("every key is a field of OrderToolsConfig or named in its comments, where its default and effect are said", () => {
    const documented = (key: string) => new RegExp(`^\\s*${key}\\??:`, "m").test(face) || face.includes(`\`${key}\``);
    expect(keys.filter((key) => !documented(key))).toEqual([]);
  });
});
