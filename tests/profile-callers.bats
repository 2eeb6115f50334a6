#!/usr/bin/env bats
# profile with callers and lines (issue 25, item 4): the inclusive share
# of functions and DSOs, as perf report --children gives it, and --by
# line, as perf report --sort srcline gives it.  perf's views are in
# testdata/perf-ref/ (scripts/record-symbols-fixtures.sh); the symfs tree
# is tests/symfs.bash's.

load helpers
# bats file_tags=asan

load symfs

KSYMS=testdata/profile/kallsyms
CC=testdata/profile/callchain.data
PROF=testdata/profile/profile.data
REF=testdata/perf-ref
# where callchain.data's ld.so was loaded (its MMAP2: addr - pgoff)
LDSO_BASE=$((0x7f9eae7a0000))

setup() {
	symfs_setup
}

# perf_table NAME: the rows of a perf report view, blanks squeezed
perf_table() {
	awk '!/^#/ && NF { $1 = $1; print }' "$REF/$1"
}

# share JQ-PATH: a row's share as perf prints it, "71.93%"
SHARE='(. * 100 | round / 100 | tostring | if test("\\.") then . else . + ".0" end |
	sub("\\.(?<d>[0-9])$"; ".\(.d)0") + "%")'

# hot_rows: the program's functions in profile -j's $output, as perf
# report --children prints them: children, self, samples, period, symbol
hot_rows() {
	jq -r ".profile.functions[] | select(.dso == \"hot\") |
		\"\(.children_percent | $SHARE) \(.percent | $SHARE) \(.samples) \(.period) hot [.] \(.symbol)\"" <<<"$output"
}

@test "profile: children of callchain.data's functions are perf report --children's" {
	pdj -j profile --symfs "$T/s" $CC
	assert_status 0
	assert_eq "$(hot_rows)" "$(perf_table callchain.data.children-sym.txt | grep ' hot ')" \
		"hot's rows vs perf report --children"
	# ld.so has no symbols for these addresses: perf keys a callchain's
	# address by the address itself (0x00007f9eae7bab78) and the sample's
	# own by its offset in the DSO (0x...1ab78), so it shows an address
	# twice; perfdump has one row per offset, with both shares
	local got want ch self _samples _period _dso _level addr a
	local -A children own
	got=$(jq -r ".profile.functions[] | select(.dso == \"ld-linux-x86-64.so.2\") |
		\"\(.address) \(.children_percent | $SHARE) \(.percent | $SHARE)\"" <<<"$output" | sort)
	while read -r ch self _samples _period _dso _level addr; do
		a=$((addr))
		if ((a >= LDSO_BASE)); then
			children[$((a - LDSO_BASE))]=$ch
		else
			children[$a]=$ch own[$a]=$self
		fi
	done < <(perf_table callchain.data.children-sym.txt | grep ' ld-linux')
	want=$(for a in "${!children[@]}"; do
		printf '0x%x %s %s\n' "$a" "${children[$a]}" "${own[$a]:-0.00%}"
	done | sort)
	assert_eq "$got" "$want" "ld.so's address rows vs perf's"
	[ "$(wc -l <<<"$got")" -eq 7 ]
	# libc's frames: no symbol holds them (perf: 0x00007f9eae5d024a)
	jq_all '[.profile.functions[] | select(.dso == "libc.so.6") | [.children_samples, .samples]]' '[[110,0]]' \
		'[.profile.functions[] | select(.dso == "[unknown]") | [.address, .children_samples, .samples]]' '[["0x0",1,0]]' \
		'.profile | [.children, .samples, (.functions | length)]' '[true,114,12]' \
		'[.profile.functions[] | select(.dso == "hot") | [.symbol, .children_samples, .children_period, .samples, .hot_address, .hot_line]]' \
		'[["main",110,27500000,0,null,null],["work_a",82,20500000,82,"0x1176",14],["work_b",28,7000000,28,"0x1222",6]]' \
		'.profile.functions[0].symbol' '"main"' \
		'[.profile.dsos[] | [.dso, .samples]]' '[["hot",110],["ld-linux-x86-64.so.2",4],["libc.so.6",0]]'
	# text: the share beside the row's own; CSV: every count
	pd profile --symfs "$T/s" --top 3 $CC
	assert_status 0
	assert_contains "$output" "  children:                 yes
  samples:                  114"
	assert_contains "$output" "    main:                   samples=0 percent=0.00% period=0 children_percent=96.49% dso=hot source_file=testdata/profile/hot_a.c
"
	assert_contains "$output" "    work_a:                 samples=82 percent=71.93% period=20500000 children_percent=71.93% dso=hot source_file=testdata/profile/hot_a.c hot_line=14
  dsos:"
	pd profile --csv --symfs "$T/s" --top 1 $CC
	assert_eq "$output" "event,symbol,address,size,samples,percent,period,children_samples,children_percent,children_period,dso,status,unverified,source_file,hot_line,hot_address,hot_file
cpu-clock:u,main,0x1180,101,0,0.00,0,110,96.49,27500000,hot,match,no,testdata/profile/hot_a.c,,,"
}

