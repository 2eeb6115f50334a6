# perfdump: dump and inspect Linux perf.data files.
#
#   make            build ./perfdump
#   make demo       install build deps if missing, build, show a sample
#   make check      install test deps if missing, build, run every test
#   make SANITIZE=1 build with AddressSanitizer + UBSan (into build-asan/)
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
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE $(WARN) $(CFLAGS) \
	     $(PKG_CFLAGS)
PKGS = libelf libdw libzstd liblzma zlib libtraceevent
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null || echo -I/usr/include/traceevent)
LDLIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null || echo -ldw -lelf -lzstd -llzma -lz -ltraceevent)

ifeq ($(SANITIZE),1)
BUILD ?= build-asan
ALL_CFLAGS += -O1 -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
else
BUILD ?= build
endif

SRCS = $(wildcard src/*.c src/lib/*.c src/fmt/*.c)
OBJS = $(SRCS:src/%.c=$(BUILD)/%.o)
DEPS = $(OBJS:.o=.d)

ifeq ($(SANITIZE),1)
BIN = $(BUILD)/perfdump
else
BIN = perfdump
endif

all: $(BIN)

LIB_OBJS = $(filter-out $(BUILD)/main.o,$(OBJS))

# Replays fuzz inputs without libFuzzer (use with SANITIZE=1).
$(BUILD)/perfdump-replay: tests/fuzz/fuzz_perfdump.c $(LIB_OBJS) $(wildcard src/*.h src/lib/*.h src/fmt/*.h)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -DPD_FUZZ_REPLAY $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

# Mutation test (tests/fuzz/mutate.c): every fixture and corpus file cut
# and flipped, each mutant through the whole pipeline in a forked child
# (use with SANITIZE=1).
$(BUILD)/perfdump-mutate: tests/fuzz/mutate.c tests/fuzz/fuzz_perfdump.c $(LIB_OBJS) $(wildcard src/*.h src/lib/*.h src/fmt/*.h)
	@echo "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ tests/fuzz/mutate.c tests/fuzz/fuzz_perfdump.c $(LIB_OBJS) $(LDLIBS)

MUTATE_SEED ?= 20240601
MUTATE_FILES = $(filter-out testdata/threads.data testdata/comm-order.data,$(wildcard testdata/*.data testdata/threads.data/* testdata/comm-order.data/* testdata/synthetic/*.data)) \
	       $(sort $(shell find ../shared/corpus -type f ! -name '*.md' 2>/dev/null))
# A small quarantine so that ru_maxrss measures what perfdump keeps, not
# what ASan holds back; one allocation over 256 MiB is a report.
MUTATE_ASAN = detect_leaks=1:abort_on_error=1:quarantine_size_mb=16:max_allocation_size_mb=256:malloc_context_size=10

# make mutate [MUTATE_SEED=N]: failing mutants land in tests/fuzz/mutant-*
mutate: test-deps
	$(MAKE) SANITIZE=1 build-asan/perfdump-mutate
	@echo "build-asan/perfdump-mutate -s $(MUTATE_SEED) ... ($(words $(MUTATE_FILES)) files)"
	@ASAN_OPTIONS=$(MUTATE_ASAN) UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1 \
		build-asan/perfdump-mutate -s $(MUTATE_SEED) -t 10 -m 256 -o tests/fuzz $(MUTATE_FILES)

# libFuzzer build: clang, ASan + UBSan, coverage on every source file.
FUZZ_SECONDS ?= 60
FUZZ_CFLAGS = -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer \
	      -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
	      $(PKG_CFLAGS)
FUZZ_OBJS = $(filter-out build-fuzz/main.o,$(SRCS:src/%.c=build-fuzz/%.o))

build-fuzz/%.o: src/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)clang $(FUZZ_CFLAGS) -MMD -MP -c -o $@ $<

-include $(FUZZ_OBJS:.o=.d)

build-fuzz/perfdump-fuzz: tests/fuzz/fuzz_perfdump.c $(FUZZ_OBJS) $(wildcard src/*.h src/lib/*.h src/fmt/*.h)
	@echo "  LD      $@"
	$(Q)clang $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_OBJS) $(LDLIBS)

# make fuzz FUZZ_SECONDS=N: fuzz from testdata and ../shared/corpus; new
# crashes, leaks, timeouts and OOMs land in tests/fuzz/ as crash-*,
# leak-*, timeout-*, oom-* and make fails: move them to tests/fuzz/regress/.
# New inputs go to tests/fuzz/corpus-work/ (git-ignored), nothing else is
# written.  Inputs are cut to 64 KiB: four times the executions of 256 KiB,
# and every structure of the small fixtures fits.  ASan's quarantine is
# capped at 64 MiB (256 by default), as make mutate caps it, so that the
# 512 MiB RSS limit measures what perfdump and libtraceevent keep: with
# the default, a 30-second session reached 446 MiB before the tracepoint
# decoding, 486 after.
FUZZ_ASAN = quarantine_size_mb=64
fuzz: test-deps build-fuzz/perfdump-fuzz
	@mkdir -p tests/fuzz/corpus-work
	ASAN_OPTIONS=$(FUZZ_ASAN) ./build-fuzz/perfdump-fuzz -max_total_time=$(FUZZ_SECONDS) -timeout=10 \
		-rss_limit_mb=512 -malloc_limit_mb=256 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix=tests/fuzz/ \
		tests/fuzz/corpus-work testdata testdata/synthetic tests/fuzz/regress \
		$(wildcard ../shared/corpus/*/)

