#!/usr/bin/env bash
# Converts every reference page's YAML example (provider/<module>/<noun>.example.yaml) to TypeScript,
# Python and Go with tools/exgen (pulumi-yaml's YAML-to-PCL converter and Pulumi's program
# generators, the code `pulumi convert --from yaml` runs), for tools/gen-reference.ts to show beside
# the YAML:
#
#   scripts/gen-examples.sh <out dir>   <out dir>/<module>/<noun>/{typescript/index.ts,python/__main__.py,go/main.go}
#
# The conversions live only in the pages (docs/reference/): `make schema` converts into a temporary
# folder and gen-reference.ts reads it; tests/engine/docs-examples.test.ts does the same and
# compares the pages, then compiles the code they show.
#
# Why a tool and not `pulumi convert`: that needs the pulumi-converter-yaml plugin and language hosts
# that generate code, which the hosts built here (scripts/install-pulumi-languages.sh) do not. Why
# pulumi-yaml v1.25.0 on github.com/pulumi/pulumi/pkg/v3 v3.219.0 (tools/exgen/go.mod): v1.25.0 is
# the newest pulumi-yaml the module proxy serves; it calls the plugin API of pkg/v3 v3.206 to v3.219
# (plugin.NewContextWithRoot changed its parameters in v3.224, schema.NewPluginLoader takes a plugin context
# in v3.248), so v3.219.0 is the newest pkg/v3 it builds with. exgen binds with
# PreferOutputVersionedInvokes and rewrites what the Go generator of that version still gets wrong
# (tools/exgen/gofix.go); the tests compile every program.
# The tool is built once per source version into ~/.cache/krcloud (KRCLOUD_TOOLS_DIR).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: scripts/gen-examples.sh <out dir>}"
TOOLS_DIR="${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}"
command -v go >/dev/null || { [ -x /usr/local/go/bin/go ] && export PATH="/usr/local/go/bin:$PATH"; } || true
command -v go >/dev/null || { echo "gen-examples: go is not on PATH" >&2; exit 1; }

src_hash=$(cat "$ROOT"/tools/exgen/*.go "$ROOT/tools/exgen/go.mod" "$ROOT/tools/exgen/go.sum" "$ROOT"/tools/schemafile/*.go | sha256sum | cut -c1-12)
BIN="$TOOLS_DIR/exgen-$src_hash/exgen"
if [ ! -x "$BIN" ]; then
  echo "gen-examples: building the converter (once; a few minutes on a cold Go cache)" >&2
  mkdir -p "$(dirname "$BIN")"
  # pulumi-yaml has no entry in the checksum database: tools/exgen/go.sum pins it.
  (cd "$ROOT/tools/exgen" && GOTOOLCHAIN=local GOFLAGS=-mod=readonly GONOSUMDB=github.com/pulumi/pulumi-yaml \
    go build -buildvcs=false -trimpath -o "$BIN.tmp" . && mv "$BIN.tmp" "$BIN")
fi

rm -rf "$OUT"
(cd "$ROOT" && "$BIN" schema.json "$OUT" provider/*/*.example.yaml)
echo "gen-examples: $(find "$OUT" -name main.go | wc -l) examples in TypeScript, Python and Go in $OUT" >&2

# Go: each program is type-checked (`go vet`) against the Go SDK generated from schema.json. One that
# fails (a generator bug tools/exgen/gofix.go does not cover yet) is replaced by go/NOT-COMPILED.txt
# holding the first error, and its page says so instead of showing code that does not build (the
# docs-examples test then fails: every example must compile).
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
KRCLOUD_SDK_WHEEL=0 bash "$ROOT/scripts/gen-sdks.sh" "$work/sdk" 2>/dev/null
mkdir "$work/vet"
sed -e 's|^module .*|module krcloud-reference-examples|' \
  -e "s|^replace github.com/krcloud/pulumi-krcloud/sdk/go => .*|replace github.com/krcloud/pulumi-krcloud/sdk/go => $work/sdk/go|" \
  "$ROOT/examples/go-static-site/go.mod" >"$work/vet/go.mod"
cp "$ROOT/examples/go-static-site/go.sum" "$work/vet/go.sum"
for f in "$OUT"/*/*/go/main.go; do
  rel=${f#"$OUT"/}                    # cache/get-cluster/go/main.go
  mod=${rel%%/*}
  noun=${rel#*/}
  noun=${noun%%/*}
  mkdir -p "$work/vet/$mod-$noun"
  cp "$f" "$work/vet/$mod-$noun/main.go"
done
(cd "$work/vet" && GOFLAGS=-mod=mod go vet ./... >"$work/vet.out" 2>&1) || true
failed=0
for d in "$work"/vet/*-*/; do
  name=$(basename "$d")
  err=$(grep -m1 "^vet: $name/main.go:" "$work/vet.out" || true)
  [ -n "$err" ] || continue
  mod=${name%%-*}
  noun=${name#*-}
  rm "$OUT/$mod/$noun/go/main.go"
  printf '%s\n' "${err#"vet: $name/"}" >"$OUT/$mod/$noun/go/NOT-COMPILED.txt"
  failed=$((failed + 1))
done
# Anything else go vet said (a failure not tied to one program) stops here.
if grep -v -e '^#' -e '^vet: ' -e '^\s' "$work/vet.out" | grep -q .; then
  cat "$work/vet.out" >&2
  echo "gen-examples: go vet failed" >&2
  exit 1
fi
echo "gen-examples: $failed Go programs do not compile (go/NOT-COMPILED.txt), the others vet" >&2
