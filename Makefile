# looplab: the two commands are `make test` and `make report`.
# Everything else here is a step of those two, runnable on its own.

SHELL := /bin/bash
STAGE_DIRS := $(patsubst stages/%/stage.toml,%,$(wildcard stages/*/stage.toml))
# make report STAGES=09,10: only those stages (empty: all of them).
STAGES ?=
# The report needs matplotlib and uvloop, which Debian packages for its own python3.
REPORT_PYTHON ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
QUICK ?=
# The example HTTP server of the newest stage (examples/http/): http_server_s10.
NEWEST := s$(firstword $(subst _, ,$(lastword $(STAGE_DIRS))))
HTTP_SERVER := http_server_$(NEWEST)
NPROC := $(shell nproc)
# Tests run in parallel: none depends on timing (the virtual clock) or shares state.
CTEST_FLAGS ?= --output-on-failure --parallel $(NPROC)

.PHONY: help test report deps check-stages test-tools lint format build-dev test-dev test-newest test-clang test-tsan \
        test-export check-assignments assignment autograder book book-check reference-report check-kqueue clean

help:
	@echo "make test          everything CI checks: stage copies, lint, g++ ASan+UBSan, clang, TSan, exports"
	@echo "make report        benchmarks against CPython asyncio and uvloop -> build/report/index.html"
	@echo "make report QUICK=1  a short version of the report"
	@echo "make report STAGES=09,10  only those stages, on the workloads each introduces"
	@echo "make test-dev      just the everyday build and its tests (g++, ASan+UBSan), every stage"
	@echo "make assignment STAGE=NN [OUT=dir] [LAB=0]  write the starter project of assignment NN"
	@echo "                   (LAB=0: without its extension lab)"
	@echo "make autograder STAGE=NN [HIDDEN=dir]  Gradescope's autograder -> build/autograder-NN/autograder.zip"
	@echo "make book          the book (Doxygen 1.9.4) -> build/book/html/index.html"
	@echo "make book EDITION=course  the course edition: each region a student writes shown as the task"
	@echo "                   -> build/book-course/html/index.html"
	@echo "make reference-report  after a full make report: its figures become the book's reference"
	@echo "make book-check    both editions, checked in headless Chromium: snippets, diagrams, navigation,"
	@echo "                   no solution in the course edition, no task in the reader's, screenshots"
	@echo "make format        apply .clang-format to every C++ file"
	@echo "make check-kqueue  the kqueue backend against an installed libkqueue (skipped without one)"

deps:
	@tools/install-deps build

# Each stage exported alone is built and tested by check-assignments (its
# starter is that export with the regions stubbed, and its reference the
# export itself), so test-export is not repeated here; it stays for checking
# an export by hand. g++ with ASan+UBSan runs every stage's tests once: the
# newest stage's in test-newest (they hold every group's tests, with the
# CPython twins and the benchmark smoke), each older stage's in its assignment
# check: all of its graded tests on the starter, then on the reference the
# ones the starter failed (the code they reach through the regions). test-dev,
# the learner's build of every stage, would compile and run them all a second time.
test: deps check-stages test-newest test-clang lint test-tsan check-assignments
	@echo "make test: all checks passed"

check-stages:
	tools/stage check

# The Python tools' unit tests (also run by ctest, label `tools`).
test-tools:
	PYTHONPATH=tools:comparisons python3 -m unittest discover -s tests/tools

build-dev:
	cmake --preset dev
	cmake --build --preset dev

test-dev: build-dev
	ctest --preset dev $(CTEST_FLAGS)

test-newest:
	cmake --preset newest
	cmake --build --preset newest
	ctest --preset newest $(CTEST_FLAGS)

# clang with ASan+UBSan: every stage's code is compiled, and the newest
# stage's tests run (they hold every group's tests).
# The CPython twins do not depend on the compiler: run once, in test-newest;
# nor does running each benchmark once (g++'s ASan build and the release
# build's report do; clang compiles them).
test-clang:
	cmake --preset clang
	cmake --build --preset clang
	ctest --preset clang $(CTEST_FLAGS) -LE 'cpython|tools|bench_smoke'

# ThreadSanitizer on the newest stage, for the test groups that start
# threads (found by what their files call: chapter 1's debug checks,
# chapter 4's thread moves, the differential tester's threads, chapters 9
# and 10, ...), and the scenarios (one program for every group): a test
# with one thread gives TSan nothing to see. The preset compiles with -g1
# (line tables: TSan's reports keep file and line); full debug information
# at -O2 took 40% of the compile time.
THREAD_CALLS := std::thread|jthread|to_thread|run_in_executor|call_soon_threadsafe|getaddrinfo|run_coroutine_threadsafe
TSAN_GROUPS := $(sort $(foreach f,$(shell grep -lE '$(THREAD_CALLS)' tests/*/*.cpp),$(word 2,$(subst /, ,$(f)))))
empty :=
space := $(empty) $(empty)
test-tsan:
	cmake --preset tsan
	cmake --build --preset tsan --target scenarios_$(NEWEST) \
	  $(foreach g,$(TSAN_GROUPS),$(if $(filter differential,$(g)),differential_$(NEWEST),tests_$(NEWEST)_$(g)))
	ctest --preset tsan $(CTEST_FLAGS) -LE 'cpython|tools' -L 'feature_($(subst $(space),|,$(TSAN_GROUPS)))'