@test "profile -J 3: children of callchain.data's functions are perf report --children's, each record its own batch" {
	PERFDUMP_BATCH_BYTES=1 pdj -j profile --jobs 3 --symfs "$T/s" $CC
	assert_status 0
	assert_eq "$(hot_rows)" "$(perf_table callchain.data.children-sym.txt | grep ' hot ')" \
		"hot's rows vs perf report --children"
	[ "$(hot_rows | wc -l)" -ge 3 ]
}

@test "profile: --call-graph dwarf stacks unwound, children as perf report --children's but its inlined rows" {
	local f dso
	for f in inl-dwarf:inl nolibc-dwarf:inl-nolibc; do
		dso=${f#*:} f=${f%:*}
		pdj -j profile --symfs "$T/s" testdata/profile/$f.data
		assert_status 0
		assert_eq "$(jq -r --arg d "$dso" ".profile.functions[] | select(.dso == \$d) |
			\"\(.children_percent | $SHARE) \(.percent | $SHARE) \(.samples) \(.period) \(.dso) [.] \(.symbol)\"" <<<"$output" | sort)" \
			"$(perf_table $f.data.children-sym.txt | grep " $dso " | grep -v '(inlined)$' | sort)" "$f: rows vs perf report --children"
		# perf 6.1 adds a row for mix, inlined in loop_a and in loop_b,
		# at the addresses it unwinds (machine.c unwind_entry,
		# append_inlines; not for frame pointers): perfdump has none
		[ "$(perf_table $f.data.children-sym.txt | grep -c ' mix (inlined)$')" -eq 2 ]
	done
	# the stack copy cut short: the caller's return address, start_c;
	# perf's unwinder makes a bogus last frame there, [unknown]
	# 0xffffffffffffffff (tests/unwind.bats)
	pdj -j profile --symfs "$T/s" testdata/profile/nolibc-cut.data
	jq_all '[.profile.functions[] | [.symbol, .children_samples, .samples]]' \
		'[["start_c",32,0],["loop_a",24,24],["loop_b",8,8]]' \
		'.warnings' '[{"offset":1472,"what":"user stack","detail":"unwinding stopped at frame 2: 0x7ffd00c47238 is outside the stack copy (8 bytes from SP 0x7ffd00c47228) (said for the first such sample)"}]'
	# a whole stack: no warning
	pdj -j profile --symfs "$T/s" testdata/profile/nolibc-dwarf.data
	jq_all '.warnings' '[]'
	# frame pointers: no stack to unwind, the recorded chain
	pdj -j profile --symfs "$T/s" testdata/profile/inl-fp.data
	jq_all '[.profile.functions[] | select(.dso == "inl") | [.symbol, .children_samples, .samples]]' \
		'[["loop_a",26,26],["loop_b",8,8]]'
}

