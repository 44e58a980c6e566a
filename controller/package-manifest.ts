/**
 * The published package `order-tools` (`npm run package`): what its package.json says, written once. The build
 * (scripts/build-controller.ts) makes dist/package/ from it — the package.json, this folder's README.md and
 * CHANGELOG.md, and the compiled subpaths and bin — and adds what it takes from the repository's package.json:
 * the version, and the dependencies (the repository's `dependencies` are the controller's, and nothing else's:
 * everything the service needs is a devDependency, bundled into its functions).
 *
 * A new subpath (`order-tools/controller/ai-sdk`, say) is one line in `subpaths`, naming its source file, and, when
 * it imports an SDK the application brings (`ai`), that SDK's range in `optionalPeers`. Nothing else changes: the
 * build compiles each source with its declarations, checks that nothing in it imports what the package does not
 * ship or declare, and the package test holds the tarball to this file.
 *
 * Not in it, by design: scripts, devDependencies, workspaces, `imports` (the build resolves every `#…` import),
 * `private`.
 */
export const controllerPackage = {
  description:
    "The application half of AI agents acting on orders: runs a model's turns against the order-tools service, persists every change before it is sent, reconciles lost outcomes, and gates every reply on what the service recorded.",
  keywords: ["ai-agents", "tool-use", "llm", "orders", "idempotency", "guardrails"],
  /** No licence has been granted yet: the owners choose one before the first publish. */
  license: "UNLICENSED",
  repository: { type: "git", url: "git+https://github.com/order-tools/order-tools.git", directory: "controller" },
  engines: { node: ">=22" },
  /** Each subpath an application imports, and the source file built for it. */
  subpaths: {
    "./controller": "controller/index.ts",
    "./controller/testing": "controller/testing.ts",
    "./controller/dynamodb": "controller/intents/dynamodb.ts",
    "./controller/ai-sdk": "controller/frameworks/ai-sdk.ts",
    "./controller/openai-agents": "controller/frameworks/openai-agents.ts",
  },
  /** Each command the package installs, and the source file built for it. */
  bin: { "order-tools-trace": "controller/bin/order-tools-trace.ts" },
  /**
   * The SDKs an application brings for the adapter or store it uses: optional peers, each imported on first use,
   * so an application installs only its own. The repository tests with the versions in its devDependencies.
   */
  optionalPeers: {
    "@anthropic-ai/sdk": "^1.14.0",
    "@aws-sdk/client-bedrock-runtime": "^3.1164.0",
    "@aws-sdk/client-dynamodb": "^3.1169.0",
    "@aws-sdk/lib-dynamodb": "^3.1169.0",
    "@openai/agents": "^0.20.0",
    ai: "^6.0.333",
    openai: "^7.60.0",
  },
} as const;
