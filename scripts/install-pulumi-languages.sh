#!/usr/bin/env bash
# Make the Python and Go language hosts (pulumi-language-python, pulumi-language-go) available, for
# Python and Go programs using the native plugin pulumi-resource-krcloud. Built with Go from the module
# proxy like the CLI (scripts/install-pulumi.sh), from the same wrapper module scripts/pulumi-cli/,
# into ${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}/pulumi-languages-<ver>/bin (outside the work tree),
# and reused by later runs.
#
#   BIN=$(scripts/install-pulumi-languages.sh | tail -n1)
#   export PATH="$BIN:$PATH"
#
# Progress goes to stderr; stdout is exactly one line: the directory to put on PATH.
#
# Why not upstream's hosts: the module proxy answers 403 for every version of
# github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3 and
# github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3. The hosts built here are small ones
# (scripts/pulumi-cli/pulumi-language-{python,go}/, scripts/pulumi-cli/internal/langhost/); the
# Python one runs upstream's executor script, pulumi-language-python-exec, taken from the
# github.com/pulumi/pulumi/sdk/v3 module of the CLI's version (the same file upstream ships).
set -euo pipefail

PULUMI_VERSION=v3.259.0 # keep in sync with scripts/pulumi-cli/go.mod and scripts/install-pulumi.sh

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MODULE_DIR=$SCRIPT_DIR/pulumi-cli
TOOLS_DIR=${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}
PREFIX=$TOOLS_DIR/pulumi-languages-$PULUMI_VERSION
BIN_DIR=$PREFIX/bin
HOSTS=(pulumi-language-python pulumi-language-go)
EXEC_SCRIPT=pulumi-language-python-exec
TOOLS=("${HOSTS[@]}" "$EXEC_SCRIPT")

# shellcheck source=scripts/go-build.sh
. "$SCRIPT_DIR/go-build.sh"

source_hash=$(cd "$MODULE_DIR" && cat go.mod go.sum internal/langhost/*.go pulumi-language-python/*.go pulumi-language-go/*.go |
	sha256sum | cut -d' ' -f1)

# 1. Already built by an earlier run?
reuse_or_lock "$PULUMI_VERSION"

# 2. Build from the Go module proxy.
prepare_go_build

log "building ${HOSTS[*]} ($PULUMI_VERSION) with $go_version (GOPROXY=$(go env GOPROXY)); a few minutes on a cold cache"
start=$SECONDS
(
	cd "$MODULE_DIR"
	export GOTOOLCHAIN=local GOFLAGS=-mod=readonly
	ldflags="-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=$PULUMI_VERSION"
	for h in "${HOSTS[@]}"; do
		go build -buildvcs=false -trimpath -ldflags "$ldflags" -o "$build_dir/$h" "./$h"
	done
	sdk_dir=$(go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3)
	cp "$sdk_dir/python/cmd/$EXEC_SCRIPT" "$build_dir/$EXEC_SCRIPT"
)
chmod 644 "$build_dir/$EXEC_SCRIPT"
install_built
