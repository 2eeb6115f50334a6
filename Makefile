# perfdump: dump and inspect Linux perf.data files.
#
#   make            build ./perfdump
#   make demo       install build deps if missing, build, show a sample
#   make check      install test deps if missing, build, run every test
#   make SANITIZE=1 build with AddressSanitizer + UBSan (into build-asan/)
#   make SANITIZE=thread  build with ThreadSanitizer (into build-tsan/:
#                   the parallel walk, tests/parallel.bats)
#   make install    PREFIX=/usr/local DESTDIR=
.SUFFIXES:

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
# where bash-completion loads completions from on first use
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
CC ?= cc
PKG_CONFIG ?= pkg-config

WARN = -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
       -Wformat=2 -Wno-format-nonliteral -Wvla
CFLAGS ?= -O2 -g
# -Isrc: every include names a header by its path from src/ ("lib/io/reader.h")
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Isrc $(WARN) $(CFLAGS) \
	     $(PKG_CFLAGS)
PKGS = libelf libdw libzstd liblzma zlib libprotobuf-c
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
# The C++ runtime's demangler, abi::__cxa_demangle from libstdc++ (it has C
# linkage: src/lib/analysis/demangle.c).  libstdc++ has no pkg-config file:
# it is linked by file name from the compiler's own directory, where gcc's
# and clang's drivers both look (Debian's libstdc++-12-dev, which
# scripts/install-deps.sh installs).  The archive, so that only the
# demangler's object comes in (55 KB, no dependency): a run that loaded
# libstdc++.so.6 took 3.5 ms more CPU at its start (header on a fixture:
# 14.0 ms, not 10.5), and LeakSanitizer scanned its globals at every exit
# (SANITIZE=1: 5 ms more).  The libFuzzer build links libstdc++.so.6 for
# libFuzzer itself, whose __cxa_demangle (the same code) it then takes.
CXXRT_LIBS = -l:libstdc++.a
LDLIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo -ldw -lelf -lzstd -llzma -lz -lprotobuf-c) \
	 $(CXXRT_LIBS)

ifeq ($(SANITIZE),1)
BUILD ?= build-asan
# clang, as the fuzz build: its sanitizer runtime is linked in, so a run
# loads no libubsan and no libstdc++, whose globals LeakSanitizer scanned
# at every exit (a run of header on a fixture: gcc's build 71 ms, clang's
# 55 ms, the normal build 7 ms)
ifeq ($(origin CC),default)
CC = clang
endif
# float-cast-overflow: part of clang's "undefined" (the fuzz build), not gcc's
ALL_CFLAGS += -O1 -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined,float-cast-overflow
else ifeq ($(SANITIZE),thread)
BUILD ?= build-tsan
ifeq ($(origin CC),default)
CC = clang
endif
ALL_CFLAGS += -O1 -fsanitize=thread -fno-omit-frame-pointer
LDFLAGS += -fsanitize=thread
else
BUILD ?= build
endif

SRCS = $(wildcard src/*.c src/lib/*/*.c src/fmt/*.c)
# The .proto files (export --to pprof's profile.proto), compiled by
# protoc-c (Debian protobuf-c-compiler) into $(BUILD)/gen/ at build time:
# lib/export/profile.pb-c.[ch], included by that path (-I$(BUILD)/gen),
# never committed nor formatted.  Every object waits for the headers.
PROTOS = $(wildcard src/lib/*/*.proto)
PROTOC_C ?= protoc-c
GEN_OBJS = $(PROTOS:src/%.proto=$(BUILD)/gen/%.pb-c.o)
GEN_HDRS = $(PROTOS:src/%.proto=$(BUILD)/gen/%.pb-c.h)
ALL_CFLAGS += -I$(BUILD)/gen
OBJS = $(SRCS:src/%.c=$(BUILD)/%.o) $(GEN_OBJS)
DEPS = $(OBJS:.o=.d)

ifneq ($(filter 1 thread,$(SANITIZE)),)
BIN = $(BUILD)/perfdump
else
BIN = perfdump
endif

all: $(BIN)

LIB_OBJS = $(filter-out $(BUILD)/main.o,$(OBJS))

