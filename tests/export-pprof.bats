#!/usr/bin/env bats
# export --to pprof (issue 26): go tool pprof (golang-go) reads the
# gzipped profile.proto; its -top per function equals perf report's
# (--no-children: samples and period exactly; --children: the share of
# the period, as perf prints it), its -traces the stacks of perf script's
# output collapsed as stackcollapse-perf.pl collapses them.  The symfs
# tree and perf's frames: tests/symfs.bash.

load helpers
load symfs

KSYMS=testdata/profile/kallsyms
P=testdata/profile

setup() {
	symfs_setup
	# go tool pprof keeps a cache and settings under HOME
	export HOME=$T/home GOCACHE=$T/home/gocache
	mkdir -p "$HOME"
	command -v go >/dev/null || skip "go (golang-go) is not installed: scripts/install-deps.sh test"
}

# export_pprof FILE [OPTIONS...]: $T/out.pb.gz, exit status 0
export_pprof() {
	local f=$1
	shift
	pd export --to pprof -o "$T/out.pb.gz" --symfs "$T/s" "$@" "$f"
	assert_status 0
	[ -s "$T/out.pb.gz" ]
}

# pprof ARGS...: go tool pprof on $T/out.pb.gz, no symbolization of its
# own (the profile's functions, nothing of this machine's)
pprof() {
	go tool pprof -symbolize=none "$@" "$T/out.pb.gz" 2>/dev/null
}

# pprof_top INDEX: "NAME\tFLAT\tCUM" per function, values exact (-unit=ns:
# nanoseconds unscaled), inlined calls in their caller as perf report
# counts them; functions with a name only ([dso] and <unknown> left out)
pprof_top() {
	pprof -noinlines -sample_index="$1" -unit=ns -top -nodecount=100000 \
		-nodefraction=0 -edgefraction=0 |
		awk '/^ *flat  *flat%/ { on = 1; next }
			on { name = $0; sub(/^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+  /, "", name)
			     if (name ~ /^\[.*\]$/ || name == "<unknown>") next
			     f = $1; c = $4; sub(/ns$/, "", f); sub(/ns$/, "", c)
			     print name "\t" f "\t" c }' | sort
}

# perf_report FILE ARGS...: perf report's rows by symbol, "NAME\tCOLS..."
# for symbols with a name (perf's 0x... rows of addresses left out)
perf_report() {
	local f=$1
	shift
	perf report -i "$f" --symfs "$T/s" --stdio --sort sym -g none --no-inline "$@" 2>/dev/null |
		awk '!/^#/ && NF { i = index($0, "] "); name = substr($0, i + 2)
			sub(/ +$/, "", name); if (name ~ /^0x|^0000/) next
			n = split(substr($0, 1, i - 3), v, " "); out = name
			for (k = 1; k <= n; k++) out = out "\t" v[k]; print out }' | sort
}

# flat_and_children FILE ARGS...: perf report's self samples and period,
# and its children share, against pprof's flat and cum per function
# (inlined calls in their callers: perf report --no-inline, pprof
# -noinlines); perf's names through $PERF_NAMES (sed), when set
flat_and_children() {
	local f=$1 ours theirs total
	shift
	# self: samples, period
	ours=$(join -t $'\t' <(pprof_top samples | cut -f1,2) \
		<(pprof_top 1 | cut -f1,2) | awk -F'\t' '$2 != 0')
	theirs=$(perf_report "$f" --no-children -F sample,period "$@" |
		sed -e "${PERF_NAMES:-}" | sort | awk -F'\t' '$2 != 0')
	assert_eq "$ours" "$theirs" "self samples and period per function"
	# children: the share of the event's period, as perf prints it
	total=$(pprof -sample_index=1 -unit=ns -top -nodecount=1 |
		sed -n 's/.* of \([0-9]*\)ns total.*/\1/p')
	ours=$(pprof_top 1 | awk -F'\t' -v t="$total" '$3 != 0 {
		printf "%s\t%.2f%%\n", $1, 100 * $3 / t }')
	theirs=$(perf_report "$f" --children -F overhead_children "$@")
	# no callchains: perf has no children (N/A), each its own share
	case $theirs in
	*N/A*) theirs=$(perf_report "$f" --no-children -F overhead "$@") ;;
	esac
	theirs=$(sed -e "${PERF_NAMES:-}" <<<"$theirs" | sort | awk -F'\t' '$2 != "0.00%"')
	assert_eq "$ours" "$theirs" "children share per function"
}

