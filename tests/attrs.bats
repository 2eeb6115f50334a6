#!/usr/bin/env bats
# perfdump attrs: every perf_event_attr, compared with what perf printed for
# the same files (testdata/perf-ref/NAME.evlist.txt is `perf evlist -v`,
# NAME.header.txt has the ids), with the values documented for the
# synthetic files (testdata/synthetic/README.md), with crafted attrs that
# set every decoded field, and with the corpus MANIFEST.

load helpers

REF=testdata/perf-ref
S=testdata/synthetic

# ------------------------------------------------------ perf's view

# `perf evlist -v` lines ("NAME: type: 1, size: 128, { sample_period,
# sample_freq }: 4000, sample_type: IP|TID, ..., disabled: 1, ...") as one
# JSON object per event: name, every "key: value" (hex as strings, names
# as arrays), and the attr bit-flags perf printed as "flag: 1".
EVLIST_AWK='
BEGIN {
	nf = split("disabled inherit pinned exclusive exclude_user exclude_kernel exclude_hv exclude_idle mmap comm freq inherit_stat enable_on_exec task watermark mmap_data sample_id_all exclude_host exclude_guest exclude_callchain_kernel exclude_callchain_user mmap2 comm_exec use_clockid context_switch write_backward namespaces ksymbol bpf_event aux_output cgroup text_poke build_id inherit_thread remove_on_exec sigtrap", fl, " ")
	for (i = 1; i <= nf; i++)
		isflag[fl[i]] = 1
}
/^#/ { next }
{
	p = index($0, ": type: ")
	name = substr($0, 1, p - 1)
	rest = substr($0, p + 2)
	# "{ sample_period, sample_freq }: 4000" -> "sample_period: 4000"
	while (match(rest, /\{ [a-z0-9_]+, [a-z0-9_]+ \}/)) {
		split(substr(rest, RSTART + 2, RLENGTH - 4), g, ", ")
		rest = substr(rest, 1, RSTART - 1) g[1] substr(rest, RSTART + RLENGTH)
	}
	n = split(rest, kv, ", ")
	out = "{\"name\":\"" name "\""
	flags = ""
	for (i = 1; i <= n; i++) {
		p = index(kv[i], ": ")
		k = substr(kv[i], 1, p - 1)
		v = substr(kv[i], p + 2)
		if (k in isflag) {
			if (v == "1")
				flags = flags (flags == "" ? "" : ",") "\"" k "\""
			continue
		}
		if (v ~ /^0x/)
			v = "\"" v "\""
		else if (v !~ /^-?[0-9]+$/) {
			gsub(/\|/, "\",\"", v)
			v = "[\"" v "\"]"
		}
		out = out ",\"" k "\":" v
	}
	print out ",\"flags\":[" flags "]}"
}'

# perf_evlist NAME: perf's events as a sorted-key JSON array.  perf 6.1
# does not print TRANSACTION (testdata/README.md, allbits.data).
perf_evlist() {
	local extra='.'
	[ "$1" != allbits.data ] || extra='.sample_type += ["TRANSACTION"]'
	awk "$EVLIST_AWK" "$REF/$1.evlist.txt" |
		jq -s -c -S "map($extra | .sample_type = (.sample_type // [] | sort) |
			.read_format = (.read_format // [] | sort) |
			.flags = (.flags | sort))"
}

