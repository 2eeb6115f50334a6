#!/usr/bin/env bats
# PERF_RECORD_SAMPLE decoding (tools/perf/util/evsel.c: evsel__parse_sample):
# every sample of the fixtures
# against what perf script printed for them (testdata/perf-ref), the
# allbits.data fields against values perf 6.1 printed (hard-coded), the
# corpus files (skipped when ../shared/corpus is absent), and crafted pipe
# streams for the layouts no recording here has: big-endian branch flags,
# the HW_INDEX-without-branch-data ambiguity, unknown sample bits, junk
# after the last field, fields cut short.

load helpers

REF=testdata/perf-ref

# ---------------------------------------------------------------- helpers

# jq: a sample's time as perf script --ns prints it ("202.154166440").
# jq computes in doubles: exact for the fixtures' times (< 2^53 ns).
JQ_TIME='def ns_time: "\(. / 1000000000 | floor).\(. % 1000000000 | tostring | ("000000000" + .)[-9:])";'

# pd_script FILE [cpu]: "pid/tid [cpu] time: period event: ip" per sample,
# as perf script -F event,ip,pid,tid,time[,cpu],period --ns prints them,
# in time order (perf script's order), blanks squeezed.
pd_script() {
	"$PERFDUMP" -j records --type sample --order time "$1" |
		jq -r --arg cpu "${2-}" "$JQ_TIME"'.records[] | [ "\(.pid)/\(.tid)",
			(if $cpu != "" then "[" + ("00" + (.cpu | tostring))[-3:] + "]" else empty end),
			(.time | ns_time) + ":", "\(.period)", .event + ":", (.ip | ltrimstr("0x"))] | join(" ")'
}

# ref_script NAME: perf's lines without the callchain lines, blanks squeezed.
ref_script() {
	awk '/^[^\t]/ && NF { $1 = $1; print }' "$REF/$1.script.txt"
}

# compare_script NAME [cpu]: every sample equals perf script's line.
compare_script() {
	local f=testdata/$1
	pd_script "$f" "${2-}" >"$BATS_TEST_TMPDIR/pd.txt"
	ref_script "$1" >"$BATS_TEST_TMPDIR/perf.txt"
	[ -s "$BATS_TEST_TMPDIR/perf.txt" ]
	assert_files_equal "$BATS_TEST_TMPDIR/pd.txt" "$BATS_TEST_TMPDIR/perf.txt"
}

# no_sample_problems: $output (JSON) has no error or warning about a
# sample and no sample with bytes left over or a field cut short.
no_sample_problems() {
	jq_true '[.errors[], .warnings[] | select(.what | startswith("PERF_RECORD_SAMPLE"))] == []'
	jq_true '[.records[] | select(.type == 9) |
		select(has("undecoded_size") or has("damaged") or has("unknown_sample_type"))] == []'
}
# the same as one filter
NO_SAMPLE_PROBLEMS='([.errors[], .warnings[] | select(.what | startswith("PERF_RECORD_SAMPLE"))] == []) and
	([.records[] | select(.type == 9) |
		select(has("undecoded_size") or has("damaged") or has("unknown_sample_type"))] == [])'

# ------------------------------------------------- crafted pipe streams

# E=le|be: the byte order w64/w32/w16 write (values may be negative).
E=le
wN() {
	local n=$1 h i out=
	printf -v h "%0$((n * 2))x" "$2" # -v: no subshell, no fork per call
	h=${h: -$((n * 2))}
	if [ "$E" = be ]; then
		for ((i = 0; i < n * 2; i += 2)); do out="$out\\x${h:i:2}"; done
	else
		for ((i = n * 2 - 2; i >= 0; i -= 2)); do out="$out\\x${h:i:2}"; done
	fi
	# shellcheck disable=SC2059
	printf "$out"
}
w64() { local v; for v; do wN 8 "$v"; done; }
w32() { local v; for v; do wN 4 "$v"; done; }
w16() { local v; for v; do wN 2 "$v"; done; }

# rec TYPE BODYFILE: a record (header, then the body)
rec() {
	local n
	n=$(file_size "$2")
	w32 "$1"
	w16 0 $((8 + n))
	cat "$2"
}

# pipe_start OUT: the 16-byte pipe header ("PERFILE2" in E order)
pipe_start() {
	{
		w64 0x32454c4946524550
		w64 16
	} >"$1"
}

