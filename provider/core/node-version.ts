/**
 * The Node.js version check every entry point imports first (the library's main, the runtime the
 * dynamic provider loads, every bin): on a Node.js older than the package needs it stops at once
 * with one line saying what was found, what is needed and how to get it. Without it, the first sign
 * is a TypeError deep inside undici (`createZstdDecompress.bind` on Node 20) or @pulumi/pulumi.
 *
 * Nothing here may need a newer Node.js than the oldest it has to recognise: no imports, plain
 * syntax. The minimum is that of the dependencies (undici 8: >= 22.19.0; @pulumi/pulumi 3.260:
 * >= 22; DuckDB's N-API bindings state none), the same as `engines.node` in package.json (a unit
 * test keeps the two equal).
 */
export const NODE_MINIMUM = "22.19.0";

/** True when `version` ("20.20.2", "v24.9.0") is older than `minimum`. */
export function olderThan(version: string, minimum: string = NODE_MINIMUM): boolean {
  const parse = (v: string): number[] => v.replace(/^v/, "").split(/[.-]/).slice(0, 3).map(Number);
  const [a, b] = [parse(version), parse(minimum)];
  for (let i = 0; i < 3; i++) {
    if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  }
  return false;
}

/** The one line printed on a Node.js that is too old. */
export function tooOldMessage(version: string, execPath: string): string {
  return (
    `pulumi-krcloud needs Node.js >= ${NODE_MINIMUM}, but this is Node.js ${version} (${execPath}): ` +
    `install Node.js 22.19 or later (https://nodejs.org/en/download, or \`nvm install 24\`) and put it first on PATH`
  );
}

if (olderThan(process.versions.node)) {
  process.stderr.write(`${tooOldMessage(process.versions.node, process.execPath)}\n`);
  process.exit(1);
}
