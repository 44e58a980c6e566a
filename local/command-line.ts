import { type ParseArgsConfig, parseArgs } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;
interface Strict<O extends Options> {
  args: string[];
  options: O & { help: { type: "boolean"; short: "h" } };
  strict: true;
  allowPositionals: false;
}

/**
 * The options of one of the project's commands (`npm run token`, `eval`, `soak`, `export-tools`), read strictly:
 * `--help` (or `-h`) prints the usage and exits 0; an unknown option, a missing value or a stray argument prints
 * what was wrong and the usage, and exits 2 before anything starts. `refuse` does the same for a check of the
 * command's own.
 */
export function readOptions<const O extends Options>(usage: string, options: O, args: string[] = process.argv.slice(2)) {
  const refuse = (message: string): never => {
    console.error(`${message}\n\n${usage}`);
    process.exit(2);
  };
  const config: Strict<O> = { args, options: { ...options, help: { type: "boolean", short: "h" } }, strict: true, allowPositionals: false };
  let values: ReturnType<typeof parseArgs<Strict<O>>>["values"];
  try {
    ({ values } = parseArgs(config));
  } catch (error) {
    return refuse((error as Error).message);
  }
  if ((values as { help?: boolean }).help) {
    console.log(usage);
    process.exit(0);
  }
  return { values, refuse };
}
