# shellcheck shell=bash
#
# Shared setup for the bats suite.  Every .bats file starts with
# `load helpers`.
#
#   PERFDUMP   the binary under test (default: ./perfdump of this tree).
#              A relative path is taken relative to the directory bats was
#              started from (tests/run.sh starts it from the project root).
#
# Tests run from the project root, so file names in perfdump's output are
# the stable relative paths testdata/..., and under LC_ALL=C.

export LC_ALL=C
bats_require_minimum_version 1.5.0

# Bats traces every command a test runs: a DEBUG trap that copies the call
# stack, to say where a test failed.  That trap cost a sixth of the time
# of header.bats and attrs.bats (timed in turns; a loop of 4,000 commands:
# 1.3 s with it, 37 ms without).  The
# tests run without it, and the ERR trap captures the same stack where the
# command fails (bats_capture_stack_trace, as the DEBUG trap did), so a
# failure reports the same file, line and command.  Only with the bats
# this was measured with (1.8, Debian 12's), which has those functions,
# and not under bats --trace, which needs the DEBUG trap.
pd_error_trap() {
	bats_capture_stack_trace
	BATS_DEBUG_LAST_STACK_TRACE_IS_VALID=1
	bats_error_trap
}
if [ "${BATS_TRACE_LEVEL:-0}" = 0 ] &&
	declare -F bats_setup_tracing bats_capture_stack_trace bats_error_trap >/dev/null; then
	eval "pd_bats_setup_tracing() $(declare -f bats_setup_tracing | tail -n +2)"
	bats_setup_tracing() {
		pd_bats_setup_tracing
		trap - DEBUG
		trap pd_error_trap ERR
	}
fi

