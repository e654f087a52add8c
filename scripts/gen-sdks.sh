#!/usr/bin/env bash
# Generates the Python and Go SDKs from schema.json with Pulumi's code generators (tools/sdkgen, a
# small Go program on github.com/pulumi/pulumi/pkg/v3 v3.259.0, the version the CLI is built from):
#
#   scripts/gen-sdks.sh [out dir]   default sdk-gen/ (ignored by git): python/ and go/ (with a go.mod)
#
# The generator binary is built once per source version into ~/.cache/krcloud (KRCLOUD_TOOLS_DIR).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:-$ROOT/sdk-gen}"
TOOLS_DIR="${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}"
command -v go >/dev/null || { [ -x /usr/local/go/bin/go ] && export PATH="/usr/local/go/bin:$PATH"; } || true
command -v go >/dev/null || { echo "gen-sdks: go is not on PATH" >&2; exit 1; }

src_hash=$(cat "$ROOT/tools/sdkgen/main.go" "$ROOT/tools/sdkgen/go.mod" | sha256sum | cut -c1-12)
BIN="$TOOLS_DIR/sdkgen-$src_hash/sdkgen"
if [ ! -x "$BIN" ]; then
  echo "gen-sdks: building the generator (once; a few minutes on a cold Go cache)" >&2
  mkdir -p "$(dirname "$BIN")"
  (cd "$ROOT/tools/sdkgen" && go build -buildvcs=false -trimpath -o "$BIN.tmp" . && mv "$BIN.tmp" "$BIN")
fi

rm -rf "$OUT"
"$BIN" "$ROOT/schema.json" "$OUT"
# The Go SDK as a module of its own, on the Pulumi Go SDK the CLI was built with.
cat >"$OUT/go/go.mod" <<MOD
module github.com/krcloud/pulumi-krcloud/sdk/go

go 1.25.11

require github.com/pulumi/pulumi/sdk/v3 v3.259.0
MOD
cp "$ROOT/tools/sdkgen/go.sum" "$OUT/go/go.sum"
echo "gen-sdks: Python SDK in $OUT/python, Go SDK in $OUT/go" >&2
