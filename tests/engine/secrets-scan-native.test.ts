/**
 * The secrets scan through the native plugin (Pulumi YAML programs, passwords written as plain
 * values, issue #19): see tests/support/secrets/scan.ts for what is searched where. The dynamic
 * classes' door is secrets-scan-dynamic.test.ts.
 */
import { secretsScanSuite } from "../support/secrets/scan";

secretsScanSuite("native");