PROJECT_ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
: "${PERFDUMP:=$PROJECT_ROOT/perfdump}"
case $PERFDUMP in
/*) ;;
*) PERFDUMP=$PWD/$PERFDUMP ;;
esac
export PERFDUMP

cd "$PROJECT_ROOT" || exit 1

# Hermetic kernel symbols: records (a tracepoint print's %ps) and profile
# take the kernel's symbols from perf's build-id cache, and from this
# machine's /proc/kallsyms when the running kernel's build-id is the
# recording's or the recording has none; the fixtures were recorded on a
# machine whose cache and kernel may be those.  Neither is looked at (the
# cache is a directory that does not exist, the running kernel's notes
# are empty, its kallsyms a file that does not exist), so no output
# depends on the machine; scripts/update-golden.sh does the same.  A test
# that wants them points these elsewhere itself.
export PERF_BUILDID_DIR=/nonexistent/perfdump-tests/buildid-cache
export PERFDUMP_KERNEL_NOTES=/dev/null
export PERFDUMP_PROC_KALLSYMS=/nonexistent/perfdump-tests/kallsyms

# The real-world corpus lives beside the project (read-only).
CORPUS=../shared/corpus

# ---------------------------------------------------------------- running

# pd ARGS...: run perfdump; $status, $output (stdout) and $stderr are set,
# as `run --separate-stderr` sets them, but not $lines (`pd_lines` does):
# bats's run splits the output into $lines, which costs seconds for the
# megabytes of text some corpus files give.
pd() {
	local flags=$- errf=${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}/.pd-stderr
	set +eET
	output=$("$PERFDUMP" "$@" 2>"$errf") && status=0 || status=$?
	read -d '' -r stderr <"$errf"
	set "-$flags"
}

# pd_lines ARGS...: pd, then $lines: the lines of $output (as run sets it)
pd_lines() {
	pd "$@"
	IFS=$'\n' read -d '' -r -a lines <<<"$output" || true
}

# pdj ARGS...: run perfdump (give it -j or -p yourself) and check that
# stdout is one valid JSON document carrying the contract's fixed keys.
pdj() {
	pd "$@"
	check_json
}

# check_json [FILTER]: $output is exactly one JSON object (jq -e) with
# perfdump_json_version 1, a "file" string and "errors"/"warnings" arrays
# of {offset, what, detail}; and FILTER, if given, is true on it (one jq
# run for both: jq is slow to start).
check_json() {
	local res extra=${1:-true}
	if res=$(jq -e -n "$JQ_DEFS"' [inputs] | length == 1 and (.[0] | contract) and
		(.[0] | '"$extra"')' <<<"$output" 2>&1); then
		return 0
	fi
	echo "stdout is not one perfdump JSON document${1:+ where $1} (jq: $res; status $status):"
	printf '%s\n' "$output" | head -c 2000
	echo
	echo "stderr: $(printf '%s' "$stderr" | head -c 1000)"
	return 1
}

# ------------------------------------------------------------- assertions

# jq_true FILTER [JSON]: jq -e FILTER on $output (or JSON) succeeds.
jq_true() {
	local filter=$1 doc=${2-$output}
	if ! jq -e "$JQ_DEFS $filter" >/dev/null <<<"$doc"; then
		echo "jq -e failed: $filter"
		echo "on: $(printf '%s' "$doc" | head -c 1500)"
		return 1
	fi
}

# jq_eq FILTER EXPECTED [JSON]: jq -c FILTER prints exactly EXPECTED
# (compact JSON, one line per result).
jq_eq() {
	local filter=$1 want=$2 doc=${3-$output} got
	if ! got=$(jq -c "$JQ_DEFS $filter" <<<"$doc" 2>&1) || [ "$got" != "$want" ]; then
		echo "jq: $filter"
		echo "  expected: $want"
		echo "  actual:   $got"
		return 1
	fi
}

# jq_all FILTER EXPECTED [FILTER EXPECTED]...: several jq_eq checks on
# $output in one jq run (jq starts slowly); on a mismatch every pair is
# checked again one by one to show which ones differ.
jq_all() {
	local prog= i=0 args=() filters=() wants=() res j rc=0
	while [ $# -ge 2 ]; do
		filters[i]=$1
		wants[i]=$2
		args+=(--arg "w$i" "$2")
		prog="$prog{want: \$w$i, got: ([$1] | map(tojson) | join(\"\\n\"))},"
		i=$((i + 1))
		shift 2
	done
	[ $# -eq 0 ] || {
		echo "jq_all: odd number of arguments"
		return 1
	}
	prog="$JQ_DEFS [${prog%,}] | map(select(.want != .got)) | length"
	if res=$(jq "${args[@]}" "$prog" <<<"$output" 2>&1) && [ "$res" = 0 ]; then
		return 0
	fi
	for ((j = 0; j < i; j++)); do
		jq_eq "${filters[j]}" "${wants[j]}" || rc=1
	done
	[ $rc -ne 0 ] || echo "jq_all: $res"
	return 1
}

# assert_status N: perfdump exited with N.
assert_status() {
	if [ "$status" -ne "$1" ]; then
		echo "exit status $status, expected $1"
		echo "stdout: $(printf '%s' "$output" | head -c 1500)"
		echo "stderr: $(printf '%s' "$stderr" | head -c 1500)"
		return 1
	fi
}

# assert_no_signal: the process was not killed by a signal (nor by a
# sanitizer abort) and did not report a sanitizer finding.
assert_no_signal() {
	if [ "$status" -ge 128 ]; then
		echo "killed by signal $((status - 128)) (status $status)"
		echo "stderr: $(printf '%s' "$stderr" | tail -c 3000)"
		return 1
	fi
	case $stderr in
	*AddressSanitizer* | *LeakSanitizer* | *"runtime error:"*)
		echo "sanitizer report:"
		printf '%s\n' "$stderr" | tail -c 3000
		return 1
		;;
	esac
}

# assert_eq ACTUAL EXPECTED [WHAT]
assert_eq() {
	if [ "$1" != "$2" ]; then
		echo "${3:-value}:"
		echo "  expected: $2"
		echo "  actual:   $1"
		return 1
	fi
}

# assert_contains HAYSTACK NEEDLE [WHAT]
assert_contains() {
	case $1 in
	*"$2"*) return 0 ;;
	esac
	echo "${3:-text} does not contain: $2"
	echo "it is: $(printf '%s' "$1" | head -c 2000)"
	return 1
}

# assert_empty TEXT [WHAT]
assert_empty() {
	if [ -n "$1" ]; then
		echo "${2:-text} is not empty: $(printf '%s' "$1" | head -c 2000)"
		return 1
	fi
}

# assert_files_equal A B: diff -u on failure.
assert_files_equal() {
	if ! diff -u "$1" "$2"; then
		echo "files differ: $1 $2"
		return 1
	fi
}

# ------------------------------------------------------------ file bytes

# u64 FILE OFFSET [big|little]: an unsigned 64-bit integer from the file.
u64() {
	od -A n -v -t u8 -j "$2" -N 8 --endian="${3:-little}" "$1" | tr -d ' \n'
}

# hexbytes FILE OFFSET COUNT: the bytes as one lowercase hex string.
hexbytes() {
	od -A n -v -t x1 -j "$2" -N "$3" "$1" | tr -d ' \n'
}

# file_size FILE
file_size() {
	stat -c %s "$1"
}

# ------------------------------------------------ feature lists per file

# js TEXT: TEXT as a JSON string (the texts here have no control bytes).
js() {
	local s=${1//\\/\\\\}
	s=${s//\"/\\\"}
	printf '"%s"' "$s"
}

# names_json "A B C" -> ["A","B","C"]
names_json() {
	local out= n
	for n in $1; do
		out="$out,\"$n\""
	done
	printf '[%s]' "${out#,}"
}

# The features perf 6.1 lists for each fixture: bits 1..31 minus its
# "# missing features:" line in perf-ref/NAME.header.txt (derived once by
# hand and hard-coded here).
COMMON="HOSTNAME OSRELEASE VERSION ARCH NRCPUS CPUDESC CPUID TOTAL_MEM CMDLINE EVENT_DESC CPU_TOPOLOGY NUMA_TOPOLOGY PMU_MAPPINGS"
FEAT_cpu_clock="BUILD_ID $COMMON CACHE SAMPLE_TIME MEM_TOPOLOGY BPF_PROG_INFO BPF_BTF PMU_CAPS"
FEAT_callgraph=$FEAT_cpu_clock
FEAT_zstd="$COMMON CACHE SAMPLE_TIME MEM_TOPOLOGY BPF_PROG_INFO BPF_BTF COMPRESSED PMU_CAPS"
FEAT_threads="BUILD_ID $COMMON CACHE SAMPLE_TIME MEM_TOPOLOGY DIR_FORMAT BPF_PROG_INFO BPF_BTF PMU_CAPS"
FEAT_tracepoint="TRACING_DATA BUILD_ID $COMMON CACHE SAMPLE_TIME MEM_TOPOLOGY BPF_PROG_INFO BPF_BTF PMU_CAPS"
FEAT_group="BUILD_ID $COMMON GROUP_DESC CACHE SAMPLE_TIME MEM_TOPOLOGY BPF_PROG_INFO BPF_BTF PMU_CAPS"
FEAT_allbits=$FEAT_group
FEAT_mono="BUILD_ID $COMMON CACHE SAMPLE_TIME MEM_TOPOLOGY CLOCKID BPF_PROG_INFO BPF_BTF CLOCK_DATA PMU_CAPS"
FEAT_stat="$COMMON GROUP_DESC STAT CACHE SAMPLE_TIME MEM_TOPOLOGY CLOCKID BPF_PROG_INFO BPF_BTF COMPRESSED CLOCK_DATA PMU_CAPS"
FEAT_killed="BUILD_ID $COMMON CACHE SAMPLE_TIME MEM_TOPOLOGY BPF_PROG_INFO BPF_BTF CPU_PMU_CAPS HYBRID_TOPOLOGY PMU_CAPS"
FEAT_pipe="$COMMON SAMPLE_TIME MEM_TOPOLOGY BPF_PROG_INFO BPF_BTF PMU_CAPS"
# full-le.data and its twins: every feature 1..32
ALL32="TRACING_DATA BUILD_ID HOSTNAME OSRELEASE VERSION ARCH NRCPUS CPUDESC CPUID TOTAL_MEM CMDLINE EVENT_DESC CPU_TOPOLOGY NUMA_TOPOLOGY BRANCH_STACK PMU_MAPPINGS GROUP_DESC AUXTRACE STAT CACHE SAMPLE_TIME MEM_TOPOLOGY CLOCKID DIR_FORMAT BPF_PROG_INFO BPF_BTF COMPRESSED CPU_PMU_CAPS CLOCK_DATA HYBRID_TOPOLOGY PMU_CAPS CPU_DOMAIN_INFO"

# ------------------------------------------------------ crafted inputs

# le64 N / le32 N: N as 8 / 4 little-endian bytes on stdout.
le64() {
	local h i out=
	printf -v h '%016x' "$1" # -v: no subshell, no fork per call
	for i in 14 12 10 8 6 4 2 0; do
		out="$out\\x${h:$i:2}"
	done
	# shellcheck disable=SC2059
	printf "$out"
}

le32() {
	local h i out=
	printf -v h '%08x' "$1" # -v: no subshell, no fork per call
	for i in 6 4 2 0; do
		out="$out\\x${h:$i:2}"
	done
	# shellcheck disable=SC2059
	printf "$out"
}

# make_perf_file OUT BIT PAYLOAD: a little-endian file-mode perf.data with
# no attrs, one FINISHED_ROUND record (data 104-111), and one feature
# section, bit BIT, holding the bytes of the file PAYLOAD (table at 112,
# section at 128).
make_perf_file() {
	local n
	n=$(file_size "$3")
	{
		printf 'PERFILE2'
		le64 104 # header size
		le64 144 # attr_size
		le64 104
		le64 0 # attrs: none
		le64 104
		le64 8 # data: one record
		le64 0
		le64 0 # event_types
		le64 $(($2 < 64 ? 1 << $2 : 0))
		le64 $(($2 >= 64 && $2 < 128 ? 1 << ($2 - 64) : 0))
		le64 $(($2 >= 128 && $2 < 192 ? 1 << ($2 - 128) : 0))
		le64 $(($2 >= 192 ? 1 << ($2 - 192) : 0))
		printf '\x44\x00\x00\x00\x00\x00\x08\x00' # FINISHED_ROUND, size 8
		le64 128
		le64 "$n" # the feature table's one entry
		cat "$3"
	} >"$1"
}

# ---------------------------------------------------------------- corpus

# need_corpus: skip the test when ../shared/corpus is not there.
need_corpus() {
	[ -d "$CORPUS" ] || skip "corpus not found at $CORPUS"
}

# sweep: the test runs the same commands over every corpus file or
# fixture.  tests/run.sh sets PD_SWEEPS=0 for the sanitizer build when it
# runs both builds: `make mutate` puts each of those files through the
# whole pipeline under the same sanitizers, and the normal build still
# checks the outputs.
sweep() {
	[ "${PD_SWEEPS:-1}" = 1 ] || skip "sweep: make mutate runs these files under the sanitizers"
}

# once: the test checks the tree (docs, help texts, the Makefile, the
# sources), not how perfdump handles its memory: tests/run.sh sets PD_ONCE=0
# for the sanitizer build when it runs both builds, and the normal build
# runs it.
once() {
	[ "${PD_ONCE:-1}" = 1 ] || skip "once: checks the tree, run with the normal build"
}

# few N: the lines of standard input; under the sanitizer build of a
# two-build run (PD_SWEEPS=0), only the first N.  For loops over inputs or
# options alike in the code they reach: the normal build checks every
# value, the sanitizer build the code paths, which the first few reach
# (order the list so that they do).
few() {
	if [ "${PD_SWEEPS:-1}" = 1 ]; then cat; else head -n "$1"; fi
}

# sanitized: $PERFDUMP is a sanitizer build (its runtime, linked in by
# clang or loaded by gcc's, exports __asan_init).  Its peak RSS is mostly
# ASan's shadow and quarantine, not perfdump's.
sanitized() {
	nm -D "$PERFDUMP" 2>/dev/null | grep -q __asan_init
}

# ------------------------------------------------------ JSON conveniences

# feature NAME: jq filter selecting one feature object by name.
#   jq_eq "$(feature HOSTNAME).value" '"vm"'
feature() {
	printf '(.features[] | select(.name == "%s"))' "$1"
}

# jq definitions for values a decoder may write as a number or as a
# "0x..." string (ids, config values), compared as numbers.
JQ_DEFS='
def hex2num: ltrimstr("0x") | ascii_downcase | explode
	| reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end));
def num: if type == "string" then (if startswith("0x") then hex2num else tonumber end) else . end;
# the JSON contract every document keeps (check_json)
def contract: type == "object" and .perfdump_json_version == 1 and
	(.file | type == "string") and
	(.errors | type == "array") and (.warnings | type == "array") and
	([.errors[], .warnings[]] | all(
		(.offset == null or (.offset | type == "number")) and
		(.what | type == "string") and (.detail | type == "string")));
'

# ---------------------------------------------- record counts elsewhere

# perf_counts NAME: "TYPE N" lines of perf's aggregated stats, sorted
perf_counts() {
	sed -n '/Aggregated stats/,/stats:$/p' "testdata/perf-ref/$1.stats.txt" |
		awk '/events:/ && $1 != "TOTAL" { print $1, $3 }' | LC_ALL=C sort
}

# Corpus files whose MANIFEST "records:" counts perfdump reproduces.  The
# MANIFEST counted compressed files without decompressing them, named the
# legacy Google feature records differently, and numbers simpleperf's
# types one off (it calls 32775 UNWINDING_RESULT; simpleperf's record.h
# says CALLCHAIN): those files are left out.
MANIFEST_COMPARABLE="autofdo/hierarchical_discriminator_test.x86_64.perf.data \
	autofdo/perf-kernel.data \
	hotspot/perf.data.PerfFormatLost \
	hotspot/perf.data.true.v1 \
	hotspot/perf.data.true.v2 \
	linux-perf-data/sleep.data \
	linux-perf-file-reader/perf.data \
	llvm-lnt/fib-aarch64.perf_data \
	perf_data_converter/perf.data.armv7-3.4 \
	perf_data_converter/perf.data.branch_stack_spec \
	perf_data_converter/perf.data.ctx_switch_namespaces-4.14 \
	perf_data_converter/perf.data.hw_and_sw-3.4 \
	perf_data_converter/perf.data.intel_pt-4.14 \
	perf_data_converter/perf.data.piped.header_features-4.16 \
	perf_data_converter/perf.data.piped.header_feautres_group_desc-6.8 \
	perf_data_converter/perf.data.piped.intel_pt-4.14 \
	perf_data_converter/perf.data.piped.lost_samples-4.4 \
	perfparser/probe.data.stream \
	perfparser/vector_static_gcc__perf.lbr.data \
	platform2-sommelier/perf.data.2012-11-01 \
	platform_system_extras/etm__perf_etm.data \
	platform_system_extras/perf_b.data \
	platform_system_extras/perf_with_tracepoint_event.data"

# manifest_counts REL: "TYPE N" lines of the corpus MANIFEST's "records:" line
manifest_counts() {
	awk -v f="$1" '
		/^### / { n = $0; sub(/^### [0-9]+\. `/, "", n); sub(/`.*/, "", n) }
		/^- records: / && n == f {
			sub(/^- records: /, ""); gsub(/, /, "\n"); gsub(/=/, " "); print
		}' "$CORPUS/MANIFEST.md" | LC_ALL=C sort
}
