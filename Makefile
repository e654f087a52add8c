# krcloud: every target installs what it needs, and skips what is up to date. Node >= 22.19 is
# required (package.json engines); where the machine's Node is older, the Node 24 shipped by the npm
# package `node@24` (a devDependency) is put first on PATH.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

ROOT        := $(CURDIR)
# KRCLOUD_STATE_DIR moves everything a run keeps (local cloud, demo stacks, packs) elsewhere.
STATE       := $(or $(KRCLOUD_STATE_DIR),$(ROOT)/.state)
NODE24_BIN  := $(ROOT)/node_modules/node/bin
TOOLS_DIR   ?= $(HOME)/.cache/krcloud
# Where scripts/install-go-tool.sh builds (or has built) each Go-built tool: a directory per tool,
# version and source digest (go/README.md). Nothing is built here; each target below builds its own.
GO_TOOL_BINS := $(shell KRCLOUD_TOOLS_DIR='$(TOOLS_DIR)' bash scripts/install-go-tool.sh --where pulumi pulumi-yaml pulumi-languages pulumi-java)
PULUMI_BIN  := $(word 1,$(GO_TOOL_BINS))
PULUMI_YAML_BIN := $(word 2,$(GO_TOOL_BINS))
PULUMI_LANGUAGES_BIN := $(word 3,$(GO_TOOL_BINS))
PULUMI_JAVA_BIN := $(word 4,$(GO_TOOL_BINS))
# The port of a new local cloud (8790 when not given); every target that uses a running one takes
# its port from that cloud's state file instead (scripts/local-cloud.sh).
LOCAL_CLOUD_PORT ?=
export PATH := $(NODE24_BIN):$(ROOT)/node_modules/.bin:$(PULUMI_BIN):$(PULUMI_YAML_BIN):$(PULUMI_LANGUAGES_BIN):$(PULUMI_JAVA_BIN):$(ROOT)/node_modules/@pulumi/pulumi:$(PATH)
export PULUMI_SKIP_UPDATE_CHECK := true
export PULUMI_HOME ?= $(STATE)/pulumi-home
export KRCLOUD_TOOLS_DIR := $(TOOLS_DIR)
# The engine tests and the benchmarks find the tools here (tests/harness/engine/paths.ts).
export KRCLOUD_PULUMI_BIN := $(PULUMI_BIN)
export KRCLOUD_PULUMI_YAML_BIN := $(PULUMI_YAML_BIN)
export KRCLOUD_PULUMI_LANGUAGES_BIN := $(PULUMI_LANGUAGES_BIN)
export KRCLOUD_PULUMI_JAVA_BIN := $(PULUMI_JAVA_BIN)
export KRCLOUD_STATE_DIR := $(STATE)
export LOCAL_CLOUD_PORT
# What the user ran, for the local cloud's messages ("make demo LOCAL_CLOUD_PORT=8791").
export KRCLOUD_COMMAND := make $(or $(MAKECMDGOALS),help)

.PHONY: help install build lint go-check format sql-peers redis chromium test-browser test test-unit test-local test-local-cloud test-engine test-conformance test-install pulumi pulumi-yaml pulumi-languages pulumi-java swift \
        local-cloud local-cloud-start local-cloud-stop demo demo-destroy bench bench-smoke bench-scale schema plugin pack env sdks clean clean-all