@test "export --to pprof: callchain.data (frame pointers): flat and cumulative per function equal perf report's" {
	export_pprof $P/callchain.data
	flat_and_children $P/callchain.data
	# the main binary first; work_a's 82 samples
	assert_contains "$(pprof -top)" "File: hot"
	assert_contains "$(pprof_top samples)" $'work_a\t82\t82'
	assert_contains "$(pprof_top samples)" $'main\t0\t110'
}

@test "export --to pprof: inl-fp.data and inl-dwarf.data (DWARF unwinding): equal to perf report, inlined calls as pprof's lines" {
	export_pprof $P/inl-fp.data
	flat_and_children $P/inl-fp.data
	export_pprof $P/inl-dwarf.data
	flat_and_children $P/inl-dwarf.data
}

@test "export --to pprof: profile.data (no callchain, kernel samples with --kallsyms): one-frame stacks equal to perf report's" {
	export_pprof $P/profile.data --kallsyms $KSYMS
	flat_and_children $P/profile.data --kallsyms $KSYMS
	assert_contains "$(pprof_top samples)" $'work_a\t808\t808'
}

@test "export --to pprof: the kernel's map as its kallsyms symbols fit it (perf's map__fixup_end), one Mapping for every kernel frame, the first one's too" {
	export_pprof $P/profile.data --kallsyms $KSYMS
	local maps
	maps=$(pprof -raw | sed -n '/^Mappings/,$p' | grep ' \[kernel.kallsyms\] ')
	# the MMAP's end is 0xffffffff8220bb08 (addr + len); the symbols'
	# 0xffffffff82206000.  Which sample read the symbols first is the
	# same for --jobs 1 and 2 then (parallel.bats)
	[ "$(wc -l <<<"$maps")" = 1 ]
	assert_contains "$maps" "0xffffffff81000000/0xffffffff82206000/0xffffffff81000000 [kernel.kallsyms] "
}

@test "export --to pprof: cxx.data's C++ names, demangled as perf report shows them" {
	cp $P/hot_cxx "$T/s$RUN/hot_cxx"
	export_pprof $P/cxx.data
	# perfdump shows two Rust names otherwise (demangle.h,
	# tests/profile.bats): the v0 name as it is, and all 16 digits of a
	# "hash"
	PERF_NAMES='s/^mycrate::foo::bar\t/_RNvNtCs1234_7mycrate3foo3bar\t/
		s/^std::io::stdio::_print\t/std::io::stdio::_print::h0123456789abcdef\t/'
	flat_and_children $P/cxx.data
	# system_name: the symbol table's name
	assert_contains "$(pprof -raw)" "geo::tally"
}

# pprof_traces [-noinlines]: go tool pprof -traces as folded stacks,
# "comm;outer;...;leaf COUNT" per stack (the threads' stacks summed), as
# stackcollapse-perf.pl writes them: a frame no symbol holds is [dso] in
# pprof as in the script, one no map holds <unknown> here, [unknown] there;
# an inlined call is "NAME (inline)" here
pprof_traces() {
	pprof "$@" -sample_index=samples -traces |
		awk 'function flush() { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; c[s] += v }
				n = 0 }
			/^-+\+-+$/ { flush(); on = 1; next }
			!on { next }
			/^ +comm:  / { comm = $0; sub(/^ +comm:  /, "", comm); next }
			/^ +(pid|tid):  / { next }
			{ if (!n) { v = $1; sub(/^ *[^ ]+   /, "") } else sub(/^ +/, "")
			  if ($0 == "<unknown>") $0 = "[unknown]"
			  sub(/ \(inline\)$/, "")
			  f[++n] = $0 }
			END { flush(); for (s in c) print s " " c[s] }' | sort
}

