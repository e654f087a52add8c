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
PULUMI_BIN  := $(TOOLS_DIR)/pulumi-v3.259.0/bin
PULUMI_YAML_BIN := $(TOOLS_DIR)/pulumi-language-yaml-v1.13.0/bin
LOCAL_CLOUD_PORT ?= 8790
export PATH := $(NODE24_BIN):$(ROOT)/node_modules/.bin:$(PULUMI_BIN):$(PULUMI_YAML_BIN):$(ROOT)/node_modules/@pulumi/pulumi:$(PATH)
export PULUMI_SKIP_UPDATE_CHECK := true
export PULUMI_HOME ?= $(STATE)/pulumi-home
export KRCLOUD_TOOLS_DIR := $(TOOLS_DIR)
export KRCLOUD_STATE_DIR := $(STATE)
export LOCAL_CLOUD_PORT

.PHONY: help install build lint format sql-peers redis test test-unit test-local test-engine test-conformance pulumi pulumi-yaml swift \
        local-cloud local-cloud-start local-cloud-stop demo demo-destroy bench schema plugin pack env sdks clean

help:
	@echo "make demo        install, start the local cloud, pulumi up the demo stack, print outputs"
	@echo "make test        install everything and run every test (unit, local cloud, conformance, engine)"
	@echo "make local-cloud run the local cloud in the foreground (port $(LOCAL_CLOUD_PORT))"
	@echo "make bench       run the benchmarks and print their figures"
	@echo "make lint        eslint (type-aware) and prettier --check; make test runs it first"
	@echo "make schema      regenerate schema.json"
	@echo "make sdks        generate the Python and Go SDKs from schema.json into sdk-gen/"
	@echo "make plugin      pack the native provider plugin pulumi-resource-krcloud (directory + tarball under .state/plugin/)"
	@echo "make pack        build the npm package's tarball; prints its path (npm install \"\$$(make -s -C <this dir> pack)\")"
	@echo "eval \"\$$(make -s env)\"   put Node 24, pulumi and pulumi-language-yaml first on PATH in your shell"

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
TS_SOURCES := $(shell find index.ts sdk provider emulator drift bin tools tests -path tests/programs -prune -o -type f \( -name '*.ts' -o -name '*.json' \) -print)
# tsc writes its build info even when it reports errors: removed then, so the next make runs it again.
dist/tsconfig.tsbuildinfo: node_modules/.installed tsconfig.json $(TS_SOURCES)
	node node_modules/.bin/tsc -p tsconfig.json >&2 || { rm -f $@; exit 1; }
	@touch $@

build: dist/tsconfig.tsbuildinfo

# Type-aware eslint (no-floating-promises, no-misused-promises, unused code, ...) and prettier on the code.
lint: install
	node node_modules/.bin/eslint .
	node node_modules/.bin/prettier --check --log-level warn .

format: install
	node node_modules/.bin/prettier --write --log-level warn .

schema: build
	node dist/tools/gen-schema.js > schema.json
	node dist/tools/gen-reference.js

# The native provider plugin, runnable without the repository; install it with
# `pulumi plugin install resource krcloud <version> -f <absolute path to the tarball>`.
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
# pulumi-language-yaml first on PATH, building the CLI and the YAML host once when they are missing.
env: install
	@pulumi_bin=$$(bash scripts/install-pulumi.sh | tail -n1); yaml_bin=$$(bash scripts/install-pulumi-yaml.sh | tail -n1); \
	printf 'export PATH="%s:%s:%s:$$PATH"\nexport PULUMI_SKIP_UPDATE_CHECK=true\n' "$(NODE24_BIN)" "$$pulumi_bin" "$$yaml_bin"

pulumi:
	bash scripts/install-pulumi.sh

# The YAML language host, for YAML programs on the native plugin (built once, cached in $(TOOLS_DIR)).
pulumi-yaml:
	bash scripts/install-pulumi-yaml.sh

swift:
	bash scripts/swift-peer.sh start

# Debian's redis-server and redis-cli: the cache local cloud runs one redis-server per node where it finds one.
redis:
	bash scripts/redis.sh

# Real PostgreSQL 15 and MariaDB 10.11 on loopback for the data query real-server tests (installed by apt if missing).
sql-peers:
	bash scripts/sql-peers.sh start >/dev/null

# The whole suite, after the linters. Swift, PostgreSQL/MariaDB, redis-server and the Pulumi CLI are installed/started first; the last line jest prints
# is "N passed, N failed" (tests/support/summary-reporter.js; when a test failed, make adds its own "Error" line after it).
test: lint build pulumi pulumi-yaml swift sql-peers redis
	eval "$$(bash scripts/swift-peer.sh env)"; export KRCLOUD_SWIFT_AUTH_URL KRCLOUD_SWIFT_USER KRCLOUD_SWIFT_KEY; \
	eval "$$(bash scripts/sql-peers.sh env)"; export KRCLOUD_PG_URL KRCLOUD_MARIADB_URL; \
	node node_modules/.bin/jest --ci

test-unit: build
	node node_modules/.bin/jest --ci dist/tests/unit

test-local: build sql-peers redis
	eval "$$(bash scripts/sql-peers.sh env)"; export KRCLOUD_PG_URL KRCLOUD_MARIADB_URL; \
	node node_modules/.bin/jest --ci dist/tests/local

test-conformance: build swift
	eval "$$(bash scripts/swift-peer.sh env)"; export KRCLOUD_SWIFT_AUTH_URL KRCLOUD_SWIFT_USER KRCLOUD_SWIFT_KEY; \
	node node_modules/.bin/jest --ci dist/tests/conformance

test-engine: build pulumi pulumi-yaml redis
	node node_modules/.bin/jest --ci dist/tests/engine

local-cloud: build redis
	node dist/bin/krcloud-local-cloud.js --port $(LOCAL_CLOUD_PORT) --persist $(STATE)/local-cloud-data.json --state-file $(STATE)/local-cloud.json

local-cloud-start: build redis
	bash scripts/local-cloud.sh start

local-cloud-stop:
	bash scripts/local-cloud.sh stop

demo: build pulumi local-cloud-start
	bash scripts/demo.sh up

demo-destroy: build pulumi local-cloud-start
	bash scripts/demo.sh destroy

# Python and Go SDKs generated from schema.json into sdk-gen/ (ignored).
sdks: schema
	bash scripts/gen-sdks.sh

bench: build pulumi pulumi-yaml redis
	node --expose-gc dist/tools/bench.js

clean:
	rm -rf dist
