# Belay: the two set-up commands are `make run` and `make test`.
SWIFT ?= swift
CONFIG ?= config.json

.PHONY: run test build release deps test-deps bench clean

## What building and serving need (and nothing a server does not run).
deps:
	@scripts/install-deps

## What the test suite starts besides: a throwaway PostgreSQL cluster, headless Chromium (and
## chromium-driver, through which Selenium drives it in the console walks),
## nginx, Python's venv for the reference libraries the tests check Belay against, and
## zbarimg to read the kiosk's QR code back from a screenshot, and file for the README's walkthroughs.
test-deps:
	@scripts/install-deps postgresql chromium chromium-driver nginx python3 python3-venv time zbar-tools file

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## Runs the server on its embedded default: ./data, migrations applied, hold catalogue loaded.
run: release
	.build/release/belay serve --config $(CONFIG)

## Runs the whole test suite (unit, CLI, end-to-end and fault tests) on SQLite, then every
## suite that touches the database again on a throwaway PostgreSQL cluster the tests start
## themselves (the rest, such as the renderer's, do not depend on the engine).
## First, each target's dependencies in Package.swift must be exactly the modules it imports:
## scripts/check-module-graph checks it, since SwiftPM 6.3 accepts the build's import-check
## flag without reporting anything.
test: deps test-deps
	SWIFT=$(SWIFT) scripts/check-module-graph
	$(SWIFT) build --build-tests --explicit-target-dependency-import-check error
	$(SWIFT) test --skip-build
	TEST_DATABASE_ENGINE=postgresql $(SWIFT) test --skip-build \
	  --filter 'BelayDomainTests|BelayPipelineTests|BelayWebhooksTests|BelayPushTests|BelayAPITests|BelayCLITests'

## Runs every benchmark under bench/ and prints the comparisons.
bench: release
	bench/render
	bench/http
	bench/backfill

clean:
	$(SWIFT) package clean