# add_attr OUT ID: a HEADER_ATTR record, attr VER4 (104 bytes), with
# sample_type ST, read_format RF, branch_sample_type BST, regs masks RU RI,
# sample_stack_user SSU, type TYPE (default 1), one id.
add_attr() {
	local b=$BATS_TEST_TMPDIR/attr.bin
	{
		w32 "${TYPE:-1}" 104
		w64 0 1000 "$ST" "${RF:-0}" 0
		w32 0 0
		w64 0 0 "${BST:-0}" "${RU:-0}"
		w32 "${SSU:-0}" 0
		w64 "${RI:-0}" "$2"
	} >"$b"
	rec 64 "$b" >>"$1"
}

# add_sample OUT: a SAMPLE record whose body is stdin
add_sample() {
	local b=$BATS_TEST_TMPDIR/sample.bin
	cat >"$b"
	rec 9 "$b" >>"$1"
}

# sample_type bits
S_IP=0x1 S_TID=0x2 S_TIME=0x4 S_READ=0x10 S_CALLCHAIN=0x20 S_CPU=0x80
S_PERIOD=0x100 S_RAW=0x400 S_BRANCH=0x800 S_REGS_USER=0x1000
S_STACK_USER=0x2000 S_WEIGHT=0x4000 S_DATA_SRC=0x8000 S_TRANSACTION=0x20000
S_AUX=0x100000 S_WEIGHT_STRUCT=0x1000000

# ============================================ the fixtures vs perf script

# bats test_tags=asan
@test "cpu-clock.data: every sample's pid, tid, time, period, event and ip equal perf script's" {
	compare_script cpu-clock.data
	run wc -l <"$BATS_TEST_TMPDIR/pd.txt"
	assert_eq "$output" 391
}

# bats test_tags=asan
@test "group.data: all 812 samples of both events equal perf script's" {
	compare_script group.data
	run wc -l <"$BATS_TEST_TMPDIR/pd.txt"
	assert_eq "$output" 812
}

# bats test_tags=asan
@test "tracepoint.data: samples with cpu equal perf script's; RAW names the tracepoint" {
	compare_script tracepoint.data cpu
	run wc -l <"$BATS_TEST_TMPDIR/pd.txt"
	assert_eq "$output" 18
	pdj -j records --type sample testdata/tracepoint.data
	# 4 + 68 bytes of RAW; the payload starts with common_type = config 0x174
	jq_all '[.records[].raw_data.size] | unique' '[68]' \
		'[.records[].raw_data.tracepoint] | unique' '["sched:sched_switch"]' \
		'[.records[].fields.common_type] | unique' '[372]' \
		'[.records[].raw_data.data] | unique' '[null]'
	no_sample_problems
	# the hex with -x (the decoded fields take its place without it)
	pdj -j -x records --type sample --limit 1 testdata/tracepoint.data
	[[ $output == *'"raw_data":{"size":68,"tracepoint":"sched:sched_switch","data":"7401'* ]]
}

# bats test_tags=asan
@test "pipe.data, zstd.data (COMPRESSED), mono.data, threads.data (data.N): samples equal perf script's" {
	local n
	for n in pipe.data zstd.data mono.data threads.data; do
		compare_script $n
	done
	run wc -l <"$BATS_TEST_TMPDIR/pd.txt"
	assert_eq "$output" 536
}

