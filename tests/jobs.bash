# shellcheck shell=bash
# The parallel mode's oracle: one thread (parallel.bats, copy-parallel.bats).
# Load after helpers.

# nthreads ARGS...: how many threads perfdump ARGS starts (strace; no
# read-ahead thread: PERFDUMP_READER=plain); its output and status dropped
nthreads() {
	local log=$BATS_TEST_TMPDIR/strace
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 PERFDUMP_READER=plain \
		strace -f -qq -e trace=clone,clone3 -o "$log" "$PERFDUMP" "$@" >/dev/null 2>&1 || true
	grep -c clone "$log" || true
}

# the fixtures of testdata/profile with symbols (export.bats'), and more
SYM_FIXTURES="callchain cxx inl-fp inl-dwarf inl-cxx nolibc-dwarf profile profile-sh nobid-pipe nobid-z kinit nobid-killed nolibc-cut"

# kallsyms_of NAME: the kallsyms file of testdata/profile/NAME.data's
# kernel
kallsyms_of() {
	case $1 in
	nobid-*) echo testdata/profile/nobid-kallsyms ;;
	kinit) echo testdata/profile/kinit.kallsyms ;;
	*) echo testdata/profile/kallsyms ;;
	esac
}

# corpus_files: every corpus recording into the caller's array files
# (the test skipped without the corpus; at least 50 of them)
corpus_files() {
	[ -d "$CORPUS" ] || skip "no corpus"
	mapfile -t files < <(find "$CORPUS" -type f ! -name '*.md' ! -name '*.txt' | sort)
	[ "${#files[@]}" -ge 50 ]
}

# collect_files WORDS... -- ...: the words before -- into the caller's
# array files (the caller then shifts them and the --)
collect_files() {
	files=()
	while [ "$1" != -- ]; do
		files+=("$1")
		shift
	done
}

# same_as_one JOBS FILES -- ARGS...: `records ARGS FILE` (PD_CMD: another
# command) with --jobs 1 and with each of JOBS (a list): the same stdout,
# stderr and exit status, for every file.  With PD_OUT=1 the command
# writes a file (copy: `-o OUT` after FILE), compared too; OUT has the
# same name in two directories, so what names it (a redacted token too)
# says the same.  Says which differ.
same_as_one() {
	local jobs=$1 f j bad=0 t=$BATS_TEST_TMPDIR cmd=${PD_CMD:-records}
	local -a files=() o1=() oj=()
	shift
	collect_files "$@"
	shift $((${#files[@]} + 1))
	mkdir -p "$t/1" "$t/j"
	[ -z "${PD_OUT:-}" ] || { o1=(-o "$t/1/out.data"); oj=(-o "$t/j/out.data"); }
	for f in "${files[@]}"; do
		local s1=0 sj=0
		rm -f "$t/1/out.data"
		"$PERFDUMP" "$cmd" --jobs 1 "$@" "$f" "${o1[@]}" >"$t/one.out" 2>"$t/one.err" || s1=$?
		[ -z "${PD_OUT:-}" ] || sed -i "s|$t/1/|OUT/|" "$t/one.out" "$t/one.err"
		for j in $jobs; do
			sj=0
			rm -f "$t/j/out.data"
			"$PERFDUMP" "$cmd" --jobs "$j" "$@" "$f" "${oj[@]}" >"$t/par.out" 2>"$t/par.err" || sj=$?
			[ -z "${PD_OUT:-}" ] || sed -i "s|$t/j/|OUT/|" "$t/par.out" "$t/par.err"
			if [ "$s1" != "$sj" ] || ! cmp -s "$t/one.out" "$t/par.out" ||
				! cmp -s "$t/one.err" "$t/par.err" ||
				{ [ -e "$t/1/out.data" ] && ! cmp -s "$t/1/out.data" "$t/j/out.data"; }; then
				echo "differs: $cmd $f --jobs $j $* (status $s1 vs $sj)"
				diff "$t/one.out" "$t/par.out" | cut -c1-200 | head -3
				diff "$t/one.err" "$t/par.err" | cut -c1-200 | head -3
				bad=$((bad + 1))
				[ "$bad" -lt 3 ] || return 1
			fi
			[ "$sj" -lt 128 ] || { echo "signal: $f --jobs $j $*"; bad=$((bad + 1)); }
		done
	done
	[ "$bad" = 0 ]
}
