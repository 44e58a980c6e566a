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

/**
 * Runs a command that takes positional arguments (`npm run invoke`, `seed`): `--help` (or `-h`) prints the usage
 * and exits 0; otherwise `main` gets the arguments and returns the exit code (2 for bad arguments, having said
 * what was wrong); an error it throws prints its message alone and exits 1.
 */
export function runCommand(usage: string, main: (args: string[]) => Promise<number>, args: string[] = process.argv.slice(2)): void {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usage);
    process.exit(0);
  }
  main(args).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error((error as Error).message);
      process.exit(1);
    },
  );
}