# Each stage exported alone must build and pass its own tests (tools/stage export).
# pipefail: a failing ctest must not hide behind the tail that shortens its output.
test-export:
	@set -eo pipefail; for stage in $(STAGE_DIRS); do \
	  nn=$${stage:0:2}; dir=build/export/$$stage; rm -rf $$dir; \
	  tools/stage export $$nn $$dir >/dev/null; \
	  cmake -S $$dir -B $$dir/build -G Ninja -DCMAKE_BUILD_TYPE=Release -DLOOPLAB_BUILD_BENCH=OFF >/dev/null; \
	  cmake --build $$dir/build >/dev/null; \
	  (cd $$dir/build && ctest -LE cpython --output-on-failure | tail -n 3); \
	done

# Every stage's assignment: the reference gets full marks, the starter builds,
# passes the earlier stages' tests, fails some new ones, gets partial marks.
check-assignments:
	@set -e; for stage in $(STAGE_DIRS); do tools/assignment check $${stage:0:2}; done
	tools/assignment check-autograder 01

STAGE ?=
OUT ?= build/assignment-$(STAGE)
assignment:
	@test -n "$(STAGE)" || { echo "usage: make assignment STAGE=NN [OUT=dir] [LAB=0]"; exit 2; }
	rm -rf $(OUT)
	tools/assignment make $(STAGE) $(OUT) $(if $(filter 0,$(LAB)),--no-lab)

# Gradescope's autograder of assignment NN: build/autograder-NN/autograder.zip.
autograder:
	@test -n "$(STAGE)" || { echo "usage: make autograder STAGE=NN [HIDDEN=dir]"; exit 2; }
	tools/assignment autograder $(STAGE) build/autograder-$(STAGE) $(if $(HIDDEN),--hidden $(HIDDEN))

CXX_SOURCES = $(shell git ls-files -co --exclude-standard -- '*.cpp' '*.hpp' | grep -v '^build/')
TIDY_CANDIDATES = $(wildcard stages/*/src/*.cpp stages/*/src/plumbing/*.cpp stages/*/assignment/lab/src/*.cpp stages/*/demo/*.cpp common/src/*.cpp common/faults/*.cpp bench/*/*.cpp)
# A stage repeats most of its parent's files word for word (tools/stage keeps
# the copies identical): clang-tidy reads each distinct file once, in the
# newest stage that holds it (177 files, 70 distinct, at stage 10).
TIDY_SOURCES = $(shell printf '%s\n' $(TIDY_CANDIDATES) | sort -r | xargs md5sum | awk '!seen[$$1]++ {print $$2}' | sort)

# One formatting and lint configuration for every stage. clang-tidy reads the clang build's compile commands.
PY_SOURCES = $(shell git ls-files -co --exclude-standard -- '*.py' | grep -v '^build/')
SHELL_SCRIPTS = .ci/run tools/install-deps tools/stage tools/assignment tools/book book/assignments/gradescope/setup.sh book/assignments/gradescope/run_autograder

lint:
	clang-format --dry-run --Werror $(CXX_SOURCES)
	flake8 $(PY_SOURCES)
	shellcheck $(SHELL_SCRIPTS)
	@test -f build/clang/compile_commands.json || cmake --preset clang >/dev/null
	printf '%s\n' $(TIDY_SOURCES) | xargs -P $(NPROC) -n 8 clang-tidy -p build/clang --quiet 2>&1 \
	  | grep -v 'warnings generated' ; exit $${PIPESTATUS[1]}

format:
	clang-format -i $(CXX_SOURCES)

# The book: lint the snippet markers, build and run the demos (in build/release
# if make report made it, else build/book-demos),
# generate diffs and benchmark tables (from build/report if `make report` ran),
# then Doxygen, which must not warn. Not part of `make test`. Two editions from
# the same sources: the reader's (default) and the course edition, which shows
# each region a student writes as the student's task.
EDITION ?= reader
book:
	@tools/install-deps book
	tools/book build --edition $(EDITION)