@test "profile --by dso: children per DSO are perf report --children --sort dso's" {
	pdj -j profile --by dso --symfs "$T/s" $CC
	assert_status 0
	assert_eq "$(jq -r ".profile.dsos[] | \"\(.children_percent | $SHARE) \(.percent | $SHARE) \(.samples) \(.period) \(.dso)\"" <<<"$output" | sort)" \
		"$(perf_table callchain.data.children-dso.txt | sort)" "DSO rows vs perf report --children --sort dso"
	jq_true '.profile.children and ([.profile.dsos[] | has("children_samples")] | all)'
}

@test "profile: without callchains, or with --no-children, no children: rows by their own period" {
	pdj -j profile --symfs "$T/s" --kallsyms $KSYMS $PROF
	assert_status 0
	jq_all '.profile.children' 'false' \
		'[.profile.functions[] | keys[] | select(startswith("children"))] | length' '0'
	pd profile --csv --symfs "$T/s" --kallsyms $KSYMS --top 1 $PROF
	assert_eq "$output" "event,symbol,address,size,samples,percent,period,dso,status,unverified,source_file,hot_line,hot_address,hot_file
cpu-clock,work_a,0x1139,71,808,74.33,202000000,hot,match,no,testdata/profile/hot_a.c,14,0x1176,testdata/profile/hot_a.c"
	pd profile --symfs "$T/s" --kallsyms $KSYMS $PROF
	[[ $output != *children* ]]
	# callchains not read: the rows perf report --no-children has, self
	# only (perf's callers-only rows are gone), work_a first
	pdj -j profile --no-children --symfs "$T/s" $CC
	assert_status 0
	jq_all '.profile.children' 'false' \
		'[.profile.functions[] | [.symbol // .address, .samples]]' \
		'[["work_a",82],["work_b",28],["0xdda7",1],["0x104b0",1],["0x1462a",1],["0x1ab70",1]]' \
		'[.profile.dsos[].dso]' '["hot","ld-linux-x86-64.so.2"]'
	assert_eq "$(jq '[.profile.functions[].samples] | add' <<<"$output")" \
		"$(perf_table callchain.data.children-sym.txt | awk '{ s += $3 } END { print s }')"
}

# chain_file OUT: a little-endian perf.data with one attr (cpu-clock,
# period 1, sample_type IP|TID|TIME|CALLCHAIN), no maps, and three
# samples: [USER, 0x1000, 0xffffffffffffffb8, 0x2000] (a marker perf
# does not define), USER and 600 ips from 0x3000 up (more than perf
# report takes, more than profile reads in place), and [USER, 0x4000,
# 0x4000, 0x4000] (a recursion)
chain_file() {
	python3 - "$1" <<'PY'
import struct, sys
U = (1 << 64) - 512  # PERF_CONTEXT_USER
def sample(ips):
    body = struct.pack('<QIIQQ', ips[1], 7, 7, 1000, len(ips)) + struct.pack(f'<{len(ips)}Q', *ips)
    return struct.pack('<IHH', 9, 2, 8 + len(body)) + body
data = (sample([U, 0x1000, (1 << 64) - 72, 0x2000]) +
        sample([U] + [0x3000 + i for i in range(600)]) + sample([U, 0x4000, 0x4000, 0x4000]))
attr = struct.pack('<IIQQQQQ', 1, 64, 0, 1, 0x27, 0, 0) + bytes(16)
with open(sys.argv[1], 'wb') as f:
    f.write(b'PERFILE2' + struct.pack('<QQQQQQQQ', 104, 80, 104, 80, 184, len(data), 0, 0) + bytes(32))
    f.write(attr + struct.pack('<QQ', 0, 0) + data)
PY
}

# bats test_tags=normal
@test "profile: a chain perf drops counts its own row only; 127 addresses; a recursion once" {
	chain_file "$T/c.data"
	pdj -j profile "$T/c.data"
	assert_status 0
	# [unknown] rows, one per address: 0x2000 is in no row, 0x307f (the
	# 128th address) neither; 0x4000 is counted once
	jq_all '.profile | [.children, .samples, (.functions | length)]' '[true,3,129]' \
		'[.profile.functions[] | select(.samples > 0) | [.address, .samples, .children_samples]]' \
		'[["0x1000",1,1],["0x3000",1,1],["0x4000",1,1]]' \
		'[.profile.functions[] | select(.samples == 0) | .address] | [length, min, max]' '[126,"0x3001","0x307e"]' \
		'[.profile.functions[] | select(.samples == 0) | .children_samples] | unique' '[1]' \
		'[.profile.functions[] | .address | select(. == "0x2000" or . == "0x307f")]' '[]'
}

