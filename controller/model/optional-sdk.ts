/**
 * The model SDKs are optional peer dependencies of the controller package: an application installs only its own
 * provider's. So no adapter imports its SDK at module load; each one imports it when first asked for a response,
 * and importing the controller works with none of them installed. An SDK that is missing then is named, with the
 * command that installs it, rather than surfacing as a bare module-resolution error.
 */
export class MissingModelSdkError extends Error {
  constructor(
    readonly packageName: string,
    adapter: string,
  ) {
    super(
      `${adapter} needs the ${packageName} package, which is not installed (it is an optional peer dependency of order-tools): npm install ${packageName}`,
    );
    this.name = "MissingModelSdkError";
  }
}

/** `load` must be a literal `() => import("<packageName>")`, so bundlers and the type checker see the import. */
export async function importModelSdk<T>(packageName: string, adapter: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, packageName)) throw new MissingModelSdkError(packageName, adapter);
    throw error;
  }
}

/** Node's ERR_MODULE_NOT_FOUND for this very package (not for something the package itself failed to find). */
function isMissing(error: unknown, packageName: string): boolean {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== "ERR_MODULE_NOT_FOUND") return false;
  return new RegExp(`(package|module) '${packageName.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}'`).test(error.message);
}