help:
	@echo "make demo        install, start the local cloud, pulumi up the demo stack, print outputs"
	@echo "make demo-destroy  pulumi destroy the demo stacks"
	@echo "eval \"\$$(make -s env)\"   put Node 24, pulumi and pulumi-language-yaml first on PATH in your shell (builds those two only)"
	@echo "make local-cloud run the local cloud in the foreground (port 8790, or LOCAL_CLOUD_PORT=N)"
	@echo "make local-cloud-start / local-cloud-stop   the local cloud in the background, and stop it"
	@echo "make test        install everything and run every test; stops the servers it started when it ends or is interrupted"
	@echo "make test-unit / test-local / test-local-cloud / test-conformance / test-engine / test-install   one tier of make test"
	@echo "make lint        eslint (type-aware), prettier --check and make go-check; make test runs it first"
	@echo "make go-check    gofmt -l, go vet and go test on every Go module under go/"
	@echo "make format      prettier --write"
	@echo "make install / build   npm ci / compile into dist/ (each only when out of date)"
	@echo "make pulumi      build the Pulumi CLI and the Node.js host into ~/.cache/krcloud (once; go/README.md)"
	@echo "make pulumi-yaml / pulumi-languages / pulumi-java   build the YAML, the Python and Go, the Java language host (once)"
	@echo "make swift / sql-peers / redis   start the Swift peer / PostgreSQL and MariaDB (left running; README says how to stop them) / install redis-server"
	@echo "make bench       run the benchmarks (scale: 200 and 1,000 resources per door) and write docs/benchmarks.md"
	@echo "make bench-smoke every benchmark study at a tiny size, writing nothing (a study that no longer runs fails; part of make test)"
	@echo "make bench-scale the scale benchmarks at 10,000 resources per door (hours; see docs/benchmarks.md)"
	@echo "make schema      regenerate schema.json, docs/reference/ (with each example in TypeScript, Python and Go) and the args types provider/<module>/args.ts"
	@echo "make sdks        generate the SDKs from schema.json: Python (and its wheel), Go and Java (installed with mvn) into sdk/python, sdk/go, sdk/java, TypeScript into sdk/nodejs/ (pulumi-krcloud/native)"
	@echo "make plugin      pack the native provider plugin pulumi-resource-krcloud and the krcloud-drift tool plugin (tarballs under .state/plugin/)"
	@echo "make pack        build the npm package's tarball; prints its path (npm install \"\$$(make -s -C <this dir> pack)\")"
	@echo "make clean       remove the build (dist/)"
	@echo "make clean-all   stop the local cloud and remove what runs keep: dist/, sdk/{python,go,java}, .state/ (local cloud data, demo stacks, plugin, packs)"

# npm ci from the committed lockfile, re-run only when the lockfile changes.
# npm's output goes to stderr: `make -s pack` and `make -s env` print only their result on stdout.
node_modules/.installed: package-lock.json package.json
	npm ci --no-audit --no-fund >&2
	@# Examples resolve `pulumi-krcloud` to this working tree, as an installed package would be.
	ln -sfn .. node_modules/pulumi-krcloud
	touch $@

install: node_modules/.installed

