# krcloud: every target installs what it needs. Node >= 22 is required; where the machine's Node is
# older, the Node 24 shipped by the npm package `node@24` (a devDependency) is put first on PATH.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

ROOT        := $(CURDIR)
STATE       := $(ROOT)/.state
NODE24_BIN  := $(ROOT)/node_modules/node/bin
TOOLS_DIR   ?= $(HOME)/.cache/krcloud
PULUMI_BIN  := $(TOOLS_DIR)/pulumi-v3.259.0/bin
PULUMI_YAML_BIN := $(TOOLS_DIR)/pulumi-language-yaml-v1.13.0/bin
LOCAL_CLOUD_PORT ?= 8790
export PATH := $(NODE24_BIN):$(ROOT)/node_modules/.bin:$(PULUMI_BIN):$(PULUMI_YAML_BIN):$(ROOT)/node_modules/@pulumi/pulumi:$(PATH)
export PULUMI_SKIP_UPDATE_CHECK := true
export PULUMI_HOME ?= $(STATE)/pulumi-home
export KRCLOUD_TOOLS_DIR := $(TOOLS_DIR)

.PHONY: help install build lint format sql-peers redis test test-unit test-local test-engine test-conformance pulumi pulumi-yaml swift \
        local-cloud local-cloud-start local-cloud-stop demo demo-destroy bench schema plugin sdks clean

help:
	@echo "make demo        install, start the local cloud, pulumi up the demo stack, print outputs"
	@echo "make test        install everything and run every test (unit, local cloud, conformance, engine)"
	@echo "make local-cloud run the local cloud in the foreground (port $(LOCAL_CLOUD_PORT))"
	@echo "make bench       run the benchmarks and print their figures"
	@echo "make lint        eslint (type-aware) and prettier --check; make test runs it first"
	@echo "make schema      regenerate schema.json"
	@echo "make sdks        generate the Python and Go SDKs from schema.json into sdk-gen/"
	@echo "make plugin      pack the native provider plugin pulumi-resource-krcloud (directory + tarball under .state/plugin/)"

# npm ci from the committed lockfile, re-run only when the lockfile changes.
node_modules/.installed: package-lock.json package.json
	npm ci --no-audit --no-fund
	@# Examples resolve `pulumi-krcloud` to this working tree, as an installed package would be.
	ln -sfn .. node_modules/pulumi-krcloud
	touch $@

install: node_modules/.installed

build: install
	node node_modules/.bin/tsc -p tsconfig.json

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

# The whole suite, after the linters. Swift, PostgreSQL/MariaDB, redis-server and the Pulumi CLI are installed/started first; the last line is "N passed, N failed".
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
