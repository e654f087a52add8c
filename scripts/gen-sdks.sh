#!/usr/bin/env bash
# Generates the Python, Go and TypeScript SDKs from schema.json with Pulumi's code generators
# (go/codegen/sdkgen, a small Go program on github.com/pulumi/pulumi/pkg/v3 v3.259.0, the version the
# CLI is built from; each SDK has the schema's version, the npm package's):
#
#   scripts/gen-sdks.sh             sdk/, one folder per language as pulumi-aws lays them out:
#                                   sdk/nodejs/ (committed: the generated source of `pulumi-krcloud/native`),
#                                   sdk/python/ (with the wheel in python/dist/), sdk/go/ (a module
#                                   whose path names this folder), sdk/java/ (these three ignored by git)
#   scripts/gen-sdks.sh <out dir>   the same into <out dir>, sdk/ left alone (the freshness test
#                                   compares <out dir>/nodejs with sdk/nodejs/)
#
# KRCLOUD_SDK_SCHEMA names another schema file to generate from (tests: a stale SDK is caught).
# KRCLOUD_SDK_JAVA=1 (what `make sdks` sets) adds java/: the Java SDK generated with pulumi-java-gen
# (`make pulumi-java`), built with Maven against com.pulumi:pulumi of the same version and installed
# into the local Maven repository as com.pulumi:krcloud:<package version>.
# The generators are built once per source version into ~/.cache/krcloud (scripts/install-go-tool.sh).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT/sdk}"
SCHEMA="${KRCLOUD_SDK_SCHEMA:-$ROOT/schema.json}"
BIN="$(bash "$ROOT/scripts/install-go-tool.sh" sdkgen | tail -n1)/sdkgen"

for lang in nodejs python go java; do rm -rf "${OUT:?}/$lang"; done
"$BIN" "$SCHEMA" "$OUT"
# The Go SDK as a module of its own, on the Pulumi Go SDK the CLI was built with.
cat >"$OUT/go/go.mod" <<MOD
module github.com/krcloud/pulumi-krcloud/sdk/go

go 1.25.11

require github.com/pulumi/pulumi/sdk/v3 v3.259.0
MOD
cp "$ROOT/go/codegen/sdkgen/go.sum" "$OUT/go/go.sum"
# The schema's version (the npm package's), which sdkgen gave the SDKs and pulumi-java-gen takes.
version=$(node -p 'JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).version' "$SCHEMA")
# The wheel users pip install (KRCLOUD_SDK_WHEEL=0 skips it): pip builds it with setuptools from PyPI.
if [ "${KRCLOUD_SDK_WHEEL:-1}" != 0 ]; then
  python3 -m pip wheel --quiet --no-deps --wheel-dir "$OUT/python/dist" "$OUT/python" >&2
  rm -rf "$OUT/python/build" "$OUT/python"/*.egg-info
  echo "gen-sdks: Python wheel $(ls "$OUT"/python/dist/*.whl)" >&2
fi
echo "gen-sdks: Python SDK in $OUT/python, Go SDK in $OUT/go, TypeScript SDK in $OUT/nodejs" >&2
# The Java SDK: pulumi-java-gen writes Gradle files or none (--build none); the Maven build is ours
# (scripts/java-sdk/pom.xml). `mvn install` puts it where a program's pom.xml finds it.
if [ "${KRCLOUD_SDK_JAVA:-0}" = 1 ]; then
  java_bin=$(bash "$ROOT/scripts/install-go-tool.sh" pulumi-java | tail -n1)
  java_out=$(realpath -m "$OUT/java")
  # pulumi-java-gen joins --out to its working directory: run from / with absolute paths.
  (cd / && "$java_bin/pulumi-java-gen" generate --schema "$(realpath "$SCHEMA")" --out "$java_out" --build none --version "$version" 2>&1 |
    grep -v -e 'is deprecated' -e 'does not have an Output type' >&2 || true)
  [ -f "$java_out/src/main/java/com/pulumi/krcloud/Provider.java" ] || { echo "gen-sdks: pulumi-java-gen wrote no Java SDK" >&2; exit 1; }
  # What upstream's Gradle build adds beside version.txt: the plugin the SDK needs, which the Java
  # host reports to the engine (GetRequiredPackages) before the program runs.
  printf '{\n  "resource": true,\n  "name": "krcloud",\n  "version": "%s"\n}\n' "$version" \
    >"$java_out/src/main/resources/com/pulumi/krcloud/plugin.json"
  sed "s/@VERSION@/$version/" "$ROOT/scripts/java-sdk/pom.xml" >"$java_out/pom.xml"
  # Batch mode and no colour; Maven 3.8's jansi still writes a colour reset (ESC[0m) at each flush
  # unless told not to, which is raw codes in a log.
  MAVEN_OPTS="${MAVEN_OPTS:-} -Djansi.noreset=true" mvn -B -q --no-transfer-progress -Dstyle.color=never -f "$java_out/pom.xml" install >&2
  echo "gen-sdks: Java SDK in $OUT/java, installed into the local Maven repository as com.pulumi:krcloud:$version" >&2
fi
