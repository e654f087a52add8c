/**
 * The secrets scan through the dynamic classes (a JavaScript program, tests/programs/zero-diff):
 * see tests/support/secrets/scan.ts for what is searched where. The native plugin's door is
 * secrets-scan-native.test.ts.
 */
import { secretsScanSuite } from "../support/secrets/scan";

secretsScanSuite("dynamic");
