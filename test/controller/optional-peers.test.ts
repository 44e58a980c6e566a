import { describe, expect, it } from "vitest";
import { controllerPackage } from "#controller/package-manifest";
import { importModelSdk, importOptionalPeer, MissingModelSdkError, MissingPeerError, type OptionalPeer } from "#controller/optional-peers";

/**
 * A missing optional peer is named with the range controller/package-manifest.ts gives it and the command that
 * installs it; an error that is not that peer missing (a file missing inside a package that is there, another
 * package, any other failure) passes through as it was. The package test holds the real imports to this, with each
 * peer moved out of an installed application.
 */
const peers = Object.keys(controllerPackage.optionalPeers) as OptionalPeer[];

/** Node's error for an import of a package that is not installed, as the loader words it. */
function notFound(specifier: string): Error {
  return Object.assign(new Error(`Cannot find package '${specifier}' imported from /app/node_modules/order-tools/controller/x.js`), {
    code: "ERR_MODULE_NOT_FOUND",
  });
}

describe("a missing optional peer", () => {
  it("is named with the manifest's range and the npm install that adds it, for every peer", async () => {
    for (const peer of peers) {
      const range = controllerPackage.optionalPeers[peer];
      const failed = importOptionalPeer(peer, "order-tools/controller/x", () => Promise.reject(notFound(peer)));
      await expect(failed).rejects.toBeInstanceOf(MissingPeerError);
      await expect(failed).rejects.toThrow(
        `order-tools/controller/x needs the ${peer} package (${range}), which is not installed (it is an optional peer dependency of order-tools): npm install ${peer}@${range}`,
      );
      await expect(failed).rejects.toMatchObject({ packageName: peer, range });
    }
  });

  it("a model adapter's is a MissingModelSdkError, a MissingPeerError too", async () => {
    const failed = importModelSdk("openai", "openaiModel", () => Promise.reject(notFound("openai")));
    await expect(failed).rejects.toBeInstanceOf(MissingModelSdkError);
    await expect(failed).rejects.toBeInstanceOf(MissingPeerError);
    await expect(failed).rejects.toThrow(`npm install openai@${controllerPackage.optionalPeers.openai}`);
  });

  it("another package's absence, a file missing inside the peer, or any other failure is not reported as the peer missing", async () => {
    for (const error of [
      notFound("@openai/agents-core"),
      Object.assign(new Error("Cannot find module '/app/node_modules/ai/dist/missing.mjs' imported from /app/x.js"), {
        code: "ERR_MODULE_NOT_FOUND",
      }),
      new SyntaxError("Unexpected token"),
    ]) {
      await expect(importOptionalPeer("@openai/agents", "order-tools/controller/openai-agents", () => Promise.reject(error))).rejects.toBe(
        error,
      );
    }
  });

  it("a peer that is there is returned as imported", async () => {
    const imported = await importOptionalPeer("ai", "order-tools/controller/ai-sdk", () => import("ai"));
    expect(typeof imported.generateText).toBe("function");
  });
});
