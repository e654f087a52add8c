#!/usr/bin/env bash
# go-check.sh - the Go half's lint (part of `make lint`): gofmt -l, go vet ./... and go test ./... on
# every module under go/ (each go.mod). The tool-only pins (go/pins/*) hold no Go code of ours: they
# have nothing to format, vet or test, and `make pulumi-yaml`/`make pulumi-java` build them.
#
#   scripts/go-check.sh            every module
#   scripts/go-check.sh <dir>...   those modules only
#
# The go command's own progress ("go: downloading …" on a cold module cache) goes to stderr as it
# comes and is no finding: only a non-zero exit status fails.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
command -v go >/dev/null 2>&1 || { [[ -x /usr/local/go/bin/go ]] && export PATH="/usr/local/go/bin:$PATH"; } || true
command -v go >/dev/null 2>&1 || { echo "go-check: go is not installed (need Go >= 1.25.11)" >&2; exit 1; }
# pulumi-yaml and pulumi-java have no entry in the checksum database: their go.sum files pin them.
export GOTOOLCHAIN=local GOFLAGS=-mod=readonly GONOSUMDB=github.com/pulumi/pulumi-yaml,github.com/pulumi/pulumi-java

if (($# > 0)); then modules=("$@"); else mapfile -t modules < <(find go -name go.mod -printf '%h\n' | LC_ALL=C sort); fi
unformatted=$(gofmt -l "${modules[@]}")
if [[ -n $unformatted ]]; then
  echo "go-check: not gofmt-formatted (run gofmt -w on them):" >&2
  printf '  %s\n' $unformatted >&2
  exit 1
fi
failed=()
for m in "${modules[@]}"; do
  if [[ -z $(find "$m" -name '*.go' -print -quit) ]]; then
    echo "go-check: $m: no Go code (a tool pin), nothing to vet or test" >&2
    continue
  fi
  echo "go-check: $m: go vet ./... && go test ./..." >&2
  (cd "$m" && nice -n 10 go vet ./... && nice -n 10 go test -count=1 ./...) || failed+=("$m")
done
if ((${#failed[@]} > 0)); then
  echo "go-check: failed in ${failed[*]}" >&2
  exit 1
fi
echo "go-check: ${#modules[@]} modules: gofmt, go vet and go test clean" >&2