# The same projection of perfdump's attrs: perf prints a field only when
# it is not zero, and names an unnamed event from its attr.
ATTR_JQ='def nz(k; v): if v == null or v == 0 or v == "0x0" then {} else {(k): v} end;
[.attrs[] | {name: (.name // .config_name), type, size}
	+ nz("config"; .config)
	+ nz("sample_period"; .sample_freq // .sample_period)
	+ {sample_type: (.sample_type_names | sort),
	   read_format: (.read_format_names | sort),
	   flags: (.flags_names - ["precise_ip(1)", "precise_ip(2)"] | sort)}
	+ nz("precise_ip"; .precise_ip)
	+ nz("wakeup_events"; .wakeup_events // .wakeup_watermark)
	+ nz("bp_type"; .bp_type | num)
	+ nz("bp_addr"; .bp_addr // .config1)
	+ nz("bp_len"; .bp_len // .config2)
	+ (if (.branch_sample_type // "0x0") == "0x0" then {}
	   else {branch_sample_type: (.branch_sample_type_names | sort)} end)
	+ nz("sample_regs_user"; .sample_regs_user)
	+ nz("sample_stack_user"; .sample_stack_user)
	+ nz("clockid"; .clockid)
	+ nz("sample_regs_intr"; .sample_regs_intr)
	+ nz("aux_watermark"; .aux_watermark)
	+ nz("sample_max_stack"; .sample_max_stack)
	+ nz("aux_sample_size"; .aux_sample_size)
	+ nz("sig_data"; .sig_data)]'

# perf's "# event : name = N, , id = { 1, 2 }, ..." lines: [{name, ids}]
perf_ids() {
	sed -n 's/^# event : name = \([^,]*\), .*id = { \([0-9, ]*\) }.*/\1|\2/p' "$REF/$1.header.txt" |
		awk -F'|' '{ gsub(/ /, "", $2); printf "{\"name\":\"%s\",\"ids\":[%s]}\n", $1, $2 }' |
		jq -s -c .
}

# check_vs_perf NAME FILE [STATUS]: every attr field perf printed, the
# event names and the ids.
check_vs_perf() {
	pdj -j attrs "$2"
	assert_status "${3:-0}"
	assert_no_signal
	assert_eq "$(jq -c -S "$JQ_DEFS $ATTR_JQ" <<<"$output")" "$(perf_evlist "$1")" \
		"attrs of $1 vs perf evlist -v"
	if [ -s "$REF/$1.header.txt" ] && grep -q '^# event : ' "$REF/$1.header.txt"; then
		jq_eq "[.attrs[] | {name, ids: [.ids[] | num]}]" "$(perf_ids "$1")"
	fi
	# every attr: nr_ids counts ids, offsets are file offsets
	jq_true '.attrs | to_entries | all(.key == .value.index and
		.value.nr_ids == (.value.ids | length) and
		.value.entry_offset <= .value.attr_offset)'
}

@test "attrs cpu-clock.data: every field perf evlist -v printed, name, ids" {
	check_vs_perf cpu-clock.data testdata/cpu-clock.data
	jq_all '.attrs | length' 1 \
		'.attrs[0] | [.name, .name_from, .type, .type_name, .config, .config_name]' \
		'["cpu-clock","EVENT_DESC",1,"SOFTWARE","0x0","cpu-clock"]' \
		'.attrs[0] | [.size, .size_name, .sample_freq, has("sample_period")]' \
		'[128,"VER7",4000,false]' \
		'.attrs[0].sample_type' '"0x107"' \
		'.attrs[0].read_format_names' '["ID","LOST"]' \
		'.attrs[0].ids' '["0x6c","0x6d"]' \
		'.attrs[0] | [.entry_offset, .attr_offset, .ids_offset]' '[120,120,104]' \
		'.attrs[0] | [has("config3"), has("config4"), has("sig_data")]' '[false,false,true]' \
		'.errors' '[]'
}

# bats test_tags=asan
@test "attrs callgraph.data zstd.data threads.data: the values perf printed" {
	check_vs_perf callgraph.data testdata/callgraph.data
	jq_eq '.attrs[0].sample_type_names' '["IP","TID","TIME","CALLCHAIN","PERIOD"]'
	check_vs_perf zstd.data testdata/zstd.data
	check_vs_perf threads.data testdata/threads.data
}

@test "attrs allbits.data: 19 sample_type bits, read_format GROUP, regs and stack" {
	check_vs_perf allbits.data testdata/allbits.data
	jq_all '.attrs | length' 2 \
		'[.attrs[].sample_type]' '["0x1efb5bf","0x1efb5bf"]' \
		'.attrs[0].sample_type_names' \
		'["IP","TID","TIME","ADDR","READ","CALLCHAIN","CPU","PERIOD","RAW","REGS_USER","STACK_USER","DATA_SRC","IDENTIFIER","TRANSACTION","REGS_INTR","PHYS_ADDR","CGROUP","DATA_PAGE_SIZE","CODE_PAGE_SIZE","WEIGHT_STRUCT"]' \
		'[.attrs[].read_format]' '["0x1f","0x1f"]' \
		'.attrs[1].read_format_names' \
		'["TOTAL_TIME_ENABLED","TOTAL_TIME_RUNNING","ID","GROUP","LOST"]' \
		'[.attrs[] | [.sample_regs_user, .sample_regs_intr, .sample_stack_user]]' \
		'[["0xff0fff","0xff0fff",512],["0xff0fff","0xff0fff",512]]' \
		'[.attrs[] | .flags_names | index("exclude_callchain_user") != null]' '[true,true]' \
		'[.attrs[] | .sample_period]' '[1000000,0]' \
		'.attrs[1].sampling' '"none (counting only)"' \
		'[.attrs[].ids[]]' '["0xcf","0xd0","0xd1","0xd2"]'
}

@test "attrs mono.data: use_clockid, clockid 1 named CLOCK_MONOTONIC" {
	check_vs_perf mono.data testdata/mono.data
	jq_all '.attrs[0] | [.clockid, .clockid_name]' '[1,"CLOCK_MONOTONIC"]' \
		'.attrs[0].flags_names | index("use_clockid") != null' true
	pd attrs testdata/mono.data
	assert_contains "$output" "    clockid:                1 (CLOCK_MONOTONIC)"
}

@test "attrs without use_clockid: clockid is the bare stored value, not named" {
	pdj -j attrs testdata/cpu-clock.data
	jq_all '.attrs[0] | [.clockid, has("clockid_name")]' '[0,false]'
}

@test "attrs tracepoint.data: config 0x174 is sched:sched_switch from TRACING_DATA" {
	check_vs_perf tracepoint.data testdata/tracepoint.data
	jq_all '[.attrs[] | [.name, .type, .type_name, .config, .config_name]]' \
		'[["sched:sched_switch",2,"TRACEPOINT","0x174","sched:sched_switch"],["dummy:HG",1,"SOFTWARE","0x9","dummy"]]' \
		'[.attrs[] | .sample_period]' '[1,1]' \
		'.attrs[0].sampling' '"one sample per event"' \
		'[.attrs[].ids[]]' '["0xa1","0xa2","0xa3","0xa4"]'
	# the same id as the TRACING_DATA format's ID: line
	pdj -j features testdata/tracepoint.data tracing_data
	jq_eq '.features[0].events[] | select(.name == "sched_switch") | .id' 372
}

@test "attrs group.data: two attrs, leader and member flags as perf printed" {
	check_vs_perf group.data testdata/group.data
	jq_all '[.attrs[] | [.name, .config_name, .config]]' \
		'[["cpu-clock","cpu-clock","0x0"],["task-clock","task-clock","0x1"]]' \
		'[.attrs[] | .flags_names | index("disabled") != null]' '[true,false]' \
		'[.attrs[].ids[]]' '["0xac","0xad","0xae","0xaf"]'
}

@test "attrs stat.data: counting attrs (no period), IDENTIFIER, no ID_INDEX" {
	check_vs_perf stat.data testdata/stat.data
	jq_all '[.attrs[] | [.sample_period, .sampling, has("id_index")]]' \
		'[[0,"none (counting only)",false],[0,"none (counting only)",false]]' \
		'[.attrs[].ids[]]' '["0xbb","0xbc"]'
}

@test "attrs pipe.data: HEADER_ATTR records, the values perf printed" {
	check_vs_perf pipe.data testdata/pipe.data
	jq_all '.attrs[0] | [.entry_offset, .attr_offset, .ids_offset]' '[16,24,152]' \
		'.attrs[0].sample_type_names' '["IP","TID","TIME","ID","PERIOD"]' \
		'.attrs[0].ids' '["0x87","0x88"]'
}

# bats test_tags=asan
@test "attrs pipe.data on standard input: the same output as from the file" {
	local want
	pdj -j attrs testdata/pipe.data
	want=$(jq -c '.attrs' <<<"$output")
	run --separate-stderr sh -c 'cat testdata/pipe.data | "$PERFDUMP" -j attrs -'
	assert_status 0
	check_json
	jq_eq '.attrs' "$want"
}

@test "attrs killed.data: the attr is there (exit 1 for the header), named from its attr as perf evlist names it" {
	check_vs_perf killed.data testdata/killed.data 1
	# no EVENT_DESC (no feature section): perf evlist -v says cpu-clock
	jq_all '.attrs[0] | [.name, .name_from, .config_name]' '["cpu-clock","attr","cpu-clock"]' \
		'.attrs[0].ids' '["0xda","0xdb"]'
	pd attrs testdata/killed.data
	assert_contains "$output" "  attr 0: cpu-clock (SOFTWARE) at 0x78:"
	assert_contains "$output" "    name:                   cpu-clock
    name_from:              attr"
	assert_contains "$output" "    config_name:            cpu-clock"
}

# ------------------------------------------------------------- ID_INDEX

# id_index_bytes FILE OFFSET: the ID_INDEX record at OFFSET, read from the
# file's bytes, as [{id, idx, cpu, tid}] (cpu and tid -1 for all ones).
id_index_bytes() {
	local f=$1 off=$2 nr i e out= v c t
	[ "$(od -A n -t u4 -j "$off" -N 4 "$f" | tr -d ' ')" = 69 ] || {
		echo "no ID_INDEX at $off"
		return 1
	}
	nr=$(u64 "$f" $((off + 8)))
	for ((i = 0; i < nr; i++)); do
		e=$((off + 16 + 32 * i))
		c=$(od -A n -t d8 -j $((e + 16)) -N 8 "$f" | tr -d ' ')
		t=$(od -A n -t d8 -j $((e + 24)) -N 8 "$f" | tr -d ' ')
		v=$(printf '{"id":"0x%x","idx":%d,"cpu":%d,"tid":%d}' "$(u64 "$f" "$e")" \
			"$(u64 "$f" $((e + 8)))" "$c" "$t")
		out="$out,$v"
	done
	printf '[%s]' "${out#,}"
}

@test "attrs: id_index equals the ID_INDEX record's bytes (cpu-clock.data, killed.data)" {
	local f
	for f in testdata/cpu-clock.data testdata/killed.data; do
		pdj -j attrs "$f"
		jq_eq '[.attrs[].id_index[]]' "$(id_index_bytes "$f" 264)"
		jq_eq '[.attrs[] | .ids == [.id_index[].id]] | all' true
	done
	jq_eq '.attrs[0].id_index' \
		'[{"id":"0xda","idx":0,"cpu":0,"tid":3177},{"id":"0xdb","idx":1,"cpu":1,"tid":3177}]'
	pd attrs testdata/killed.data
	assert_contains "$output" "      id=0xda idx=0 cpu=0 tid=3177"
}

@test "attrs: id_index in pipe mode, and -1 (any) for a system-wide tid" {
	pdj -j attrs testdata/pipe.data
	jq_eq '.attrs[0].id_index' \
		'[{"id":"0x87","idx":0,"cpu":0,"tid":3138},{"id":"0x88","idx":1,"cpu":1,"tid":3138}]'
	pdj -j attrs testdata/tracepoint.data
	jq_eq '[.attrs[].id_index[] | [.cpu, .tid]]' '[[0,-1],[1,-1],[0,-1],[1,-1]]'
}

# ------------------------------------------------- the synthetic files

@test "attrs full-le.data: the documented attrs, every field to config3, none beyond" {
	pdj -j attrs $S/full-le.data
	assert_status 0
	jq_all '[.attrs[] | [.name, .type, .config, .sample_period, .sample_type, .read_format, .flags]]' \
		'[["cpu-clock",1,"0x0",100000,"0x1c7","0x4","0x1840343"],["task-clock",1,"0x1",100000,"0x1c7","0x4","0x40042"]]' \
		'.attrs[0].flags_names' \
		'["disabled","inherit","exclude_hv","mmap","comm","sample_id_all","mmap2","comm_exec"]' \
		'.attrs[1].flags_names' '["inherit","exclude_hv","sample_id_all"]' \
		'[.attrs[] | .ids]' '[["0x101","0x102"],["0x201","0x202"]]' \
		'[.attrs[] | [.size, .size_name]]' '[[136,"VER8"],[136,"VER8"]]' \
		'[.attrs[] | [has("config3"), has("config4"), has("extra")]]' '[[true,false,false],[true,false,false]]' \
		'[.attrs[] | [.config1, .config2, .branch_sample_type, .sig_data, .config3, .aux_action]] | unique' \
		'[["0x0","0x0","0x0","0x0","0x0","0x0"]]' \
		'[.attrs[] | .entry_offset]' '[136,288]'
}

# bats test_tags=asan
@test "attrs full-be.data and full-be32.data: the same values as full-le.data (bit-fields reversed)" {
	local want f
	pdj -j attrs $S/full-le.data
	want=$(jq -c .attrs <<<"$output")
	for f in full-be full-be32; do
		pdj -j attrs $S/$f.data
		assert_status 0
		jq_eq .attrs "$want"
	done
	# the flags as stored big-endian are the 64-bit reversal
	pdj -j -x attrs $S/full-be.data
	jq_eq '[.attrs[].raw.hex[80:96]]' '["c2c0218000000000","4200200000000000"]'
}

# bats test_tags=asan
@test "attrs pipe-le.data and pipe-be.data: HEADER_ATTR records decode like full-le" {
	local want f
	pdj -j attrs $S/full-le.data
	want=$(jq -c '[.attrs[] | del(.entry_offset, .attr_offset, .ids_offset)]' <<<"$output")
	for f in pipe-le pipe-be; do
		pdj -j attrs $S/$f.data
		assert_status 0
		jq_all '[.attrs[] | del(.entry_offset, .attr_offset, .ids_offset)]' "$want" \
			'[.attrs[] | [.entry_offset, .attr_offset, .ids_offset]]' '[[16,24,160],[176,184,320]]'
	done
}

@test "attrs attr-big.data: attr.size 160, config4 0x1234, the bytes beyond shown" {
	local f=$S/attr-big.data
	pdj -j attrs $f
	assert_status 0
	jq_all '.attrs[0] | [.size, .size_name, .config4, .extra_size]' \
		'[160,"VER8 + 24 bytes","0x1234",16]' \
		'.attrs[0].extra' "{\"offset\":256,\"size\":16,\"hex\":\"$(hexbytes $f 256 16)\"}" \
		'.attrs[0] | [.name, .sample_period, .sample_type, .read_format, .flags, .ids]' \
		'["cpu-clock",100000,"0x1c7","0x4","0x1840343",["0x301"]]' \
		'.attrs[0] | has("bytes_decoded")' false
	# -x: all 160 bytes; the 24 beyond VER8 are 0x1234 then zeros
	pdj -j -x attrs $f
	jq_all '.attrs[0].raw | [.offset, .size]' '[112,160]' \
		'.attrs[0].raw.hex' "\"$(hexbytes $f 112 160)\"" \
		'.attrs[0].raw.hex[272:]' '"341200000000000000000000000000000000000000000000"'
	pd attrs $f
	assert_contains "$output" "    size:                   160 (VER8 + 24 bytes)"
	assert_contains "$output" "    config4:                0x1234"
	assert_contains "$output" "    extra: 16 bytes at 0x100"
}

@test "attrs: a field beyond attr.size is absent (hdr72: VER0 64 bytes, v1: VER1 72)" {
	pdj -j attrs $S/hdr72.data
	assert_status 0
	jq_all '.attrs[0] | [.size, .size_name, .config_name, .sample_freq]' '[64,"VER0","cycles",1000]' \
		'.attrs[0] | [has("config1"), has("config2"), has("branch_sample_type"), has("clockid")]' \
		'[true,false,false,false]'
	pdj -j attrs $S/v1.data
	assert_status 0
	jq_all '.attrs[0] | [.size, .size_name]' '[72,"VER1"]' \
		'.attrs[0] | [has("config2"), has("branch_sample_type"), has("sample_regs_user")]' \
		'[true,false,false]'
}

# bats test_tags=asan
@test "attrs attrs-after-data.data: decoded like full-le" {
	local want
	pdj -j attrs $S/full-le.data
	want=$(jq -c '[.attrs[] | del(.entry_offset, .attr_offset, .ids_offset, .id_index)]' <<<"$output")
	pdj -j attrs $S/attrs-after-data.data
	assert_status 0
	jq_eq '[.attrs[] | del(.entry_offset, .attr_offset, .ids_offset, .id_index)]' "$want"
}

@test "attrs trunc-attrs.data: attr 0 decoded, exit 1 with the error, valid JSON" {
	pdj -j attrs $S/trunc-attrs.data
	assert_status 1
	assert_no_signal
	jq_all '.attrs[0] | [.name, .config_name, .flags]' '["cpu-clock:ku","cpu-clock","0x1840343"]' \
		'.errors | length > 0' true
	assert_contains "$stderr" "perfdump: $S/trunc-attrs.data: 0x18: "
}

@test "attrs on truncated and invalid files: exit 1, never a signal, JSON valid" {
	local f
	for f in trunc-header trunc-attrs trunc-data trunc-feattable trunc-feature zero-magic; do
		pd attrs $S/$f.data
		assert_no_signal
		assert_eq "$status" 1 "exit status of attrs $f"
		pdj -j attrs $S/$f.data
		assert_no_signal
		assert_eq "$status" 1 "exit status of -j attrs $f"
	done
}

# ------------------------------------------------------ crafted attrs

be64() {
	local h i out=
	printf -v h '%016x' "$1" # -v: no subshell, no fork per call
	for i in 0 2 4 6 8 10 12 14; do
		out="$out\\x${h:$i:2}"
	done
	# shellcheck disable=SC2059
	printf "$out"
}

be32() {
	local h i out=
	printf -v h '%08x' "$1" # -v: no subshell, no fork per call
	for i in 0 2 4 6; do
		out="$out\\x${h:$i:2}"
	done
	# shellcheck disable=SC2059
	printf "$out"
}

be16() {
	local h
	printf -v h '%04x' "$1" # -v: no subshell, no fork per call
	# shellcheck disable=SC2059
	printf "\\x${h:0:2}\\x${h:2:2}"
}

le16() {
	local h
	printf -v h '%04x' "$1" # -v: no subshell, no fork per call
	# shellcheck disable=SC2059
	printf "\\x${h:2:2}\\x${h:0:2}"
}

# w64/w32/w16 N: N in the byte order $E (little or big)
w64() { if [ "$E" = big ]; then be64 "$1"; else le64 "$1"; fi; }
w32() { if [ "$E" = big ]; then be32 "$1"; else le32 "$1"; fi; }
w16() { if [ "$E" = big ]; then be16 "$1"; else le16 "$1"; fi; }

# bitrev V BITS: V with its low BITS bits reversed (big-endian bit-fields)
bitrev() {
	local v=$1 n=$2 r=0 i
	for ((i = 0; i < n; i++)); do
		r=$(((r << 1) | ((v >> i) & 1)))
	done
	echo "$r"
}

# hstring TEXT: perf's header string, length padded to 64
hstring() {
	w32 64
	printf '%s' "$1"
	head -c $((64 - ${#1})) /dev/zero
}

# attr136 TYPE CONFIG PERIOD SAMPLE_TYPE READ_FORMAT FLAGS WAKEUP BP_TYPE
#         CONFIG1 CONFIG2 BRANCH_SAMPLE_TYPE CLOCKID MAX_STACK AUX_SAMPLE_SIZE
#         AUX_ACTION SIG_DATA CONFIG3: a 136-byte attr (VER8); the other
# fields 0.  FLAGS and AUX_ACTION in little-endian bit numbering.
attr136() {
	local f=$6 aa=${15}
	if [ "$E" = big ]; then
		f=$(bitrev "$f" 64)
		aa=$(bitrev "$aa" 32)
	fi
	w32 "$1"; w32 136; w64 "$2"; w64 "$3"; w64 "$4"; w64 "$5"; w64 "$f"
	w32 "$7"; w32 "$8"; w64 "$9"; w64 "${10}"; w64 "${11}"
	w64 0; w32 0; w32 "${12}"
	w64 0; w32 0; w16 "${13}"; w16 0
	w32 "${14}"; w32 "$aa"; w64 "${16}"; w64 "${17}"
}

# The crafted attrs, one attr136 argument list each; attr i has id 0x1000+i.
CRAFTED=(
	"5 0 1 $((0x10007 | 1 << 30)) 0 $((1 | 1 << 5 | 1 << 14 | 1 << 16 | 1 << 25 | 1 << 45)) 4096 3 0x601040 8 $((0x20003 | 1 << 25)) 4 127 4096 5 0xdead 0x33"
	"3 0x800010000 4000 0x107 0x14 $((1 << 10 | 3 << 15 | 1 << 18)) 0 0 0 0 0 0 0 0 0 0 0"
	"0 3 999 0x107 0 $((1 << 10 | 1 << 15)) 0 0 0 0 0 0 0 0 0 0 0"
	"9 0x1234 0 0 0 0 0 0 5 6 0 0 0 0 0 0 0"
	"10 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
	"4 0x1cd 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
	"1 99 0 $((1 << 40 | 1)) $((1 << 7)) $((1 << 63 | 1 << 40)) 0 0 0 0 0 0 0 0 $((1 << 31 | 1 << 3)) 0 0"
	"3 0x103 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
)

# make_attrs_file OUT little|big: a file-mode perf.data with the CRAFTED
# attrs (attr_size 152, attrs at 104), one id each, one FINISHED_ROUND,
# and HOSTNAME and PMU_MAPPINGS (8 cpu_core, 9 mypmu) features.
make_attrs_file() {
	# built once per run of this file (bash writes it a field at a time)
	local cached=$BATS_FILE_TMPDIR/crafted-$2.data
	[ -f "$cached" ] || build_attrs_file "$cached" "$2"
	cp "$cached" "$1"
}

build_attrs_file() {
	local n=${#CRAFTED[@]} i ids data table sec
	E=$2
	ids=$((104 + 152 * n))
	data=$((ids + 8 * n))
	table=$((data + 8))
	sec=$((table + 32))
	{
		if [ "$E" = big ]; then printf '2ELIFREP'; else printf 'PERFILE2'; fi
		w64 104
		w64 152
		w64 104
		w64 $((152 * n))
		w64 "$data"
		w64 8
		w64 0
		w64 0
		w64 $((1 << 3 | 1 << 16)) # HOSTNAME, PMU_MAPPINGS
		w64 0
		w64 0
		w64 0
		for ((i = 0; i < n; i++)); do
			# shellcheck disable=SC2086
			attr136 ${CRAFTED[i]}
			w64 $((ids + 8 * i))
			w64 8
		done
		for ((i = 0; i < n; i++)); do
			w64 $((0x1000 + i))
		done
		w32 68 # FINISHED_ROUND
		w16 0
		w16 8
		w64 "$sec"
		w64 68
		w64 $((sec + 68))
		w64 148
		hstring crafted
		w32 2
		w32 8
		hstring cpu_core
		w32 9
		hstring mypmu
	} >"$1"
}

# bats test_tags=asan
@test "attrs crafted: breakpoint, precise_ip, watermark, clockid, branch and aux_action names, unknown bits" {
	local f=$BATS_TEST_TMPDIR/crafted.data
	make_attrs_file "$f" little
	pdj -j attrs "$f"
	assert_status 0
	assert_empty "$stderr" stderr
	jq_all '.attrs | length' 8 \
		'.errors' '[]' \
		'.attrs[0] | [.type, .type_name, .config_name, .sample_period]' '[5,"BREAKPOINT","mem:0x601040:rw",1]' \
		'.attrs[0].sample_type_names' '["IP","TID","TIME","IDENTIFIER","bit 30"]' \
		'.attrs[0] | [.flags, .flags_names]' \
		'["0x200002014021",["disabled","exclude_kernel","watermark","precise_ip(2)","use_clockid","bit 45"]]' \
		'.attrs[0] | [.precise_ip, .precise_ip_name, .precise_ip_modifier]' '[2,"requested zero skid",":pp"]' \
		'.attrs[0] | [.wakeup_watermark, has("wakeup_events")]' '[4096,false]' \
		'.attrs[0] | [.bp_type, .bp_type_names, .bp_addr, .bp_len, has("config1"), has("config2")]' \
		'["0x3",["R","W"],"0x601040",8,false,false]' \
		'.attrs[0] | [.branch_sample_type, .branch_sample_type_names]' \
		'["0x2020003",["USER","KERNEL","HW_INDEX","bit 25"]]' \
		'.attrs[0] | [.clockid, .clockid_name]' '[4,"CLOCK_MONOTONIC_RAW"]' \
		'.attrs[0] | [.sample_max_stack, .aux_sample_size, .sig_data, .config3, has("config4")]' \
		'[127,4096,"0xdead","0x33",false]' \
		'.attrs[0] | [.aux_action, .aux_action_names]' '["0x5",["aux_start_paused","aux_resume"]]' \
		'[.attrs[].ids[]]' '["0x1000","0x1001","0x1002","0x1003","0x1004","0x1005","0x1006","0x1007"]' \
		'[.attrs[].entry_offset]' '[104,256,408,560,712,864,1016,1168]'
	jq_all '.attrs[1] | [.type_name, .config, .config_name, .extended_type, .extended_type_name]' \
		'["HW_CACHE","0x800010000","L1-dcache-load-misses",8,"cpu_core"]' \
		'.attrs[1] | [.sample_freq, .sampling, has("sample_period")]' \
		'[4000,"4000 samples per second (freq)",false]' \
		'.attrs[1] | [.precise_ip, .precise_ip_name, .precise_ip_modifier]' '[3,"must have zero skid",":ppp"]' \
		'.attrs[1] | [.clockid, has("clockid_name"), .wakeup_events]' '[0,false,0]' \
		'.attrs[2] | [.type_name, .config_name, .sample_freq, .precise_ip, .precise_ip_modifier, has("extended_type")]' \
		'["HARDWARE","cache-misses",999,1,":p",false]' \
		'.attrs[3] | [.type, .type_name, .config, .config_name, .config1, .config2]' \
		'[9,"mypmu","0x1234",null,"0x5","0x6"]' \
		'.attrs[4] | [.type, .type_name, .config_name]' '[10,null,null]' \
		'.attrs[5] | [.type_name, .config_name]' '["RAW","raw 0x1cd"]' \
		'.attrs[6] | [.config_name, .sample_type_names, .read_format_names, .flags_names, .aux_action_names]' \
		'[null,["IP","bit 40"],["bit 7"],["bit 40","bit 63"],["bit 3","bit 31"]]' \
		'.attrs[6] | [.flags, .precise_ip_modifier]' '["0x8000010000000000",null]' \
		'.attrs[7] | [.config, .config_name]' '["0x103","dTLB-stores"]'
}

# bats test_tags=asan
@test "attrs crafted text: titles and decoded rows" {
	local f=$BATS_TEST_TMPDIR/crafted.data
	make_attrs_file "$f" little
	pd attrs "$f"
	assert_status 0
	assert_contains "$output" "  attr 0: mem:0x601040:rw:uhpp (BREAKPOINT) at 0x68:"
	assert_contains "$output" "  attr 1: L1-dcache-load-misses:ppp (HW_CACHE) at 0x100:"
	assert_contains "$output" "  attr 3: mypmu/config=0x1234/HG (mypmu) at 0x230:"
	assert_contains "$output" "  attr 4: 10/config=0x0/HG (type 10) at 0x2c8:"
	assert_contains "$output" "  attr 6: config 0x63 (SOFTWARE) at 0x3f8:"
	assert_contains "$output" "    flags:                  0x200002014021 (disabled|exclude_kernel|watermark|precise_ip(2)|use_clockid|bit 45)"
	assert_contains "$output" "    precise_ip:             2 (requested zero skid)"
	assert_contains "$output" "    precise_ip_modifier:    :pp"
	assert_contains "$output" "    branch_sample_type:     0x2020003 (USER|KERNEL|HW_INDEX|bit 25)"
	assert_contains "$output" "    aux_action:             0x5 (aux_start_paused|aux_resume)"
	assert_contains "$output" "    extended_type:          8 (cpu_core)"
	assert_contains "$output" "    type:                   <unknown: 10>"
}

# perf 6.1's evsel__name (tools/perf/util/evsel.c) on attrs no EVENT_DESC
# names: the config's name, then evsel__add_modifiers: k, u, h for the
# levels counted when one is excluded, p per precise_ip, H/G when
# exclude_guest equals perf's default (set with k/u/h or p, else clear)
# bats test_tags=asan
@test "attrs crafted: events the file names nowhere are named from their attrs, as perf names them" {
	local f=$BATS_TEST_TMPDIR/crafted.data
	make_attrs_file "$f" little
	pdj -j attrs "$f"
	assert_status 0
	# bp: exclude_kernel, precise_ip 2; cache: precise_ip 3; hardware:
	# precise_ip 1; type 9 (PMU_MAPPINGS mypmu) and 10 (no mapping) in
	# perf's PMU syntax, perf itself says "unknown attr type: N"; raw and
	# cache with no bit set count in guests too (HG); software config 99
	# has no name ("unknown-software"): unnamed, attr6
	jq_eq '[.attrs[] | [.name, .name_from]]' \
		'[["mem:0x601040:rw:uhpp","attr"],["L1-dcache-load-misses:ppp","attr"],["cache-misses:p","attr"],["mypmu/config=0x1234/HG","attr"],["10/config=0x0/HG","attr"],["raw 0x1cd:HG","attr"],[null,null],["dTLB-stores:HG","attr"]]'
	pdj -j summary "$f"
	jq_eq '[.summary.events[].name]' \
		'["mem:0x601040:rw:uhpp","L1-dcache-load-misses:ppp","cache-misses:p","mypmu/config=0x1234/HG","10/config=0x0/HG","raw 0x1cd:HG",null,"dTLB-stores:HG"]'
}

# bats test_tags=asan
@test "attrs crafted: a hybrid hardware event is PMU/event/ (PMU_MAPPINGS, else cpu); an unknown config stays unnamed" {
	local f=$BATS_TEST_TMPDIR/hybrid.data
	# extended type 8 (cpu_core), exclude_kernel|exclude_hv|exclude_guest;
	# extended type 7 (no mapping), exclude_kernel|exclude_guest; config 0x20
	local CRAFTED=(
		"0 $((8 << 32)) 4000 0x107 0 $((1 << 5 | 1 << 6 | 1 << 20)) 0 0 0 0 0 0 0 0 0 0 0"
		"0 $((7 << 32 | 1)) 4000 0x107 0 $((1 << 5 | 1 << 20)) 0 0 0 0 0 0 0 0 0 0 0"
		"0 $((0x20)) 4000 0x107 0 0 0 0 0 0 0 0 0 0 0 0 0"
	)
	build_attrs_file "$f" little
	pdj -j attrs "$f"
	assert_status 0
	jq_eq '[.attrs[] | [.name, .name_from, .config_name]]' \
		'[["cpu_core/cycles/:uH","attr","cycles"],["cpu/instructions/:uhH","attr","instructions"],[null,null,null]]'
	pd summary "$f"
	assert_contains "$output" "    attr2:                  attr=2 samples=0"
}

# bats test_tags=asan
@test "attrs crafted big-endian: the same values (flags and aux_action bit-reversed)" {
	local le=$BATS_TEST_TMPDIR/le.data be=$BATS_TEST_TMPDIR/be.data want
	make_attrs_file "$le" little
	make_attrs_file "$be" big
	pdj -j attrs "$le"
	want=$(jq -c .attrs <<<"$output")
	pdj -j attrs "$be"
	assert_status 0
	jq_eq .attrs "$want"
}

# bats test_tags=asan
@test "attrs: attr.size larger than its slot decodes the slot (bytes_decoded), smaller hides the rest" {
	local f=$BATS_TEST_TMPDIR/crafted.data
	make_attrs_file "$f" little
	# attr 0's size field (offset 104 + 4) -> 200
	printf '\xc8\x00\x00\x00' | dd of="$f" bs=1 seek=108 conv=notrunc status=none
	pdj -j attrs "$f"
	assert_status 0
	jq_all '.attrs[0] | [.size, .size_name, .bytes_decoded, .config3, has("config4")]' \
		'[200,"VER8 + 64 bytes",136,"0x33",false]' \
		'any(.warnings[]; .offset == 108 and .what == "perf_event_attr")' true
	# -> 80 (VER2): branch_sample_type is the last field
	printf '\x50\x00\x00\x00' | dd of="$f" bs=1 seek=108 conv=notrunc status=none
	pdj -j attrs "$f"
	assert_status 0
	jq_all '.attrs[0] | [.size, .size_name, .branch_sample_type, has("sample_regs_user"), has("clockid"), has("aux_action"), has("bytes_decoded")]' \
		'[80,"VER2","0x2020003",false,false,false,false]' \
		'.attrs[0] | [.precise_ip, .bp_len]' '[2,8]'
}

# bats test_tags=asan
@test "attrs -x: each attr's raw bytes, equal to the file's" {
	local f=$BATS_TEST_TMPDIR/crafted.data
	make_attrs_file "$f" little
	pdj -j -x attrs "$f"
	jq_eq '[.attrs[].raw | [.offset, .size]]' '[[104,136],[256,136],[408,136],[560,136],[712,136],[864,136],[1016,136],[1168,136]]'
	jq_eq '.attrs[3].raw.hex' "\"$(hexbytes "$f" 560 136)\""
	pdj -j -x attrs testdata/pipe.data
	jq_eq '.attrs[0].raw' "{\"offset\":24,\"size\":128,\"hex\":\"$(hexbytes testdata/pipe.data 24 128)\"}"
	pdj -j attrs testdata/pipe.data
	jq_eq '.attrs[0] | has("raw")' false
}

# --------------------------------------------------- command line

@test "attrs --help and 'help attrs' print the same usage; attrs is in --help" {
	local a
	pd attrs --help
	assert_status 0
	a=$output
	assert_contains "$a" "Usage: perfdump attrs [-j|-p] [-x] [FILE...]"
	pd help attrs
	assert_status 0
	assert_eq "$output" "$a" "help attrs"
	pd --help
	assert_contains "$output" "  attrs "
}

@test "attrs: a second argument is another FILE; a missing file is exit 3" {
	pd attrs testdata/cpu-clock.data extra
	assert_status 3
	assert_contains "$output" "File: testdata/cpu-clock.data"
	assert_eq "$stderr" "perfdump: extra: No such file or directory"
	pd attrs testdata/no-such-file.data
	assert_status 3
}

@test "attrs text: one titled block per attr with aligned rows" {
	pd attrs testdata/group.data
	assert_status 0
	assert_eq "${output%%$'\n'*}" "File: testdata/group.data" "first line"
	assert_contains "$output" $'attrs:\n  attr 0: cpu-clock (SOFTWARE) at 0x88:\n    index:                  0\n    name:                   cpu-clock\n'
	assert_contains "$output" "  attr 1: task-clock (SOFTWARE) at 0x118:"
	assert_contains "$output" "    sample_freq:            4000"
	assert_contains "$output" "    sample_type:            0x147 (IP|TID|TIME|ID|PERIOD)"
	assert_contains "$output" "    precise_ip:             0 (arbitrary skid)"
	assert_contains "$output" "    ids:                    0xac, 0xad"
}

# bats test_tags=asan
@test "attrs -p: indented JSON with the same content as -j" {
	local compact
	pdj -j attrs testdata/tracepoint.data
	compact=$(jq -c . <<<"$output")
	pdj -p attrs testdata/tracepoint.data
	assert_contains "$output" $'{\n  "perfdump_json_version": 1,'
	jq_eq . "$compact"
}

# ------------------------------------------------------------ corpus

# manifest_attrs REL: the MANIFEST's "attrs (N): ..." line for a file, as
# "N: first six"
manifest_attrs() {
	awk -v f="$1" '/^### [0-9]+\. `/ { cur = $3; gsub(/`/, "", cur) }
		cur == f && /^- attrs \(/ { print; exit }' "$CORPUS/MANIFEST.md" |
		sed 's/^- attrs (\([0-9]*\)): /\1: /; s/ … (+[0-9]* more)$//'
}

# The same summary of perfdump's attrs.
MANIFEST_JQ='[.attrs[] | ((["HW","SW","TRACEPOINT","HW_CACHE","RAW"])[.type] // (.type | tostring))
	+ "/" + .config + " [" + (.sample_type_names | join("|")) + "]"
	+ (if (.branch_sample_type // "0x0") != "0x0" then " bst=" + .branch_sample_type else "" end)
	+ " attr.size=" + (.size | tostring)] | (length | tostring) + ": " + (.[0:6] | join("; "))'

# The damaged corpus files of tests/corpus.bats: exit 1.
DAMAGED="linux-perf-data/sleep.compressed2.pipe.data perf_data_converter/perf.data.piped.corrupted.zero_size_sample-3.2 perf_data_converter/perf.data.piped.extrabyte-3.4 platform_system_extras/invalid_perf.data"
# ... of which not a recording: nothing shown in text
NOT_PERF="platform_system_extras/invalid_perf.data"

# bats test_tags=asan,normal
@test "attrs corpus: every file exits 0 (1 if damaged) in text and JSON, and matches the MANIFEST" {
	sweep
	need_corpus
	local f want st got g docs= n=0
	local -A manifest
	# every file's "attrs (N): ..." line of the MANIFEST, read once
	while IFS=$'\t' read -r f want; do
		manifest[$f]=$want
	done < <(awk '/^### [0-9]+\. `/ { cur = $3; gsub(/`/, "", cur) }
		/^- attrs \(/ && cur != "" { sub(/^- attrs \(/, ""); sub(/\): /, ": ");
			sub(/ … \(\+[0-9]* more\)$/, ""); print cur "\t" $0; cur = "" }' "$CORPUS/MANIFEST.md")
	[ "${#manifest[@]}" -gt 40 ]
	while IFS= read -r f; do
		st=0
		case " $DAMAGED " in *" $f "*) st=1 ;; esac
		pd attrs "$CORPUS/$f"
		assert_no_signal
		assert_eq "$status" "$st" "exit status of attrs $f"
		if [ "$f" = "$NOT_PERF" ]; then
			assert_empty "$output" "stdout of attrs $f"
			pdj -j attrs "$CORPUS/$f"
			assert_status 1
			jq_true '.attrs == null'
			continue
		fi
		assert_eq "${output%%$'\n'*}" "File: $CORPUS/$f" "first line of attrs $f"
		pd -j attrs "$CORPUS/$f"
		assert_no_signal
		assert_eq "$status" "$st" "exit status of -j attrs $f"
		docs="$docs{\"f\":$(js "$f"),\"st\":$st,\"doc\":$output}
"
		n=$((n + 1))
	done < <(cd "$CORPUS" && find . -type f ! -name MANIFEST.md | sed 's|^\./||' | LC_ALL=C sort)
	# one jq over all the documents: each a perfdump document, no errors
	# (unless damaged), and the MANIFEST's summary of the attrs; a line
	# "FILE<tab>SUMMARY" each
	got=$(jq -r '.f + "\t" + (.st as $st | .doc | if .perfdump_json_version != 1 or (.errors | type) != "array" then "not a perfdump document"
		elif $st == 0 and .errors != [] then "errors: \(.errors)" else '"$MANIFEST_JQ"' end)' <<<"$docs" 2>&1) ||
		{ echo "jq: $got"; false; }
	[ "$(wc -l <<<"$got")" -eq "$n" ] && [ "$n" -gt 40 ] || { echo "$n files, jq wrote: $got"; false; }
	while IFS=$'\t' read -r f g; do
		want=${manifest[$f]:-}
		if [ -n "$want" ]; then
			assert_eq "$g" "$want" "attrs of $f vs MANIFEST"
		else
			case $g in "not a perfdump document" | "errors: "*) assert_eq "$g" "" "$f" ;; esac
		fi
	done <<<"$got"
}

@test "attrs corpus hybrid_topology: extended types 4 and 7 named cpu_core and cpu_atom" {
	need_corpus
	pdj -j attrs "$CORPUS/perf_data_converter/perf.data.hybrid_topology"
	assert_status 0
	jq_all '[.attrs[] | [.name, .config, .config_name, .extended_type, .extended_type_name]]' \
		'[["cpu_core/cycles:ppp/","0x400000000","cycles",4,"cpu_core"],["cpu_atom/cycles:ppp/","0x700000000","cycles",7,"cpu_atom"],["dummy:HG","0x9","dummy",null,null]]' \
		'[.attrs[] | .precise_ip_modifier]' '[":ppp",":ppp",null]'
}

@test "attrs corpus cpp-inlining: attr.size 136 (VER8) with config3, hybrid cpu_atom/cpu_core" {
	need_corpus
	pdj -j attrs "$CORPUS/perfparser/cpp-inlining__cpp-inlining.perf.data"
	assert_status 0
	jq_all '[.attrs[] | [.size, .size_name, .config3, has("config4")]] | unique' '[[136,"VER8","0x0",false]]' \
		'[.attrs[] | .extended_type_name]' '["cpu_atom","cpu_core",null]' \
		'[.attrs[] | .ids | length]' '[8,8,16]' \
		'[.attrs[] | (.ids == [.id_index[].id])] | all' true
}

@test "attrs corpus branch_stack_hw_index: branch_sample_type HW_INDEX, PMU cs_etm" {
	need_corpus
	pdj -j attrs "$CORPUS/perf_data_converter/perf.data.branch_stack_hw_index"
	assert_status 0
	jq_all '[.attrs[] | [.type, .type_name, .config, .config_name]]' \
		'[[8,"cs_etm","0x10008000",null],[1,"SOFTWARE","0x9","dummy"],[0,"HARDWARE","0x1","instructions"]]' \
		'.attrs[2] | [.branch_sample_type, .branch_sample_type_names]' '["0x20000",["HW_INDEX"]]'
}

@test "attrs corpus PerfFormatLost: read_format ID|GROUP|LOST, attr.size 136" {
	need_corpus
	pdj -j attrs "$CORPUS/hotspot/perf.data.PerfFormatLost"
	assert_status 0
	jq_all '[.attrs[] | [.name, .config_name, .size, .read_format, .read_format_names]]' \
		'[["cycles","cycles",136,"0x1c",["ID","GROUP","LOST"]],["instructions","instructions",136,"0x1c",["ID","GROUP","LOST"]]]' \
		'.attrs[0].sample_type_names | index("READ") != null' true
}

@test "attrs corpus lbr and branch files: branch_sample_type names" {
	need_corpus
	pdj -j attrs "$CORPUS/perfparser/vector_static_gcc__perf.lbr.data"
	jq_eq '.attrs[0] | [.branch_sample_type, .branch_sample_type_names]' \
		'["0xc801",["USER","CALL_STACK","NO_FLAGS","NO_CYCLES"]]'
	pdj -j attrs "$CORPUS/perf_data_converter/perf.data.branch-4.14"
	jq_eq '.attrs[0].branch_sample_type_names' '["ANY"]'
}

@test "attrs corpus tracepoints: probe_untitled1:main (file and pipe), sched:sched_switch" {
	need_corpus
	pdj -j attrs "$CORPUS/perfparser/probe.data.file"
	jq_eq '.attrs[0] | [.name, .type_name, .config, .config_name]' \
		'["probe_untitled1:main","TRACEPOINT","0x531","probe_untitled1:main"]'
	pdj -j attrs "$CORPUS/perfparser/probe.data.stream"
	jq_eq '.attrs[0] | [.config, .config_name]' '["0x531","probe_untitled1:main"]'
	pdj -j attrs "$CORPUS/perfparser/parallel_static_gcc__perf.data.zstd"
	jq_eq '[.attrs[] | .config_name]' '["cycles","sched:sched_switch"]'
}

@test "attrs corpus: config names are perf's event names (armv7 HW events, HW_CACHE, SOFTWARE)" {
	need_corpus
	pdj -j attrs "$CORPUS/perf_data_converter/perf.data.armv7-3.4"
	jq_eq '[.attrs[] | .name == .config_name] | all' true
	jq_eq '[.attrs[] | .config_name]' \
		'["cycles","instructions","cache-references","cache-misses","branches","branch-misses"]'
	pdj -j attrs "$CORPUS/perf_data_converter/perf.data.group_desc-4.4"
	jq_eq '[.attrs[] | .config_name]' \
		'["cycles","cache-misses","page-faults","cache-references","branch-misses","iTLB-load-misses","dTLB-load-misses"]'
}

@test "attrs corpus ppc64 big-endian pipe and v1 file: HEADER_ATTR / PERFFILE attrs" {
	need_corpus
	pdj -j attrs "$CORPUS/platform2-sommelier/perf.data.piped.powerpc"
	assert_status 0
	jq_all '.attrs[0] | [.type_name, .config_name, .size, .sample_type_names, .sample_freq]' \
		'["HARDWARE","cycles",80,["IP","TID","TIME","PERIOD"],1000]' \
		'.attrs[0].flags_names' '["disabled","inherit","mmap","comm","freq","enable_on_exec","sample_id_all","exclude_guest"]'
	pdj -j attrs "$CORPUS/hotspot/perf.data.true.v1"
	assert_status 0
	jq_all '.attrs[0] | [.type_name, .config_name, .size, .size_name, .sample_type_names]' \
		'["SOFTWARE","cpu-clock",72,"VER1",["IP","TID","TIME","CALLCHAIN","PERIOD"]]' \
		'.attrs[0] | [has("config2"), has("branch_sample_type")]' '[true,false]'
}
