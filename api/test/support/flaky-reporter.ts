import { relative } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';

/**
 * Prints every test that failed and then passed on its retry (vitest.config.ts retries in CI),
 * with the first attempt's error: the run passes, and the flaky test is still there to fix.
 */
export default class FlakyReporter implements Reporter {
  onTestCaseResult(testCase: TestCase): void {
    const diagnostic = testCase.diagnostic();
    if (!diagnostic?.flaky) return;
    const errors = testCase.result().errors ?? [];
    const first = errors[0]?.message ?? 'no error kept';
    console.log(
      `\n↻ flaky, passed on retry ${diagnostic.retryCount}: ${relative(process.cwd(), testCase.module.moduleId)} › ${testCase.fullName}\n  first attempt: ${first}\n`,
    );
  }
}