# The fuzz targets (tests/fuzz/targets.c) and their harness; FUZZ_TARGETS
# are the ones make fuzz runs, each on its own (perfdump, the whole
# pipeline, runs all of them, and is what replay and mutate run).
FUZZ_SRCS = tests/fuzz/harness.c tests/fuzz/targets.c tests/fuzz/oracle.c tests/fuzz/pprof.c
FUZZ_HDRS = tests/fuzz/harness.h tests/fuzz/oracle.h $(wildcard src/*.h src/lib/*/*.h src/fmt/*.h)

# Replays fuzz inputs without libFuzzer (use with SANITIZE=1):
# build-asan/perfdump-replay [--target=NAME] FILE...
$(BUILD)/perfdump-replay: $(FUZZ_SRCS) $(LIB_OBJS) $(FUZZ_HDRS) $(GEN_HDRS)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -DPD_FUZZ_REPLAY $(LDFLAGS) -o $@ $(FUZZ_SRCS) $(LIB_OBJS) $(LDLIBS)

# The tests' tracepoint oracle (tests/oracle/tp_oracle.c): libtraceevent's
# own print output, which tests/tracepoint.bats compares perfdump's with.
# perfdump itself does not link libtraceevent; only this test program does.
TP_ORACLE_CFLAGS = $(shell $(PKG_CONFIG) --cflags libtraceevent 2>/dev/null || echo -I/usr/include/traceevent)
TP_ORACLE_LIBS = $(shell $(PKG_CONFIG) --libs libtraceevent 2>/dev/null || echo -ltraceevent)
$(BUILD)/tp-oracle: tests/oracle/tp_oracle.c
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(TP_ORACLE_CFLAGS) $(LDFLAGS) -o $@ $< $(TP_ORACLE_LIBS)

# Mutation test (tests/fuzz/mutate.c): every fixture and corpus file cut
# and flipped, each mutant through the whole pipeline in a forked child
# (use with SANITIZE=1).
$(BUILD)/perfdump-mutate: tests/fuzz/mutate.c $(FUZZ_SRCS) $(LIB_OBJS) $(FUZZ_HDRS) $(GEN_HDRS)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/mutate.c $(FUZZ_SRCS) $(LIB_OBJS) $(LDLIBS)

MUTATE_SEED ?= 20240601
MUTATE_FILES = $(filter-out testdata/threads.data testdata/comm-order.data,$(wildcard testdata/*.data testdata/threads.data/* testdata/comm-order.data/* testdata/synthetic/*.data)) \
	       $(sort $(shell find ../shared/corpus -type f ! -name '*.md' 2>/dev/null))
# Inputs that are not recordings, as tests/usability.bats gives them to
# every command (its tests of regular files are sweeps: this runs them
# under the sanitizers): an empty file, short and long text, text in zstd.
NOTPERF = build-asan/notperf
MUTATE_NOTPERF = $(NOTPERF)/empty $(NOTPERF)/abc.txt $(NOTPERF)/hello.txt $(NOTPERF)/passwd $(NOTPERF)/hello.zst
# the bound on the whole mutation test (-T): each file gets an equal share
# of what is left, and at least MUTATE_MIN mutants (-M) besides itself
MUTATE_SECONDS ?= 150
MUTATE_MIN ?= 32
# A small quarantine so that ru_maxrss measures what perfdump keeps, not
# what ASan holds back; one allocation over 256 MiB is a report.
MUTATE_ASAN = detect_leaks=1:abort_on_error=1:quarantine_size_mb=16:max_allocation_size_mb=256:malloc_context_size=10

# make mutate [MUTATE_SEED=N] [MUTATE_SECONDS=N] [MUTATE_MIN=N]: failing
# mutants land in tests/fuzz/mutant-*
mutate: test-deps
	$(MAKE) SANITIZE=1 build-asan/perfdump-mutate
	@mkdir -p $(NOTPERF) && : >$(NOTPERF)/empty && printf abc >$(NOTPERF)/abc.txt && \
		printf 'hello world\n' >$(NOTPERF)/hello.txt && head -c 4096 /etc/passwd >$(NOTPERF)/passwd && \
		{ printf hello | zstd -q >$(NOTPERF)/hello.zst || rm -f $(NOTPERF)/hello.zst; }
	@echo "build-asan/perfdump-mutate -s $(MUTATE_SEED) -T $(MUTATE_SECONDS) -M $(MUTATE_MIN) ... ($(words $(MUTATE_FILES) $(MUTATE_NOTPERF)) files)"
	@ASAN_OPTIONS=$(MUTATE_ASAN) UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1 \
		build-asan/perfdump-mutate -s $(MUTATE_SEED) -t 10 -m 256 -T $(MUTATE_SECONDS) -M $(MUTATE_MIN) -o tests/fuzz \
		$(MUTATE_FILES) $(MUTATE_NOTPERF)

# libFuzzer build: clang, ASan + UBSan, coverage on every source file.
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -Isrc -Ibuild-fuzz/gen -g -O1 -fno-omit-frame-pointer \
	      -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	      $(PKG_CFLAGS)
FUZZ_OBJS = $(filter-out build-fuzz/main.o,$(SRCS:src/%.c=build-fuzz/%.o)) \
	    $(PROTOS:src/%.proto=build-fuzz/gen/%.pb-c.o)
FUZZ_GEN_HDRS = $(PROTOS:src/%.proto=build-fuzz/gen/%.pb-c.h)

build-fuzz/%.o: src/%.c | $(FUZZ_GEN_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)clang $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

build-fuzz/gen/%.pb-c.c build-fuzz/gen/%.pb-c.h: src/%.proto
	@mkdir -p build-fuzz/gen
	@echo "  PROTOC  $@"
	$(Q)$(PROTOC_C) --proto_path=src --c_out=build-fuzz/gen $<

build-fuzz/gen/%.pb-c.o: build-fuzz/gen/%.pb-c.c
	@echo "  CC      $@"
	$(Q)clang $(FUZZ_CFLAGS) -c -o $@ $<

-include $(FUZZ_OBJS:.o=.d)

# The output oracle is checked, not explored: no coverage instrumentation
# (it looks at every byte written, and a hook per comparison is slow).
build-fuzz/oracle.o: tests/fuzz/oracle.c tests/fuzz/oracle.h
	@echo "  CC      $@"
	@mkdir -p $(@D)
	$(Q)clang $(subst fuzzer-no-link$(COMMA),,$(FUZZ_CFLAGS)) -c -o $@ $<

COMMA = ,
FUZZ_HARNESS = $(filter-out tests/fuzz/oracle.c,$(FUZZ_SRCS))
build-fuzz/perfdump-fuzz: $(FUZZ_HARNESS) build-fuzz/oracle.o $(FUZZ_OBJS) $(FUZZ_HDRS) $(FUZZ_GEN_HDRS)
	@echo "  LD      $@"
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $(FUZZ_HARNESS) build-fuzz/oracle.o $(FUZZ_OBJS) $(LDLIBS)

# make fuzz [FUZZ_SECONDS=N] [FUZZ_TARGETS="stats check"] [FUZZ_JOBS=N]: each
# target of tests/fuzz/targets.c for N seconds, FUZZ_JOBS at a time (build-fuzz/
# perfdump-fuzz --list says what each exercises; tests/fuzz/README.md):
#   header    file header, feature sections and attrs: decoders, text
#   records   one record stream: reader, zstd, record and sample decoders
#   stats     the stats walk; check: check's walk and its own checks
#   order     time order, checked against file order
#   buildids  build-id sources and the --hits walk; elf: ELF build-id notes
#   stream    the input as a pipe on standard input (live pipe mode)
#   rootpath  a path opened under a root (--symfs) by perfdump's walk,
#             which must agree with openat2 RESOLVE_IN_ROOT
#   tracepoint  formats, fields and prints (tp_format.c, tp_parse.c, ...)
#   profile   profile's walk (no file read); dso: an ELF as profile
#             reads it (symbols, PLT, names demangled, DWARF lines),
#             kallsyms, perf maps
#   redact    --redact=comm through features, records and the summary
#   pprof     export --to pprof, its output gunzipped, unpacked by
#             protobuf-c and every id it references checked
#   formats   one command in a format the others leave out (-x, text)
#   perfdump  the whole pipeline: all of the above and every command in
#             every format (what perfdump-replay and make mutate run; not
#             in the list: it runs what the others run, 30 commands an
#             execution; FUZZ_TARGETS=perfdump runs it)
# Every output is checked (tests/fuzz/oracle.c: text without control
# bytes, valid JSON).  Seeds: scripts/gen-fuzz-seeds.py cuts the fixtures
# into tests/fuzz/seeds/ (git-ignored; ELF images for elf, paths for
# rootpath), plus tests/fuzz/regress/.  New inputs go to FUZZ_WORK/TARGET/
# (tests/fuzz/corpus-work/, git-ignored: it grows from run to run), each
# target's log to FUZZ_WORK/TARGET.log.  A crash, leak, timeout (10 s),
# OOM or oracle abort lands in tests/fuzz/ as crash-*, leak-*, timeout-*,
# oom-* (replay it: build-asan/perfdump-replay --target=TARGET FILE), and
# make fails once every target has run: fix it, then move the input to
# tests/fuzz/regress/.
FUZZ_SECONDS ?= 60
# FUZZ_JOBS=N: N targets at a time, each a libFuzzer process on one core
# (make check: one per core); 1, the default, runs them one after the other
FUZZ_JOBS ?= 1
# FUZZ_SEED=N: libFuzzer's -seed (make check's run: 1, so that what it
# finds reproduces; make fuzz: a new one each run)
FUZZ_SEED ?=
FUZZ_WORK ?= tests/fuzz/corpus-work
FUZZ_TARGETS ?= header records stats check order buildids elf stream rootpath \
	       tracepoint profile dso redact export pprof diff formats copy
FUZZ_SEEDS = tests/fuzz/seeds
FUZZ_FLAGS = -timeout=10 -rss_limit_mb=512 -malloc_limit_mb=256 \
	     -max_len=65536 -dict=tests/fuzz/perfdump.dict \
	     -print_final_stats=1 -artifact_prefix=tests/fuzz/
# a small quarantine: libFuzzer's RSS limit then measures perfdump (with
# ASan's default 256 MiB, a 30-second session reached 486 MiB)
FUZZ_ASAN = quarantine_size_mb=16:malloc_context_size=10

fuzz: test-deps build-fuzz/perfdump-fuzz
	@python3 scripts/gen-fuzz-seeds.py $(FUZZ_SEEDS)
	@one() { \
		case $$1 in elf|dso) seeds=$(FUZZ_SEEDS)/elf ;; \
			rootpath) seeds=$(FUZZ_SEEDS)/paths ;; \
			*) seeds="$(FUZZ_SEEDS)/perf tests/fuzz/regress" ;; esac; \
		work=$(FUZZ_WORK)/$$1; mkdir -p $$work; \
		ASAN_OPTIONS=$(FUZZ_ASAN) ./build-fuzz/perfdump-fuzz \
			--target=$$1 -max_total_time=$(FUZZ_SECONDS) \
			$(FUZZ_FLAGS) $(if $(FUZZ_SEED),-seed=$(FUZZ_SEED)) \
			$$work $$seeds >$$work.log 2>&1; \
		echo $$? >$$work.rc; \
	}; \
	n=0; for t in $(FUZZ_TARGETS); do \
		one $$t & n=$$((n + 1)); \
		if [ $$n -ge $(FUZZ_JOBS) ]; then wait; n=0; fi; \
	done; wait; \
	failed=; for t in $(FUZZ_TARGETS); do \
		work=$(FUZZ_WORK)/$$t; \
		if [ "$$(cat $$work.rc)" = 0 ]; then \
			printf 'fuzz %-9s ok:   %s\n' $$t "$$(grep -a -E '^#[0-9]+' $$work.log | tail -1)"; \
		else \
			printf 'fuzz %-9s FAIL: see %s\n' $$t $$work.log; \
			grep -a -E '^fuzz:|ERROR|SUMMARY|Test unit written' $$work.log | head -10; \
			failed="$$failed $$t"; \
		fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: failed:$$failed"; exit 1; fi

# make V=1 shows the full commands
ifneq ($(V),1)
Q = @
endif

$(BIN): $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(BUILD)/%.o: src/%.c | $(GEN_HDRS)
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

# protoc-c writes both files at once (a grouped pattern rule)
$(BUILD)/gen/%.pb-c.c $(BUILD)/gen/%.pb-c.h: src/%.proto
	@mkdir -p $(BUILD)/gen
	@echo "  PROTOC  $@"
	$(Q)$(PROTOC_C) --proto_path=src --c_out=$(BUILD)/gen $<

$(BUILD)/gen/%.pb-c.o: $(BUILD)/gen/%.pb-c.c
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

-include $(DEPS)

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

demo: deps
	$(MAKE) all
	./perfdump testdata/cpu-clock.data

# The bats suite (normal and sanitizer builds), the mutation test, and a
# short fuzz session of every target from the seeds (make fuzz runs longer
# ones, on a corpus that grows): what .ci/run runs on every submission.
# The three builds compile on every core first.  The mutation test runs
# every file whole and at least 6 of its mutants (CHECK_MUTATE_MIN), more
# while its share of CHECK_MUTATE_SECONDS lasts; the fuzz targets run
# CHECK_FUZZ_SECONDS each, one per core at a time.  Both seeds are fixed,
# so each run puts much the same mutants and fuzz inputs through: a
# regression test, 2 of make check's 10 minutes.  make mutate and make
# fuzz run longer, and explore with MUTATE_SEED= and FUZZ_SEED=.
CHECK_FUZZ_SECONDS ?= 4
CHECK_MUTATE_SECONDS ?= 30
CHECK_MUTATE_MIN ?= 6
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: test-deps
	$(MAKE) format-check
	$(MAKE) include-check
	$(MAKE) -j$(CHECK_JOBS) all build/tp-oracle
	$(MAKE) -j$(CHECK_JOBS) SANITIZE=1 all build-asan/perfdump-replay build-asan/perfdump-mutate
	$(MAKE) -j$(CHECK_JOBS) build-fuzz/perfdump-fuzz
	tests/run.sh
	$(MAKE) check-tsan
	$(MAKE) mutate MUTATE_SECONDS=$(CHECK_MUTATE_SECONDS) MUTATE_MIN=$(CHECK_MUTATE_MIN)
	rm -rf build-fuzz/check-corpus
	$(MAKE) fuzz FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS) FUZZ_SEED=1 FUZZ_JOBS=$(CHECK_JOBS) FUZZ_WORK=build-fuzz/check-corpus

# The whole bats suite against the sanitizer build only.
check-asan: test-deps
	$(MAKE) SANITIZE=1 all
	PERFDUMP=$(CURDIR)/build-asan/perfdump tests/run.sh

# The parallel walk under ThreadSanitizer: its tests, any report fails
# them (about five minutes on 2 cores; part of check).
check-tsan: test-deps
	$(MAKE) SANITIZE=thread all
	TSAN_OPTIONS=halt_on_error=1 PERFDUMP=$(CURDIR)/build-tsan/perfdump bats tests/parallel.bats tests/copy-parallel.bats tests/profile-parallel.bats

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	install -m 755 perfdump $(DESTDIR)$(BINDIR)/perfdump
	install -m 644 man/perfdump.1 $(DESTDIR)$(MANDIR)/man1/perfdump.1
	install -m 644 completion/perfdump.bash $(DESTDIR)$(BASHCOMPDIR)/perfdump

# Every C file of the tree, formatted by .clang-format (clang-format 14,
# Debian 12's); format-check fails on the first one that is not.
FORMAT_FILES = $(SRCS) $(wildcard src/*.h src/lib/*/*.h src/fmt/*.h tests/fuzz/*.c tests/fuzz/*.h tests/oracle/*.c)

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES) && echo "format-check: $(words $(FORMAT_FILES)) files formatted"

# No include cycle between modules of src/ beyond the allowed ones, and no
# include from a lower layer to a higher one (scripts/check-includes.py).
include-check:
	@python3 scripts/check-includes.py

clean:
	rm -rf build build-asan build-tsan build-fuzz perfdump

.PHONY: all deps test-deps demo check check-asan check-tsan fuzz mutate install format format-check include-check clean