book-check:
	@tools/install-deps book
	tools/book build --edition reader
	@# Then the reader's browser check beside the course edition's build and
	@# check (the demos are built by now): Doxygen runs on one core, and the
	@# check starts Chromium once a page and waits on it; CI has two cores.
	tools/book check-browser --edition reader & reader=$$!; status=0; \
	  { tools/book build --edition course && tools/book check-browser --edition course; } || status=$$?; \
	  wait $$reader || status=$$?; exit $$status

# QUICK=1 smokes every benchmark once: an older stage's bench_sNN then holds
# only the groups it introduces (the newest has all), half the build.
report:
	@tools/install-deps report
	cmake --preset release -DLOOPLAB_BENCH_GROUPS=$(if $(QUICK),introduced,all)
	@# A cache CMake had to delete and re-run (a compiler changed) loses the preset's
	@# values: refuse to benchmark a build that is not optimised.
	@grep -q '^CMAKE_BUILD_TYPE:STRING=Release$$' build/release/CMakeCache.txt || \
	  { echo "report: build/release is not a Release build (stale cache?): rm -rf build/release and run again"; exit 1; }
	cmake --build --preset release
	$(REPORT_PYTHON) comparisons/report.py --build-dir build/release --out build/report $(if $(QUICK),--quick) \
	  $(if $(STAGES),--stages $(STAGES))
	@# The example HTTP server under wrk against asyncio, uvloop and nginx, and its soak.
	$(REPORT_PYTHON) comparisons/http/http_bench.py --server build/release/bin/$(HTTP_SERVER) \
	  --out build/report/http --report build/report $(if $(QUICK),--quick)
	@# What the report does not run, once (make test builds only the newest stage's):
	@# the labs' benchmarks, every stage's echo server under the echo client, and
	@# the HTTP server out of descriptors (a real EMFILE, impossible under sanitizers).
	$(if $(QUICK),ctest --test-dir build/release --output-on-failure -R '\.lab\.bench_smoke|^comparisons\.(tcp_echo_smoke|http_emfile)')
	@echo "report: build/report/index.html and build/report/report.md"

# The book's reference figures, used where no local report exists: copied
# from a full `make report` (run it on a quiet machine first). Data only:
# the summaries, the header (date, machine) and the charts. A run of some
# stages (`make report STAGES=09,10`) is merged into it instead: its
# workloads' figures replace theirs, the rest stays as the full run measured it.
reference-report:
	@test -f build/report/header.json || { echo "reference-report: run make report first"; exit 1; }
	@grep -q '"mode": "full' build/report/header.json || \
	  { echo "reference-report: build/report is a QUICK=1 run: run a full make report"; exit 1; }
	@if grep -q '"stages":' build/report/header.json; then \
	  cd comparisons && $(REPORT_PYTHON) -c 'import sys; from pathlib import Path; \
	    from looplab_report.partial import merge_into_reference; \
	    print("\n".join(merge_into_reference(Path("../build/report"), Path("../book/reference-report"))))'; \
	else \
	  rm -rf book/reference-report && mkdir -p book/reference-report && \
	  cp build/report/summary.json build/report/implementations.json build/report/header.json book/reference-report/ && \
	  cp -r build/report/charts book/reference-report/; \
	fi

# kqueue against a real implementation (on Linux, libkqueue found by pkg-config;
# PKG_CONFIG_PATH may point at one installed anywhere): the newest stage built
# over it, then its kqueue-parameterised tests, every scenario twin and the
# differential tester with LOOPLAB_SELECTOR=kqueue. Without libkqueue it says
# so and does nothing: CI's kqueue runs use common/kqueue_shim instead. The
# scenario sock_connect_refused is left out: libkqueue clears the socket error
# the program must read (chapter 4, "kqueue on Linux").
check-kqueue:
	@if ! pkg-config --exists libkqueue; then \
	  echo "check-kqueue: skipped: pkg-config finds no libkqueue (install it, or set PKG_CONFIG_PATH)"; \
	  exit 0; fi; \
	set -e; echo "check-kqueue: libkqueue $$(pkg-config --modversion libkqueue)"; \
	cmake -S . -B build/kqueue -G Ninja -DCMAKE_BUILD_TYPE=Debug -DLOOPLAB_SANITIZE=address,undefined \
	  -DLOOPLAB_STAGES=latest -DLOOPLAB_BUILD_BENCH=OFF >/dev/null; \
	grep -q 'LIBKQUEUE_FOUND:INTERNAL=1' build/kqueue/CMakeCache.txt || \
	  { echo "check-kqueue: CMake did not pick libkqueue up"; exit 1; }; \
	cmake --build build/kqueue; \
	cd build/kqueue && LOOPLAB_SELECTOR=kqueue ctest $(CTEST_FLAGS) -R 'kqueue|scenario|differential' \
	  -LE 'cpython|backend_epoll|backend_io_uring' -E 'sock_connect_refused'

clean:
	rm -rf build