# bats test_tags=asan
@test "callgraph.data: samples and every callchain equal perf script's" {
	# perf prints the callchain instead of the ip: compare the rest
	pd_script testdata/callgraph.data | sed 's/ [0-9a-f]*$//' >"$BATS_TEST_TMPDIR/pd.txt"
	ref_script callgraph.data | sed 's/ *$//' >"$BATS_TEST_TMPDIR/perf.txt"
	assert_files_equal "$BATS_TEST_TMPDIR/pd.txt" "$BATS_TEST_TMPDIR/perf.txt"
	# callchain.txt: "pid/tid time:" (usec) then one address per line, the
	# context markers left out, user addresses relative to their mapping
	# (ip - map start + pgoff, so both differ by a multiple of the page
	# size), kernel addresses as they are.
	"$PERFDUMP" -j records --type sample --order time testdata/callgraph.data |
		jq -r '.records[] | "\(.pid)/\(.tid) \(.time_s) " +
			([.callchain[] | select(startswith("0x")) | ltrimstr("0x")] | join(","))' \
			>"$BATS_TEST_TMPDIR/pd.txt"
	awk '/^[^\t]/ && NF { if (h) print h " " cc; h = $1 " " $2; sub(/:$/, "", h); cc = ""; next }
	     /^\t/ { cc = cc (cc == "" ? "" : ",") $1 }
	     END { if (h) print h " " cc }' "$REF/callgraph.data.callchain.txt" >"$BATS_TEST_TMPDIR/perf.txt"
	run awk '
		function hex(s,  i, v) { v = 0; s = tolower(s)
			for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v }
		NR == FNR { a[FNR] = $0; n = FNR; next }
		{
			m++
			split(a[FNR], x, " "); split($0, y, " ")
			if (x[1] != y[1] || x[2] != y[2]) { print "sample " FNR ": " a[FNR] " | " $0; bad++; next }
			cx = split(x[3], ipx, ","); cy = split(y[3], ipy, ",")
			if (cx != cy) { print "callchain length " FNR ": " a[FNR] " | " $0; bad++; next }
			for (i = 1; i <= cx; i++) {
				if (ipx[i] == ipy[i]) continue
				d = hex(ipx[i]) - hex(ipy[i])
				if (length(ipx[i]) == 16 || d <= 0 || d % 4096) { print "entry " i " of " FNR ": " a[FNR] " | " $0; bad++; next }
			}
		}
		END { print m " " n " " bad + 0 }' "$BATS_TEST_TMPDIR/pd.txt" "$BATS_TEST_TMPDIR/perf.txt"
	assert_eq "${lines[${#lines[@]} - 1]}" "509 509 0" "samples in perf's, in ours, differing"
}