@test "profile --by line: samples per line are perf report --sort srcline's" {
	local f ref
	for f in $PROF $CC; do
		ref=${f##*/}.sort-srcline.txt
		pdj -j profile --by line --symfs "$T/s" --kallsyms $KSYMS "$f"
		assert_status 0
		assert_eq "$(jq -r '.profile.lines[] | "\(.samples) \(.period) \(.srcline)"' <<<"$output" | sort)" \
			"$(perf_table "$ref" | sort)" "$f: lines vs perf report --sort srcline"
	done
	# the kernel's (kallsyms: no file to read lines from): symbol+offset;
	# ld.so's (a file without DWARF): ??:0, as perf's addr2line answers
	pdj -j profile --by line --symfs "$T/s" --kallsyms $KSYMS $PROF
	jq_all '.profile | [.by, .children, .samples, (.lines | length)]' '["line",false,1087,15]' \
		'.profile.lines[0:2][] | [.srcline, .source_file, .line, .samples, .period, .dso, .status]' \
		'["hot_a.c:14","testdata/profile/hot_a.c",14,607,151750000,"hot","match"]
["hot_a.c:15","testdata/profile/hot_a.c",15,201,50250000,"hot","match"]' \
		'.profile.lines[] | select(.dso != "hot") | select(.samples > 2) | [.srcline, .source_file, .line, .dso]' \
		'["_raw_spin_unlock_irqrestore+25",null,null,"[kernel.kallsyms]"]
["finish_task_switch.isra.0+147",null,null,"[kernel.kallsyms]"]' \
		'.profile.lines[] | select(.srcline == "??:0") | [.samples, .dso, .status]' '[1,"ld-linux-x86-64.so.2","match"]' \
		'[.profile.dsos[] | [.dso, .lines]]' \
		'[["[kernel.kallsyms]","not read for the kernel"],["hot","dwarf"],["ld-linux-x86-64.so.2","no DWARF line table"]]'
	pd profile --by line --symfs "$T/s" --kallsyms $KSYMS --top 2 $PROF
	assert_status 0
	assert_contains "$output" "  lines:
    hot_a.c:14:             source_file=testdata/profile/hot_a.c samples=607 percent=55.84% period=151750000 dso=hot
    hot_a.c:15:             source_file=testdata/profile/hot_a.c samples=201 percent=18.49% period=50250000 dso=hot
  dsos:"
	pd profile --by line --csv --symfs "$T/s" --kallsyms $KSYMS --top 1 $PROF
	assert_eq "$output" "event,srcline,source_file,line,samples,percent,period,dso,status,unverified
cpu-clock,hot_a.c:14,testdata/profile/hot_a.c,14,607,55.84,151750000,hot,match,no"
}

@test "profile --by line: a DSO not symbolized is a row per address, DSO[offset]; no children" {
	pdj -j profile --by line --symfs "$T/empty" --kallsyms $KSYMS $PROF
	assert_status 0
	# perf's __get_srcline without a file to ask: the DSO and the address
	jq_all '[.profile.lines[] | select(.dso == "hot")] | [length, .[0].srcline, .[0].samples, .[0].status]' \
		'[20,"hot[1176]",410,"missing"]' \
		'[.profile.lines[] | select(.dso == "hot") | .samples] | add' '1069'
	# callchains do not count by line (perf's children by line key a
	# callchain's address by the address, not a line)
	pdj -j profile --by line --symfs "$T/s" $CC
	jq_true '.profile.children == false and ([.profile.lines[] | keys[] | select(startswith("children"))] | length == 0)'
}