# make V=1 shows the full commands
ifneq ($(V),1)
Q = @
endif

$(BIN): $(OBJS)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $(OBJS) $(LDLIBS)

$(BUILD)/%.o: src/%.c
	@mkdir -p $(dir $@)
	@echo "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -MMD -MP -c -o $@ $<

-include $(DEPS)

deps:
	@scripts/install-deps.sh build

test-deps:
	@scripts/install-deps.sh test

demo: deps
	$(MAKE) all
	./perfdump testdata/cpu-clock.data

# The bats suite (normal and sanitizer builds), the mutation test, and a
# short fuzz session (make fuzz runs a longer one): what .ci/run runs on
# every submission.  The three builds compile on every core first.
CHECK_FUZZ_SECONDS ?= 30
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: test-deps
	$(MAKE) format-check
	$(MAKE) -j$(CHECK_JOBS) all
	$(MAKE) -j$(CHECK_JOBS) SANITIZE=1 all build-asan/perfdump-replay build-asan/perfdump-mutate
	$(MAKE) -j$(CHECK_JOBS) build-fuzz/perfdump-fuzz
	tests/run.sh
	$(MAKE) mutate
	$(MAKE) fuzz FUZZ_SECONDS=$(CHECK_FUZZ_SECONDS)

# The whole bats suite against the sanitizer build only.
check-asan: test-deps
	$(MAKE) SANITIZE=1 all
	PERFDUMP=$(CURDIR)/build-asan/perfdump tests/run.sh

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(BASHCOMPDIR)
	install -m 755 perfdump $(DESTDIR)$(BINDIR)/perfdump
	install -m 644 man/perfdump.1 $(DESTDIR)$(MANDIR)/man1/perfdump.1
	install -m 644 completion/perfdump.bash $(DESTDIR)$(BASHCOMPDIR)/perfdump

# Every C file of the tree, formatted by .clang-format (clang-format 14,
# Debian 12's); format-check fails on the first one that is not.
FORMAT_FILES = $(SRCS) $(wildcard src/*.h src/lib/*.h src/fmt/*.h tests/fuzz/*.c)

format:
	clang-format -i $(FORMAT_FILES)

format-check:
	@clang-format --dry-run --Werror $(FORMAT_FILES) && echo "format-check: $(words $(FORMAT_FILES)) files formatted"

clean:
	rm -rf build build-asan build-fuzz perfdump

.PHONY: all deps test-deps demo check check-asan fuzz mutate install format format-check clean