# perf_collapsed FILE ARGS...: perf script's samples collapsed as
# stackcollapse-perf.pl collapses them (its rules for a frame: the
# symbol without its offset; no symbol: [the DSO's base name]; no DSO
# either: [unknown]); inlined frames (perf's "(inlined)") kept with
# PERF_INLINE=1, else left out, as the script's default
perf_collapsed() {
	local f=$1
	shift
	perf script -i "$f" --symfs "$T/s" -F comm,ip,sym,dso "$@" 2>/dev/null |
		awk -v inl="${PERF_INLINE:-0}" '
			function frame(text,   sym, dso, b) {
				sub(/^[ \t]*[0-9a-f]+ /, "", text)
				if (text ~ / \(inlined\)$/) {
					if (!inl) return ""
					sub(/ \(inlined\)$/, "", text); return text
				}
				dso = text; sub(/.* \(/, "", dso); sub(/\)$/, "", dso)
				sym = text; sub(/ \([^(]*\)$/, "", sym)
				if (sym != "[unknown]") return sym
				if (dso == "[unknown]") return "[unknown]"
				b = dso; sub(/.*\//, "", b); return "[" b "]"
			}
			function flush(   s, i) { if (!have) return
				s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]
				c[s]++; have = 0; n = 0 }
			/^\t/ { x = frame($0); if (x != "") f[++n] = x; next }
			/^$/ { flush(); next }
			/^[^ \t].* $/ { flush(); comm = $0; sub(/ +$/, "", comm); have = 1; n = 0; next }
			{ flush(); comm = $1; x = $0; sub(/^ *[^ ]+ +/, "", x)
			  n = 0; x = frame(x); if (x != "") f[++n] = x; have = 1; flush() }
			END { flush(); for (s in c) print s " " c[s] }' | sort
}

@test "export --to pprof: -traces are perf script's stacks collapsed, inlined calls as pprof's lines, innermost first" {
	export_pprof $P/callchain.data
	assert_eq "$(pprof_traces -noinlines)" "$(perf_collapsed $P/callchain.data)"
	assert_contains "$(pprof_traces)" "hot;[libc.so.6];main;work_a 82"
	export_pprof $P/inl-dwarf.data
	assert_eq "$(pprof_traces -noinlines)" "$(perf_collapsed $P/inl-dwarf.data)"
	assert_eq "$(pprof_traces)" "$(PERF_INLINE=1 perf_collapsed $P/inl-dwarf.data)"
	assert_contains "$(pprof_traces)" ";main;loop_a;mix "
	# mix inlined into loop_a: one location, two lines, the inlined call
	# first; the mapping says it has inlined frames
	assert_contains "$(pprof -raw)" "mix testdata/profile/inl.h:"
	assert_contains "$(pprof -raw | sed -n '/^Mappings/,$p')" "/tmp/perfdump-profile/inl 7065726664756d702d70726f66696c652d696e6c [FN][FL][LN][IN]"
	export_pprof $P/profile.data --kallsyms $KSYMS
	assert_eq "$(pprof_traces)" "$(perf_collapsed $P/profile.data --kallsyms $KSYMS)"
}

# folded FILE ARGS...: export --to folded's stacks, sorted
folded() {
	local f=$1
	shift
	pd export --to folded --symfs "$T/s" "$@" "$f"
	assert_status 0
	sort <<<"$output"
}

@test "export --to pprof: -traces are export --to folded's stacks, with and without inlined calls" {
	# (not cxx.data: folded tidies C++ names as the script does, cut at
	# their first parenthesis; pprof has them whole)
	for f in callchain inl-fp inl-dwarf nobid-pipe; do
		export_pprof $P/$f.data
		assert_eq "$(pprof_traces -noinlines)" "$(folded $P/$f.data --no-inline)" "$f: no inlined calls"
		assert_eq "$(pprof_traces)" "$(folded $P/$f.data --inline)" "$f: inlined calls"
	done
	export_pprof $P/profile.data --kallsyms $KSYMS
	assert_eq "$(pprof_traces)" "$(folded $P/profile.data --kallsyms $KSYMS)"
}

@test "export --to pprof: a pipe-mode recording (no build-ids): equal to perf report" {
	export_pprof $P/nobid-pipe.data --kallsyms $P/nobid-kallsyms
	flat_and_children $P/nobid-pipe.data --kallsyms $P/nobid-kallsyms
	assert_contains "$(pprof_top samples)" $'work_a\t85\t85'
}

@test "export --to pprof: sample types per event, totals equal profile's, the first event's period the profile's" {
	export_pprof testdata/group.data
	pd -j profile --symfs "$T/s" testdata/group.data
	local raw want
	raw=$(pprof -raw)
	assert_contains "$raw" "cpu-clock_samples/count cpu-clock/nanoseconds[dflt] task-clock_samples/count task-clock/nanoseconds"
	assert_contains "$raw" "PeriodType: cpu-clock nanoseconds"
	assert_contains "$raw" "Period: 250000"
	want=$(jq -r '.profile.events[] | "\(.samples) \(.period)"' <<<"$output")
	for i in 0 1; do
		assert_eq "$(pprof -sample_index=$((2 * i)) -unit=ns -top -nodecount=1 |
			sed -n 's/.*Total samples = \([0-9]*\)ns.*/\1/p') $(pprof -sample_index=$((2 * i + 1)) -unit=ns -top -nodecount=1 |
			sed -n 's/.*Total samples = \([0-9]*\)ns.*/\1/p')" "$(sed -n "$((i + 1))p" <<<"$want")" "event $i's samples and period"
	done
}

