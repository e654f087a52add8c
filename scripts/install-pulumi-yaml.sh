#!/usr/bin/env bash
# Make the YAML language host (pulumi-language-yaml) available, for YAML programs using the native
# plugin pulumi-resource-krcloud. Built with Go from the module proxy like the CLI
# (scripts/install-pulumi.sh), into ${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}/pulumi-language-yaml-<ver>/bin
# (outside the work tree), and reused by later runs.
#
#   BIN=$(scripts/install-pulumi-yaml.sh | tail -n1)
#   export PATH="$BIN:$PATH"
#
# Progress goes to stderr; stdout is exactly one line: the directory to put on PATH.
#
# Why v1.13.0: when this was written the module proxy answered 403 for github.com/pulumi/pulumi-yaml
# v1.14.0 and later. It now also serves v1.25.0 (tools/exgen converts the reference examples with it,
# on pkg/v3 v3.219.0); the host stays on v1.13.0 until a move is tested on its own (v1.25.0 does not
# build against pkg/v3 v3.224 and later). The checksum database has no entry for it (404), so the
# module is fetched with GONOSUMDB=github.com/pulumi/pulumi-yaml: its content is pinned by
# scripts/pulumi-yaml/go.sum instead (every other module is verified against sum.golang.org as usual).
# `go install …@v1.13.0` does not work (it lists versions, which the proxy refuses), hence the wrapper
# module in scripts/pulumi-yaml/.
set -euo pipefail

YAML_VERSION=v1.13.0 # keep in sync with scripts/pulumi-yaml/go.mod

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MODULE_DIR=$SCRIPT_DIR/pulumi-yaml
TOOLS_DIR=${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}
PREFIX=$TOOLS_DIR/pulumi-language-yaml-$YAML_VERSION
BIN_DIR=$PREFIX/bin
HOST=pulumi-language-yaml
TOOLS=("$HOST")

# shellcheck source=scripts/go-build.sh
. "$SCRIPT_DIR/go-build.sh"

source_hash=$(cd "$MODULE_DIR" && cat go.mod go.sum | sha256sum | cut -d' ' -f1)

# 1. Already built by an earlier run?
reuse_or_lock "$YAML_VERSION"

# 2. Build from the Go module proxy.
prepare_go_build

log "building $HOST $YAML_VERSION with $go_version (GOPROXY=$(go env GOPROXY)); several minutes on a cold cache"
start=$SECONDS
(
	cd "$MODULE_DIR"
	export GOTOOLCHAIN=local GONOSUMDB=github.com/pulumi/pulumi-yaml GOFLAGS=-mod=readonly
	go build -buildvcs=false -trimpath -ldflags "-s -w" -o "$build_dir/$HOST" github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
)
install_built
