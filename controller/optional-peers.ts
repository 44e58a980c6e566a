import { controllerPackage } from "#controller/package-manifest";

/**
 * The SDKs an application brings are optional peer dependencies of the controller package (package-manifest.ts,
 * with the range of each): an application installs only its own provider's, framework's or store's. So nothing
 * imports one at module load where a plain import would fail: a model adapter imports its SDK when first asked for
 * a response, and importing the controller works with none of them installed; a framework adapter or the DynamoDB
 * store, whose subpath is of no use without its SDK, imports it when the subpath is imported. An SDK missing then is
 * named, with its range and the command that installs it, rather than surfacing as Node's bare "Cannot find package".
 */
/** An optional peer of the package: a name controller/package-manifest.ts gives a range. */
export type OptionalPeer = keyof typeof controllerPackage.optionalPeers;

export class MissingPeerError extends Error {
  /** The range of the package the controller package is tested with, as its manifest declares it. */
  readonly range: string;

  constructor(
    readonly packageName: OptionalPeer,
    neededBy: string,
  ) {
    const range = controllerPackage.optionalPeers[packageName];
    super(
      `${neededBy} needs the ${packageName} package (${range}), which is not installed (it is an optional peer dependency of order-tools): npm install ${packageName}@${range}`,
    );
    this.name = "MissingPeerError";
    this.range = range;
  }
}

/** A model adapter's SDK is missing: thrown by its first request. */
export class MissingModelSdkError extends MissingPeerError {
  constructor(packageName: OptionalPeer, adapter: string) {
    super(packageName, adapter);
    this.name = "MissingModelSdkError";
  }
}

/**
 * Imports an optional peer, or throws MissingPeerError naming it, its range and the install command. `load` must
 * be a literal `() => import("<packageName>")`, so bundlers and the type checker see the import.
 */
export async function importOptionalPeer<T>(packageName: OptionalPeer, neededBy: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, packageName)) throw new MissingPeerError(packageName, neededBy);
    throw error;
  }
}

/** A model adapter's SDK, imported on its first request: as importOptionalPeer, throwing MissingModelSdkError. */
export async function importModelSdk<T>(packageName: OptionalPeer, adapter: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, packageName)) throw new MissingModelSdkError(packageName, adapter);
    throw error;
  }
}

/**
 * Node's ERR_MODULE_NOT_FOUND for this very package, whether the import named it or a package it imports needs it
 * (@aws-sdk/lib-dynamodb imports @aws-sdk/client-dynamodb, its own peer) — not for a file a package failed to find.
 */
function isMissing(error: unknown, packageName: string): boolean {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") return false;
  return new RegExp(`(package|module) '${packageName.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}'`).test(error.message);
}