@test "export --to pprof: time and duration from the recording: CLOCK_DATA's wall clock, first to last sample" {
	local f=$CORPUS/linux-perf-data/sleep.data
	[ -f "$f" ] || skip "no corpus"
	export_pprof "$f"
	pd -j stats "$f"
	local raw
	raw=$(pprof -raw)
	assert_contains "$raw" "Time: $(jq -r '.stats.time.wall_clock_first // .time.wall_clock_first' <<<"$output" |
		sed 's/T/ /; s/Z$/ +0000 UTC/')"
	assert_contains "$(pprof -unit=ns -top)" "Duration: $(jq -r '.stats.time.duration_ns // .time.duration_ns' <<<"$output" |
		awk '{ printf "%.2fus", $1 / 1000 }')"
}

@test "export --to pprof: a recording without samples: a valid empty profile, exit 0" {
	export_pprof testdata/stat.data
	run go tool pprof -symbolize=none -raw "$T/out.pb.gz"
	assert_status 0
	assert_contains "$output" "cpu-clock_samples/count cpu-clock/nanoseconds"
	assert_eq "$(sed -n '/^Samples:/,/^Locations/p' <<<"$output" | wc -l)" 3
}

@test "export --to pprof: a DSO without symbols: its frames [dso] with no function, its mapping says so, one warning" {
	# the symfs tree without hot
	rm "$T/s$RUN/hot"
	export_pprof $P/callchain.data
	assert_eq "$(grep -c 'hot: missing' <<<"$stderr")" 1
	assert_contains "$(pprof_traces)" "hot;[libc.so.6];[hot];[hot] 110"
	assert_contains "$(pprof -raw | sed -n '/^Mappings/,$p')" "/tmp/perfdump-profile/hot 7065726664756d702d70726f66696c652d686f74 "$'\n'
	[[ "$(pprof -raw | grep ' /tmp/perfdump-profile/hot ')" != *"[FN]"* ]]
}

@test "export --to pprof: regs.data's samples whose callchain is empty: at their ip, as perf report counts them" {
	# PERF_SAMPLE_CALLCHAIN, callchain_nr 0, nothing unwound: perf
	# script prints no frame (folded: the comm alone), but perf report
	# counts the sample's self time at its ip, and pprof's flat is perf
	# report's: a one-location stack
	export_pprof testdata/regs.data --kallsyms $KSYMS
	flat_and_children testdata/regs.data --kallsyms $KSYMS
	# all 102 samples have a stack (-traces shows those with one)
	assert_contains "$(pprof -sample_index=samples -top -nodecount=1)" "Total samples = 102"
	assert_eq "$(pprof_traces | awk '{ n += $NF } END { print n }')" 102
}
