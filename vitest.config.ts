import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";

// Tests only ever talk to DynamoDB Local: dummy (alphanumeric, as Local requires) credentials, so nothing can
// reach a real account by accident. Set here, in the main process, so global setup and the forked workers
// both see them; `test.env` repeats them for the workers explicitly.
const testEnv = {
  AWS_REGION: "eu-west-1",
  AWS_DEFAULT_REGION: "eu-west-1",
  AWS_ACCESS_KEY_ID: "local",
  AWS_SECRET_ACCESS_KEY: "local",
  // Tests provoke failures on purpose; their expected error logs would bury the results.
  POWERTOOLS_LOG_LEVEL: "SILENT",
  // EMF metric lines for every call would bury the results too; observability.test.ts turns them back on.
  POWERTOOLS_METRICS_DISABLED: "true",
};
Object.assign(process.env, testEnv);
delete process.env.AWS_SESSION_TOKEN;
delete process.env.AWS_PROFILE;

export default defineConfig({
  environments: {
    // Global setup runs in Vitest's own "__vitest__" environment, which resolves packages like a browser
    // bundle: the AWS SDK's `module` entry (dist-es, not loadable by Node) gets transformed file by file,
    // ~3 s per run, and @smithy/core's "browser" exports would apply. Resolve like the test workers instead
    // (Node conditions, `main` entry), so the SDK is loaded natively in ~0.1 s.
    __vitest__: {
      resolve: { mainFields: [], conditions: defaultServerConditions.filter((condition) => condition !== "module") },
    },
  },
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    env: testEnv,
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
