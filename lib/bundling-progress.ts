/**
 * Builds and synthesizes without aws-cdk-lib's "Bundling asset <path>..." line per bundled function, which it
 * writes to stderr unconditionally (no bundling option turns it off; aws/aws-cdk#23092) and which would otherwise
 * fill `cdk synth --quiet` and the test output with a line per function. Only those exact lines are dropped, and only while the app is built
 * (assets are bundled as their constructs are created) and synthesized, both synchronous; esbuild's own warnings
 * and errors, and a failed bundling's error, still show.
 */
export function withoutBundlingProgress<T>(build: () => T): T {
  const write = process.stderr.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) =>
    typeof chunk === "string" && /^Bundling asset \S+\.\.\.\n$/.test(chunk)
      ? true
      : Reflect.apply(write, process.stderr, [chunk, ...rest])) as typeof process.stderr.write;
  try {
    return build();
  } finally {
    process.stderr.write = write;
  }
}
