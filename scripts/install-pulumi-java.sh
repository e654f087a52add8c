#!/usr/bin/env bash
# Make the Java language host (pulumi-language-java) and Pulumi's Java SDK generator (pulumi-java-gen)
# available, for Java programs using the native plugin pulumi-resource-krcloud and for `make sdks`.
# Built with Go from the module proxy like the YAML host (scripts/install-pulumi-yaml.sh), from the
# wrapper module scripts/pulumi-java/, into
# ${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}/pulumi-language-java-<ver>/bin (outside the work tree),
# and reused by later runs.
#
#   BIN=$(scripts/install-pulumi-java.sh | tail -n1)
#   export PATH="$BIN:$PATH"
#
# Progress goes to stderr; stdout is exactly one line: the directory to put on PATH.
#
# Why v1.17.0: the module proxy answers 403 for github.com/pulumi/pulumi-java/pkg v1.18.0 and later;
# v1.17.0 is the newest it serves. The checksum database has no entry for it, so the module is
# fetched with GONOSUMDB=github.com/pulumi/pulumi-java: its content is pinned by
# scripts/pulumi-java/go.sum instead (every other module is verified against sum.golang.org as usual).
# The host runs programs with Maven (or Gradle) and Java on PATH; the Java SDK programs use is
# com.pulumi:pulumi of the same version, from Maven Central.
set -euo pipefail

JAVA_HOST_VERSION=v1.17.0 # keep in sync with scripts/pulumi-java/go.mod

SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
MODULE_DIR=$SCRIPT_DIR/pulumi-java
TOOLS_DIR=${KRCLOUD_TOOLS_DIR:-$HOME/.cache/krcloud}
PREFIX=$TOOLS_DIR/pulumi-language-java-$JAVA_HOST_VERSION
BIN_DIR=$PREFIX/bin
TOOLS=(pulumi-language-java pulumi-java-gen)

# shellcheck source=scripts/go-build.sh
. "$SCRIPT_DIR/go-build.sh"

source_hash=$(cd "$MODULE_DIR" && cat go.mod go.sum | sha256sum | cut -d' ' -f1)

# 1. Already built by an earlier run?
reuse_or_lock "$JAVA_HOST_VERSION"

# 2. Build from the Go module proxy.
prepare_go_build

log "building ${TOOLS[*]} $JAVA_HOST_VERSION with $go_version (GOPROXY=$(go env GOPROXY)); about 8 minutes on a cold cache"
start=$SECONDS
(
	cd "$MODULE_DIR"
	export GOTOOLCHAIN=local GONOSUMDB=github.com/pulumi/pulumi-java GOFLAGS=-mod=readonly
	# The host reports this version to the engine (`pulumi about`, plugin listings).
	ldflags="-s -w -X github.com/pulumi/pulumi-java/pkg/version.Version=$JAVA_HOST_VERSION"
	for t in "${TOOLS[@]}"; do
		go build -buildvcs=false -trimpath -ldflags "$ldflags" -o "$build_dir/$t" "github.com/pulumi/pulumi-java/pkg/cmd/$t"
	done
)
install_built