# Incremental: tsc runs only when a source is newer than its last run (dist/tsconfig.tsbuildinfo, not
# shipped), and then recompiles only what changed.
TS_SOURCES := $(shell find index.ts client provider local-cloud drift policy bin tools bench tests \( -path tests/programs -o -path local-cloud/console/ui -o -path local-cloud/core/wire -o -path drift/formats/html-ui \) -prune -o -type f \( -name '*.ts' -o -name '*.json' \) -print)
# The JSON shapes the local cloud and its console page share (local-cloud/core/wire): a project both
# reference, so its declarations come first.
WIRE_SOURCES := $(wildcard local-cloud/core/wire/*.ts local-cloud/core/wire/tsconfig.json)
dist/tsconfig.wire.tsbuildinfo: node_modules/.installed $(WIRE_SOURCES) tsconfig.browser.json
	node node_modules/.bin/tsc -p local-cloud/core/wire >&2 || { rm -f $@; exit 1; }
	@touch $@

# tsc writes its build info even when it reports errors: removed then, so the next make runs it again.
dist/tsconfig.tsbuildinfo: node_modules/.installed tsconfig.json $(TS_SOURCES) dist/tsconfig.wire.tsbuildinfo
	node node_modules/.bin/tsc -p tsconfig.json >&2 || { rm -f $@; exit 1; }
	@touch $@

# pulumi-krcloud/native (its entry native.ts and sdk/nodejs/, generated by make sdks) with its own
# tsconfig, into dist/native.js and dist/sdk/nodejs. The generated utilities.js reads the plugin
# version from ./package.json beside it (the generator's own package copies its package.json beside
# its compiled code): written here with the package's version.
NATIVE_SOURCES := native.ts $(shell find sdk/nodejs -type f \( -name '*.ts' -o -name '*.json' \) -print)
dist/tsconfig.native.tsbuildinfo: dist/tsconfig.tsbuildinfo tsconfig.native.json package.json $(NATIVE_SOURCES)
	node node_modules/.bin/tsc -p tsconfig.native.json >&2 || { rm -f $@; exit 1; }
	node -e 'const fs = require("fs"); fs.writeFileSync("dist/sdk/nodejs/package.json", JSON.stringify({ version: require("./package.json").version }) + "\n")'
	@touch $@

# The pages a browser runs (the local cloud's console, the drift report's script): their own tsconfig
# each (browser globals, ES modules), compiled into dist/ beside the code that serves or inlines them.
CONSOLE_UI_SOURCES := $(wildcard local-cloud/console/ui/*.ts local-cloud/console/ui/tsconfig.json)
dist/tsconfig.console.tsbuildinfo: node_modules/.installed $(CONSOLE_UI_SOURCES) tsconfig.browser.json dist/tsconfig.wire.tsbuildinfo
	node node_modules/.bin/tsc -p local-cloud/console/ui >&2 || { rm -f $@; exit 1; }
	@touch $@

DRIFT_HTML_SOURCES := $(wildcard drift/formats/html-ui/*.ts drift/formats/html-ui/tsconfig.json)
dist/tsconfig.drift-html.tsbuildinfo: node_modules/.installed $(DRIFT_HTML_SOURCES) tsconfig.browser.json
	node node_modules/.bin/tsc -p drift/formats/html-ui >&2 || { rm -f $@; exit 1; }
	@touch $@

build: dist/tsconfig.tsbuildinfo dist/tsconfig.native.tsbuildinfo dist/tsconfig.console.tsbuildinfo dist/tsconfig.drift-html.tsbuildinfo

# Type-aware eslint (no-floating-promises, no-misused-promises, unused code, ...) and prettier on the
# code, then the Go checks.
lint: install go-check
	node node_modules/.bin/eslint .
	node node_modules/.bin/prettier --check --log-level warn .

# gofmt -l, go vet ./... and go test ./... on every Go module under go/ (scripts/go-check.sh).
go-check:
	bash scripts/go-check.sh

format: install
	node node_modules/.bin/prettier --write --log-level warn .

schema: build
	node dist/tools/gen-schema.js > schema.json
	@# Each reference page's YAML example converted to TypeScript, Python and Go into a temporary
	@# folder, which the pages are written from (the conversions are kept in docs/reference only).
	examples=$$(mktemp -d); trap 'rm -rf "$$examples"' EXIT; \
	bash scripts/gen-examples.sh "$$examples/converted"; \
	node dist/tools/gen-reference.js schema.json docs/reference "$$examples/converted"
	@# The dynamic classes' args types (provider/<module>/args.ts) from the new schema.json, then compiled.
	node dist/tools/gen-args.js
	$(MAKE) build

# The native provider plugin, runnable without the repository; install it with
# `pulumi plugin install resource krcloud <version> -f <absolute path to the tarball>`, and krcloud-drift
# for any language's project with `pulumi plugin install tool krcloud-drift <version> -f <its tarball>`.
plugin: build
	node dist/tools/pack-plugin.js

# The npm package as `npm publish` would upload it, into $(STATE)/pack/; the only line on stdout is
# the tarball's absolute path, so a project elsewhere installs it with
#   npm install "$$(make -s -C <path to this repository> pack)"
pack: build
	@mkdir -p $(STATE)/pack
	@rm -f $(STATE)/pack/*.tgz
	@file=$$(npm pack --ignore-scripts --silent --pack-destination $(STATE)/pack | tail -n1); echo "$(STATE)/pack/$$file"

# For your shell: eval "$$(make -s env)" puts Node 24 (from node_modules), pulumi and
# pulumi-language-yaml first on PATH, building the CLI and the YAML host once when they are missing
# and nothing else; the directories of the Python, Go and Java hosts go on PATH too, for when
# `make pulumi-languages` or `make pulumi-java` has built them.
env: install
	@pulumi_bin=$$(bash scripts/install-go-tool.sh pulumi | tail -n1); yaml_bin=$$(bash scripts/install-go-tool.sh pulumi-yaml | tail -n1); \
	printf 'export PATH="%s:%s:%s:%s:%s:$$PATH"\nexport PULUMI_SKIP_UPDATE_CHECK=true\n' "$(NODE24_BIN)" "$$pulumi_bin" "$$yaml_bin" "$(PULUMI_LANGUAGES_BIN)" "$(PULUMI_JAVA_BIN)"

# The Pulumi CLI with the Node.js host (built once into $(TOOLS_DIR), unless a recent one is on PATH).
pulumi:
	bash scripts/install-go-tool.sh pulumi

# The YAML language host, for YAML programs on the native plugin (built once, cached in $(TOOLS_DIR)).
pulumi-yaml:
	bash scripts/install-go-tool.sh pulumi-yaml

# The Python and Go language hosts, for Python and Go programs on the native plugin (built once, cached in $(TOOLS_DIR)).
pulumi-languages:
	bash scripts/install-go-tool.sh pulumi-languages

# Pulumi's Java language host and Java SDK generator (built once, cached in $(TOOLS_DIR)).
pulumi-java:
	nice -n 10 bash scripts/install-go-tool.sh pulumi-java

# The Swift peer for the conformance tests, started and left running (stop: bash scripts/swift-peer.sh stop).
swift:
	bash scripts/swift-peer.sh start

# Debian's redis-server and redis-cli: the cache local cloud runs one redis-server per node where it finds one.
redis:
	bash scripts/redis.sh

# Debian's chromium, driven headless by the browser tests (tests/browser: the console, the drift report's page).
chromium:
	bash scripts/chromium.sh

# Real PostgreSQL 15 and MariaDB 10.11 on loopback for the data query real-server tests (installed by apt
# if missing), started and left running (stop: bash scripts/sql-peers.sh stop).
sql-peers:
	bash scripts/sql-peers.sh start >/dev/null

# The whole suite, after the linters and the benchmarks' smoke run (make bench-smoke). redis-server and the Go-built tools are installed first; Swift and
# PostgreSQL/MariaDB are started by scripts/with-peers.sh, which stops what it started (and whatever
# the tests left running: local clouds, redis-server nodes) when the suite ends or is interrupted, and
# leaves running what ran before. The last line jest prints is "N passed, N failed"
# (tests/support/summary-reporter.js; when a test failed, make adds its own "Error" line after it).
test: lint build pulumi pulumi-yaml pulumi-languages pulumi-java redis chromium bench-smoke
	bash scripts/with-peers.sh swift sql -- node node_modules/.bin/jest --ci

# The console and the drift report's page in headless Chromium, after the demo's stacks are up; screenshots in $(STATE)/browser/.
test-browser: build pulumi redis chromium
	node node_modules/.bin/jest --ci dist/tests/browser

test-unit: build
	bash scripts/with-peers.sh -- node node_modules/.bin/jest --ci dist/tests/unit

# The providers and the client against the local cloud (tests/local), and the local cloud itself (tests/local-cloud).
test-local: build redis
	bash scripts/with-peers.sh sql -- node node_modules/.bin/jest --ci dist/tests/local dist/tests/local-cloud

# The local cloud alone, over HTTP: its APIs, control API, malformed requests, redis-server nodes, make targets.
test-local-cloud: build redis
	bash scripts/with-peers.sh -- node node_modules/.bin/jest --ci dist/tests/local-cloud

test-conformance: build
	bash scripts/with-peers.sh swift -- node node_modules/.bin/jest --ci dist/tests/conformance

test-engine: build pulumi pulumi-yaml pulumi-languages pulumi-java redis
	bash scripts/with-peers.sh -- node node_modules/.bin/jest --ci dist/tests/engine

# The install steps: the Go-built tools' builds (counted with a stand-in go), the package manager's
# lock, the vet step of make sdks on a cold module cache, and what make test stops (about 2 minutes).
test-install: build
	bash scripts/with-peers.sh -- node node_modules/.bin/jest --ci dist/tests/install

local-cloud: build redis
	bash scripts/local-cloud.sh run

local-cloud-start: build redis
	bash scripts/local-cloud.sh start

local-cloud-stop:
	bash scripts/local-cloud.sh stop

demo: build pulumi local-cloud-start
	bash scripts/demo.sh up

demo-destroy: build pulumi local-cloud-start
	bash scripts/demo.sh destroy

# Python, Go and Java SDKs generated from schema.json into sdk/ (ignored; the Java one also built
# and installed into the local Maven repository with mvn), and the TypeScript SDK into
# sdk/nodejs/ (committed: the source of pulumi-krcloud/native; tests/engine/native-ts.test.ts fails when it is stale).
sdks: schema pulumi-java
	KRCLOUD_SDK_JAVA=1 bash scripts/gen-sdks.sh
	$(MAKE) build

bench: build pulumi pulumi-yaml pulumi-languages pulumi-java redis
	node --expose-gc dist/bench/index.js

# Every study of make bench at a tiny size (bench/index.ts --smoke), writing nothing: a study that no
# longer runs (a moved entry, a changed API) fails here instead of at the next make bench.
bench-smoke: build pulumi pulumi-yaml pulumi-languages pulumi-java redis
	node --expose-gc dist/bench/index.js --smoke

# 10,000 buckets through each door beside its floor (native Python has none); writes its section of docs/benchmarks.md.
bench-scale: build pulumi pulumi-yaml pulumi-languages pulumi-java
	node dist/bench/scale/index.js --sizes 10000 --write

clean:
	rm -rf dist

# The local cloud is stopped first (its redis-server nodes with it): its files are never removed
# from under it. node_modules/ and the Pulumi CLI in $(TOOLS_DIR) stay; a plugin installed with
# `pulumi plugin install` is removed with `pulumi plugin rm resource krcloud --yes`.
clean-all: clean
	bash scripts/local-cloud.sh stop
	rm -rf $(STATE) sdk/python sdk/go sdk/java
	@echo "removed dist/, sdk/python, sdk/go, sdk/java and $(STATE)/; kept node_modules/ and $(TOOLS_DIR) (rm -rf them to remove them too)"
