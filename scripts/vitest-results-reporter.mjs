// Vitest's JSON reporter, writing its results where scripts/run-tests.mjs reads the closing counts from
// (ORDER_TOOLS_VITEST_RESULTS), without the "JSON report written to /tmp/…" line the built-in one prints
// about a file that run-tests.mjs deletes a moment later.
import { writeFile } from "node:fs/promises";
import { JsonReporter } from "vitest/node";

export default class ResultsReporter extends JsonReporter {
  async writeReport(report) {
    const file = process.env.ORDER_TOOLS_VITEST_RESULTS;
    if (file === undefined) throw new Error("ORDER_TOOLS_VITEST_RESULTS names no file for the test results.");
    await writeFile(file, report, "utf8");
  }
}