# bats test_tags=asan
@test "allbits.data: every group member's sample equals perf script's (period = read delta, kernel callchain)" {
	# perf script prints one sample per group member read (:S), with the
	# member's value minus its previous value as the period, and the
	# kernel callchain followed by a DWARF-unwound user part.
	"$PERFDUMP" -j records --type sample --order time testdata/allbits.data |
		jq -r "$JQ_TIME"'foreach .records[] as $r ({prev: {}};
			.out = [$r.read.values[] as $v | {ev: $v.event, p: ($v.value - (.prev[$v.id] // 0))}] |
			.prev += ([$r.read.values[] | {(.id): .value}] | add) | .r = $r;
			. as $s | $s.out[] | "\($s.r.pid)/\($s.r.tid) [" + ("00" + ($s.r.cpu | tostring))[-3:] +
			"] \($s.r.time | ns_time) \(.p) \(.ev) " +
			([$s.r.callchain[] | select(startswith("0x")) | ltrimstr("0x")] | if . == [] then [$s.r.ip | ltrimstr("0x")] else . end | join(",")))' \
		>"$BATS_TEST_TMPDIR/pd.txt"
	awk '/^[^\t]/ && NF { if (h) print h " " cc; $1 = $1; h = $0; gsub(/:/, "", h); cc = ""; next }
	     /^\t/ { cc = cc (cc == "" ? "" : ",") $1 }
	     END { if (h) print h " " cc }' "$REF/allbits.data.script.txt" >"$BATS_TEST_TMPDIR/perf.txt"
	run awk '
		function hex(s,  i, v) { v = 0; s = tolower(s)
			for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
			return v }
		NR == FNR { a[FNR] = $0; n = FNR; next }
		{
			m++
			split(a[FNR], x, " "); split($0, y, " ")
			if (x[1] " " x[2] " " x[3] " " x[4] " " x[5] != y[1] " " y[2] " " y[3] " " y[4] " " y[5]) {
				print "sample " FNR ": " a[FNR] " | " $0; bad++; next }
			cx = split(x[6], ipx, ","); split(y[6], ipy, ",")
			for (i = 1; i <= cx; i++) {
				if (ipx[i] == ipy[i]) continue
				d = hex(ipx[i]) - hex(ipy[i]) # a user ip: relative in perf
				if (length(ipx[i]) == 16 || d <= 0 || d % 4096) { print "entry " i " of " FNR ": " a[FNR] " | " $0; bad++; next }
			}
		}
		END { print m " " n " " bad + 0 }' "$BATS_TEST_TMPDIR/pd.txt" "$BATS_TEST_TMPDIR/perf.txt"
	assert_eq "${lines[${#lines[@]} - 1]}" "188 188 0" "samples in perf's, in ours, differing"
}

# bats test_tags=asan
@test "allbits.data: every field of the first sample, as perf 6.1 prints them" {
	# perf script -F ip,pid,tid,time,cpu,addr,phys_addr,data_page_size,
	#   code_page_size,ins_lat,weight,data_src,iregs,uregs --ns:
	# 3171/3171 [001] 202.154166440: 0 1e05080021 |OP N/A|LVL N/A or N/A|
	#   SNP N/A|TLB N/A|LCK N/A|BLK N/A 0 0 ffffffff816b843f ABI:2 AX:0xc0c001e
	#   ... R15:0x400 ABI:2 AX:0xffffffffffffffda ... R15:0x30d40 0 N/A 2M
	pdj -j records --type sample --limit 1 testdata/allbits.data
	jq_all '.records[0] | [.identifier, .ip, .pid, .tid, .time, .time_s, .addr, .cpu, .period]' \
		'["0xd0","0xffffffff816b843f",3171,3171,202154166440,"202.154166","0x0",1,1000000]' \
		'.records[0].read' \
		'{"nr":2,"time_enabled":1118580,"time_running":1118580,"values":[{"value":1014435,"id":"0xd0","event":"cpu-clock","lost":0},{"value":1119040,"id":"0xd2","event":"task-clock","lost":0}]}' \
		'.records[0] | [.callchain_nr, .callchain[0], .callchain[1], .callchain[5]]' \
		'[6,"PERF_CONTEXT_KERNEL","0xffffffff816b843f","0xffffffff81000130"]' \
		'.records[0].raw_data' '{"size":4,"data":"00000000"}' \
		'.records[0].regs_user | [.abi, .abi_name, .mask, (.regs | length), .regs.AX, .regs.IP, .regs.FLAGS, .regs.R15]' \
		'[2,"64","0xff0fff",20,"0xffffffffffffffda","0x7f4887048350","0x202","0x30d40"]' \
		'.records[0].regs_user.regs | keys_unsorted | join(" ")' \
		'"AX BX CX DX SI DI BP SP IP FLAGS CS SS R8 R9 R10 R11 R12 R13 R14 R15"' \
		'.records[0].stack_user | [.size, .dyn_size, has("data")]' '[512,512,false]' \
		'.records[0].weight_struct' '{"value":"0x0","var1_dw":0,"var2_w":0,"var3_w":0}' \
		'.records[0].data_src | [.value, .op_names, .lvl_names, .snoop_names, .lock_names, .dtlb_names, .lvl_num_name, .remote, .blk_names, .hops_name]' \
		'["0x1e05080021",["NA"],["NA"],["NA"],["NA"],["NA"],"NA",false,[],"NONE"]' \
		'.records[0].transaction' '{"value":"0x0","flags":"0x0","flags_names":[],"abort_code":0}' \
		'.records[0].regs_intr.regs | [.AX, .DX, .IP, .FLAGS, .CS, .R14]' \
		'["0xc0c001e","0xffffc90002f4fb90","0xffffffff816b843f","0x246","0x10","0xffffc90002f4fb90"]' \
		'.records[0] | [.phys_addr, .cgroup, .data_page_size, .code_page_size]' '["0x0","0x1",0,2097152]' \
		'.records[0] | [has("weight"), has("id"), has("stream_id"), has("branch_stack"), has("aux")]' \
		'[false,false,false,false,false]'
}

# bats test_tags=asan
@test "allbits.data: a user-mode sample, and no sample has bytes left over" {
	# perf: 3171/3171 [001] 202.165171526: ... 7f48870482ad ABI:2
	#   AX:0x400 ... IP:0x7f48870482ad ... (iregs) ABI:2 AX:0x400 ... (uregs)
	pdj -j records --type sample --time 202.165171526,202.165171526 testdata/allbits.data
	jq_all '.records | length' 1 \
		'.records[0] | [.cpumode_name, .ip, .callchain_nr, .callchain]' '["user","0x7f48870482ad",0,[]]' \
		'.records[0].regs_intr.regs | [.AX, .IP, .CS]' '["0x400","0x7f48870482ad","0x33"]' \
		'.records[0].regs_user.regs.IP' '"0x7f48870482ad"'
	pdj -j records testdata/allbits.data
	jq_all '[.records[] | select(.type == 9)] | length' 94 \
		'[.records[] | select(.type == 9) | .stack_user.size] | unique' '[512]'
	no_sample_problems
}

# bats test_tags=asan
@test "text: one row per sample, callchain markers by short name, nested fields inline" {
	local f
	for f in testdata/allbits.data testdata/callgraph.data testdata/tracepoint.data; do
		pd records --type sample "$f"
		run grep -vc '^  0x[0-9a-f]* \[0x[0-9a-f]*\] PERF_RECORD_SAMPLE: ' \
			<<<"$(sed -n '/^records:/,/^Problems:/p' <<<"$output" | sed '1d; /^Problems:/d')"
		assert_eq "$output" 0 "lines of $f that are not a sample row"
	done
	pd_lines records --type sample --limit 2 testdata/callgraph.data
	assert_status 0
	assert_contains "${lines[2]}" "callchain_nr=3 callchain=user,0x7f3102ec1645,0x0"
	assert_contains "${lines[2]}" "time=194202020279 time_s=194.202020 period=250000"
	pd_lines records --type sample --limit 1 testdata/allbits.data
	assert_eq "${#lines[@]}" 3
	assert_contains "${lines[2]}" " read: nr=2 time_enabled=1118580 time_running=1118580 values={value=1014435 id=0xd0 event=cpu-clock lost=0},{value=1119040 id=0xd2 event=task-clock lost=0} callchain_nr=6 callchain=kernel,0xffffffff816b843f,"
	assert_contains "${lines[2]}" " regs_user: abi=64 mask=0xff0fff regs: AX=0xffffffffffffffda BX=0x0"
	assert_contains "${lines[2]}" " data_src: value=0x1e05080021 op=0x1(NA) lvl=0x1(NA)"
	# -x: the payload bytes as hex in text too
	pd -x records --type sample --limit 1 testdata/tracepoint.data
	assert_contains "$output" "raw_data: size=68 tracepoint=sched:sched_switch data=74010103"
}

# bats test_tags=asan
@test "payload bytes of STACK_USER only with -x, in JSON and text" {
	pdj -j -x records --type sample --limit 1 testdata/allbits.data
	# the stack bytes start 376 bytes into the sample at 0x1118
	jq_all '.records[0].stack_user.data' "\"$(hexbytes testdata/allbits.data $((0x1118 + 376)) 512)\"" \
		'.records[0].stack_user.data | length' 1024
	# text: the same 1024 digits (formatted apart from JSON's writer)
	pd -x records --type sample --limit 1 testdata/allbits.data
	assert_contains "$output" " stack_user: size=512 dyn_size=512 data=$(hexbytes testdata/allbits.data $((0x1118 + 376)) 512) weight_struct"
}

# ============================================================== crafted

# bats test_tags=asan
@test "crafted: BRANCH_STACK with HW_INDEX: nr 0 with and without hw_idx, entries, flag fields" {
	local f=$BATS_TEST_TMPDIR/hwidx.data
	pipe_start "$f"
	ST=$((S_IP | S_BRANCH | S_WEIGHT)) BST=$((1 << 17)) add_attr "$f" 0x42
	w64 0x1111 0 7 | add_sample "$f"   # no branch data: nr only
	w64 0x2222 0 5 9 | add_sample "$f" # nr 0, hw_idx 5
	# nr 1, hw_idx 3; flags: predicted, abort, cycles 0x1234, type 4 CALL,
	# spec 3, new_type 2, priv 2 (little-endian positions)
	w64 0x3333 1 3 0xa 0xb $((2 | 8 | 0x1234 << 4 | 4 << 20 | 3 << 24 | 2 << 26 | 2 << 30)) 11 |
		add_sample "$f"
	pdj -j records --type sample "$f"
	assert_status 0
	jq_all '[.records[] | [.ip, .branch_stack.nr, .branch_stack.hw_idx, .branch_stack.hw_idx_absent, .weight]]' \
		'[["0x1111",0,null,true,7],["0x2222",0,"0x5",null,9],["0x3333",1,"0x3",null,11]]' \
		'.records[2].branch_stack.entries[0] | [.from, .to, .mispred, .predicted, .in_tx, .abort, .cycles, .type_name, .spec_name, .new_type_name, .priv_name]' \
		'["0xa","0xb",false,true,false,true,4660,"CALL","SPEC_CORRECT_PATH","FAULT_INST","KERNEL"]'
	no_sample_problems
}

# bats test_tags=asan
@test "crafted big-endian: u32 pairs at their own offsets, branch flags from the most significant bit" {
	local f=$BATS_TEST_TMPDIR/be.data
	E=be
	pipe_start "$f"
	ST=$((S_IP | S_TID | S_CPU | S_BRANCH)) add_attr "$f" 0x42
	{
		w64 0x3333
		w32 0x11223344 0x55667788 3 0x99
		# mispred (63), cycles 0x1234 (44-59), type 4 (40-43), spec 2
		# (38-39), new_type 1 (34-37), priv 1 (31-33)
		w64 1 0xa 0xb $((1 << 63 | 0x1234 << 44 | 4 << 40 | 2 << 38 | 1 << 34 | 1 << 31))
	} | add_sample "$f"
	pdj -j records --type sample "$f"
	assert_status 0
	jq_all '.records[0] | [.ip, .pid, .tid, .cpu, .res]' '["0x3333",287454020,1432778632,3,"0x99"]' \
		'.records[0].branch_stack.entries[0] | [.flags, .mispred, .predicted, .cycles, .type_name, .spec_name, .new_type, .priv_name]' \
		'["0x8123448480000000",true,false,4660,"CALL","NON_SPEC_CORRECT_PATH",1,"USER"]'
	no_sample_problems
}

# bats test_tags=asan
@test "crafted: READ (non-group), RAW, REGS (abi 0, SIMD), STACK_USER size 0, WEIGHT_STRUCT, TRANSACTION, AUX" {
	local f=$BATS_TEST_TMPDIR/many.data
	pipe_start "$f"
	ST=$((S_IP | S_READ | S_CALLCHAIN | S_RAW | S_REGS_USER | S_STACK_USER | S_WEIGHT_STRUCT | S_TRANSACTION | S_AUX)) \
		RF=0x17 RU=0x5 add_attr "$f" 0x42
	{
		w64 0x1000
		w64 100 200 150 0x42 3 # value, enabled, running, id, lost
		w64 4 -128 0xffffffff81000000 -512 0x401000 # callchain
		w32 4
		printf 'ab\0\0' # RAW: 4 + 4 bytes
		w64 0                  # regs_user abi 0: no registers
		w64 0                  # stack_user size 0: no dyn_size
		w64 $((3 << 48 | 2 << 32 | 1)) # weight_struct
		w64 $((0x1234 << 32 | 0x23)) # transaction
		w64 3
		printf 'xyz\0\0\0\0\0' # aux: 3 bytes, then 5 the size does not cover
	} | add_sample "$f"
	pdj -j records --type sample "$f"
	jq_all '.records[0].read' '{"value":100,"time_enabled":200,"time_running":150,"id":"0x42","event":"cpu-clock:HG","lost":3}' \
		'.records[0] | [.callchain_nr, .callchain]' '[4,["PERF_CONTEXT_KERNEL","0xffffffff81000000","PERF_CONTEXT_USER","0x401000"]]' \
		'.records[0].raw_data' '{"size":4,"data":"61620000"}' \
		'.records[0].regs_user' '{"abi":0,"abi_name":"NONE"}' \
		'.records[0].stack_user' '{"size":0}' \
		'.records[0].weight_struct | [.var1_dw, .var2_w, .var3_w]' '[1,2,3]' \
		'.records[0].transaction | [.flags_names, .abort_code]' '[["ELISION","TRANSACTION","CONFLICT"],4660]' \
		'.records[0].aux' '{"size":3}' \
		'.records[0] | [.undecoded_size, .undecoded_offset]' '[5,283]' \
		'[.errors[] | .detail]' '["sample is 5 bytes longer than its sample_type implies (0x11b..0x11f not decoded)"]'
	assert_status 1
	# SIMD register block [pending]: abi 2|4, then 4 x u16 and the data
	f=$BATS_TEST_TMPDIR/simd.data
	pipe_start "$f"
	ST=$((S_IP | S_REGS_USER | S_PERIOD)) RU=0x3 add_attr "$f" 0x42
	{
		w64 0x1000 77 6 0xa 0xb # ip, period, abi 64|SIMD, AX, BX
		w16 2 2 1 1             # 2 vectors of 2 qwords, 1 predicate of 1
		w64 1 2 3 4 5
	} | add_sample "$f"
	pdj -j records --type sample "$f"
	assert_status 0
	jq_all '.records[0].regs_user' \
		'{"abi":6,"abi_name":"64|SIMD","mask":"0x3","regs":{"reg0":"0xa","reg1":"0xb"},"simd":{"nr_vectors":2,"vector_qwords":2,"nr_pred":1,"pred_qwords":1,"data":["0x1","0x2","0x3","0x4","0x5"]}}'
}

# bats test_tags=asan
@test "crafted: unknown sample_type bits stop decoding; a field cut short keeps what came before" {
	local f=$BATS_TEST_TMPDIR/unknown.data
	pipe_start "$f"
	ST=$((S_IP | S_TIME | 1 << 40)) add_attr "$f" 0x42
	w64 0x1000 5 0xdead 0xbeef | add_sample "$f"
	pdj -j records --type sample "$f"
	jq_all '.records[0] | [.ip, .time, .unknown_sample_type, .undecoded_size]' '["0x1000",5,"0x10000000000",16]' \
		'[.warnings[] | .detail]' '["sample_type has bits perfdump does not know (0x10000000000): 16 bytes after the last field decoded are not decoded"]' \
		'.errors' '[]'
	f=$BATS_TEST_TMPDIR/short.data
	pipe_start "$f"
	ST=$((S_IP | S_CALLCHAIN | S_PERIOD)) add_attr "$f" 0x42
	w64 0x1000 7 1000 1 2 | add_sample "$f" # nr 1000, 2 ips
	pdj -j records --type sample "$f"
	assert_status 1
	jq_all '.records[0] | [.ip, .callchain_nr, .callchain, .damaged]' '["0x1000",1000,[],true]' \
		'.errors | map({offset, what})' '[{"offset":168,"what":"PERF_RECORD_SAMPLE: callchain ips"}]'
	assert_contains "$stderr" "0xa8: PERF_RECORD_SAMPLE: callchain ips:"
}

# bats test_tags=asan
@test "crafted: a sample whose id belongs to no attr is reported, not decoded" {
	local f=$BATS_TEST_TMPDIR/noattr.data
	pipe_start "$f"
	ST=$((0x10000 | S_IP)) add_attr "$f" 0x42
	ST=$((0x10000 | S_IP)) add_attr "$f" 0x43
	w64 0x42 0x1000 | add_sample "$f"
	w64 0x99 0x2000 | add_sample "$f"
	pdj -j records --type sample "$f"
	assert_status 1
	jq_all '[.records[] | .ip]' '["0x1000",null]' \
		'[.errors[] | .detail]' '["id 0x99 belongs to no attr: the fields are not decoded"]'
}

# ================================================================ corpus

# corpus_samples REL: records --type sample, no signal, valid JSON, no
# sample problems; the JSON stays in $output.
corpus_samples() {
	need_corpus
	[ -f "$CORPUS/$1" ] || skip "no $1"
	pd -j records --type sample "$CORPUS/$1"
	assert_no_signal
	check_json
	no_sample_problems
}

# bats test_tags=asan,normal
@test "corpus: every file's records go through (text, -x), and its samples have no problem" {
	sweep
	need_corpus
	local f
	while IFS= read -r f; do
		# every record, text with -x (only the exit status matters here)
		case $f in */invalid_perf.data) continue ;; esac # not a recording: corpus.bats
		status=0
		"$PERFDUMP" -x records "$f" >/dev/null 2>"$BATS_TEST_TMPDIR/err" || status=$?
		stderr=$(tail -c 3000 "$BATS_TEST_TMPDIR/err")
		assert_no_signal || {
			echo "file: $f"
			return 1
		}
		pd -j records --type sample "$f"
		assert_no_signal
		# the contract and no_sample_problems in one jq (the documents are
		# big); when it fails, no_sample_problems says which part did
		check_json "$NO_SAMPLE_PROBLEMS" || {
			no_sample_problems
			echo "file: $f"
			return 1
		}
	done < <(find "$CORPUS" -type f ! -name MANIFEST.md | LC_ALL=C sort)
}

# bats test_tags=asan
@test "corpus perf.data.weight_struct: WEIGHT_STRUCT and DATA_SRC as perf 6.1 prints them" {
	corpus_samples perf_data_converter/perf.data.weight_struct
	# perf script -F time,weight --ns, in time order
	pd -j records --type sample --order time "$CORPUS/perf_data_converter/perf.data.weight_struct"
	jq_all '[.records[].weight_struct.var1_dw]' '[225,96,71,70,92,77,240,70,117,81,80,89,249,168]' \
		'[.records[].weight_struct | .var2_w + .var3_w] | add' 0 \
		'.records[0] | [.pid, .tid, .cpu, .addr, .ip]' '[20132,20144,28,"0x55ffba5cda08","0xffffffffa4470d46"]' \
		'.records[0].data_src | [.value, .op_names, .lvl_names, .snoop_names, .lock_names, .dtlb_names, .lvl_num_name, .blk_names]' \
		'["0x11868100242",["LOAD"],["HIT","LFB"],["NONE"],[],["HIT","L1","L2"],"LFB",["NA"]]'
}

@test "corpus perf.data.branch_stack_hw_index: hw_idx before the entries (arm64)" {
	corpus_samples perf_data_converter/perf.data.branch_stack_hw_index
	# perf script -F ip,brstack: 1085b67a 0x1085ab3a/0x1085b598/P/-/-/0 ...
	jq_all '[.records[].branch_stack.hw_idx] | unique' '["0x0"]' \
		'.records[0] | [.ip, .branch_stack.nr, (.branch_stack.entries | length)]' '["0x1085b67a",28,28]' \
		'.records[0].branch_stack.entries[0] | [.from, .to, .mispred, .predicted, .cycles]' \
		'["0x1085ab3a","0x1085b598",false,true,0]'
}

@test "corpus perf.data.branch_stack_spec: branch speculation field" {
	corpus_samples perf_data_converter/perf.data.branch_stack_spec
	jq_all '[.records[].branch_stack.entries[] | .spec_name] | unique' '["NON_SPEC_CORRECT_PATH"]' \
		'[.records[].branch_stack.nr] | add' 128 \
		'.records[0].branch_stack.entries[0] | [.from, .to, .flags, .predicted]' \
		'["0xffffffff9dd022c4","0xffffffff9dd022b2","0x2000002",true]'
}

@test "corpus perf.data.raw_callgraph_branch-3.4: RAW, CALLCHAIN and BRANCH_STACK together" {
	corpus_samples perf_data_converter/perf.data.raw_callgraph_branch-3.4
	jq_all '.records | length' 513 \
		'[.records[].raw_data.size] | unique' '[4]' \
		'.records[0] | [.ip, .pid, .cpu, .period, .callchain_nr, .callchain[0], .branch_stack.nr]' \
		'["0xffffffff81019c65",0,0,388618,14,"PERF_CONTEXT_KERNEL",16]' \
		'.records[0].branch_stack.entries[0] | [.from, .to, .predicted]' '["0xffffffff81019b96","0xffffffff81019c58",true]'
}

@test "corpus hotspot/perf.data.PerfFormatLost: READ group with LOST, members named by id" {
	corpus_samples hotspot/perf.data.PerfFormatLost
	jq_all '.records[0].read' \
		'{"nr":2,"values":[{"value":5660,"id":"0x160dc9f","event":"cycles","lost":0},{"value":5455,"id":"0x160dccf","event":"instructions","lost":0}]}' \
		'[.records[].read.values[].event] | unique' '["cycles","instructions"]' \
		'.records[0].stack_user' '{"size":8192,"dyn_size":8192}'
}

@test "corpus vector_static_gcc__perf.data: REGS_USER and STACK_USER (DWARF unwinding)" {
	corpus_samples perfparser/vector_static_gcc__perf.data
	# perf script -F ip,uregs: ffffffffb8a6c896 ABI:2 AX:0xffffffffffffffda ...
	jq_all '.records | length' 45 \
		'.records[0].regs_user | [.abi, (.regs | length), .regs.AX, .regs.SP, .regs.R15]' \
		'[2,20,"0xffffffffffffffda","0x7ffd404ac008","0xffffffffffffffff"]' \
		'.records[0].stack_user' '{"size":8192,"dyn_size":0}'
}

@test "corpus perf_with_arm_regs.data: arm64 register names" {
	corpus_samples platform_system_extras/perf_with_arm_regs.data
	jq_all '.records[0].regs_user.regs | keys_unsorted | .[28:]' '["x28","x29","lr","sp","pc"]' \
		'.records[0].regs_user | [.abi, .mask, .regs.x0, .regs.pc]' '[1,"0x1ffffffff","0xb400006ee325f731","0x7127fc0f48"]'
}

@test "corpus perf.data.piped.powerpc: big-endian samples" {
	corpus_samples platform2-sommelier/perf.data.piped.powerpc
	jq_all '.records | length' 9997 \
		'.records[0] | [.ip, .pid, .tid, .time, .period]' '["0xc00000000018ae84",4716,4716,142665112653072,1]' \
		'.records[-1] | [.ip, .pid, .tid, .time, .period]' '["0x100005f8",4716,4716,142675113648528,3542806]'
}

@test "corpus sleep.compressed.data: samples inside COMPRESSED records" {
	corpus_samples linux-perf-data/sleep.compressed.data
	jq_all '[.records[] | .inner_offset] | .[0:2]' '[0,40]' \
		'[.records[].time]' '[336954749814,336954753270,336954754422,336954755442,336954756462,336954760098,336955226647,336956093048]' \
		'[.records[].event] | unique' '["cycles:P"]'
}
