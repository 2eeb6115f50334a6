#!/usr/bin/env bats
# perfdump buildids (issue 5): build-ids from the BUILD_ID feature, build-id
# records and MMAP2 build-ids, resolved with libelf against local files, and
# features --resolve.  perf's own lists are in testdata/perf-ref/
# (scripts/record-buildid-fixtures.sh).

load helpers
# bats file_tags=asan

DD_ID=e59f954969893171a6b23be9244b941749e1257f
LD_ID=7ebc65e52f2bbea498b4040fa92f7238377aaba9
LIBC_ID=93ac61ec5a8eb1396f9fbd350e3169a558528a40
KERNEL_ID=4a5a9b0affb66c437abcd455d2738af879985fa9
VDSO_ID=e95baaeaec8534edc5df3654182ddf12b19d9b23
LD=/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2
LIBC=/usr/lib/x86_64-linux-gnu/libc.so.6

# Build ids of the tiny program the tests compile.
ID_A=0123456789abcdef0123456789abcdef01234567
ID_B=fedcba9876543210fedcba9876543210fedcba98
ID_SHORT=0011223344556677

setup() {
	T=$BATS_TEST_TMPDIR
	mkdir -p "$T/empty-debug" "$T/empty-symfs"
	# hermetic: no build-id cache of this machine, unless a test says so
	export PERF_BUILDID_DIR=$T/empty-debug
}

# The binaries the fixtures were recorded against must still be the ones
# installed here (Debian's coreutils and libc6).
need_debian_binaries() {
	command -v readelf >/dev/null || skip "readelf not installed"
	readelf -n /usr/bin/dd | grep -q "Build ID: $DD_ID" ||
		skip "/usr/bin/dd is not the build the fixtures saw"
	readelf -n "$LIBC" | grep -q "Build ID: $LIBC_ID" ||
		skip "$LIBC is not the build the fixtures saw"
}

# tiny OUT BUILD-ID: a small C program linked with that build-id
# (ld --build-id=0xHEX, or none).
tiny() {
	command -v cc >/dev/null || skip "no C compiler"
	# compiled once per build-id and run of this file, then copied
	local c=$BATS_FILE_TMPDIR/tiny-$2
	if [ ! -e "$c" ]; then
		printf 'int main(void) { return 0; }\n' >"$BATS_FILE_TMPDIR/tiny.c"
		if [ "$2" = none ]; then
			cc -o "$c.tmp" "$BATS_FILE_TMPDIR/tiny.c" -Wl,--build-id=none
		else
			cc -o "$c.tmp" "$BATS_FILE_TMPDIR/tiny.c" "-Wl,--build-id=0x$2"
		fi
		mv "$c.tmp" "$c"
	fi
	cp "$c" "$1"
}

# bytes HEX: the bytes on stdout.
bytes() {
	# shellcheck disable=SC2059
	[ -z "$1" ] || printf "$(sed 's/../\\x&/g' <<<"$1")"
}

# bid_entry MISC PID HEXID SIZE NAME: a HEADER_BUILD_ID entry
# (header; s32 pid; u8 build_id[20]; u8 size; 3 reserved; name padded to 8).
bid_entry() {
	local misc=$1 pid=$2 hex=$3 size=$4 name=$5 total pad
	total=$((36 + (${#name} + 1 + 7) / 8 * 8))
	pad=$((total - 36 - ${#name}))
	le32 0
	bytes "$(printf '%02x%02x%02x%02x' $((misc & 255)) $((misc >> 8)) $((total & 255)) $((total >> 8)))"
	le32 $((pid & 0xffffffff))
	bytes "$hex"
	head -c $((20 - ${#hex} / 2)) /dev/zero
	bytes "$(printf '%02x' "$size")"
	head -c 3 /dev/zero
	printf '%s' "$name"
	head -c "$pad" /dev/zero
}

# crafted OUT: a perf.data whose BUILD_ID feature names /opt/tiny/prog
# (ID_A), /opt/tiny/short (ID_SHORT as a zero-padded 20-byte field without
# the size bit, as old perf wrote it), /opt/tiny/gone, [vdso] and
# [kernel.kallsyms].
crafted() {
	{
		bid_entry $((0x8002)) -1 "$ID_A" 20 /opt/tiny/prog
		bid_entry 2 -1 "$ID_SHORT" 0 /opt/tiny/short
		bid_entry $((0x8002)) -1 "$ID_B" 20 /opt/tiny/gone
		bid_entry $((0x8002)) -1 "$VDSO_ID" 20 '[vdso]'
		bid_entry $((0x8001)) -1 "$KERNEL_ID" 20 '[kernel.kallsyms]'
	} >"$T/feat.bin"
	make_perf_file "$1" 2 "$T/feat.bin"
}

# perf_list FILE: perf buildid-list's lines for perfdump's entries.
perf_list() {
	jq -r '.buildids[] | "\(.build_id) \(.filename)"' <<<"$output"
}

@test "buildids: buildid.data lists what perf buildid-list lists, each resolved to match" {
	need_debian_binaries
	pdj -j buildids testdata/buildid.data
	assert_status 0
	assert_eq "$(perf_list)" "$(cat testdata/perf-ref/buildid.data.buildids.txt)" "the list"
	jq_all '[.buildids[] | .status] | join(",")' '"not-checked,match,match,pseudo,match"' \
		'[.buildids[] | select(.status == "match") | .path == .filename] | all' 'true' \
		'[.buildids[] | select(.status == "match") | .tried | length] | unique' '[1]' \
		'.buildids[1] | [.build_id, .build_id_size, .pid, .cpumode_name, .sources, .found_build_id, .detail]' \
		"[\"$DD_ID\",20,-1,\"user\",[\"feature\"],null,null]" \
		'.buildids[0] | [.filename, .cpumode, .detail]' \
		'["[kernel.kallsyms]",1,"the running kernel is compared only with --kernel"]' \
		'.buildids[3] | [.filename, .status, .path, .detail, .tried]' '["[vdso]","pseudo",null,"not a file",[]]' \
		'.summary | [.entries, .listed, .match, .mismatch, .missing, .not_elf, .unreadable, .pseudo, .not_checked, .no_build_id]' \
		'[5,5,3,0,0,0,0,1,1,0]' \
		'.summary.sources' '{"feature":5,"record":0,"mmap2":0,"sample":0}' \
		'.summary.hits' 'null'
}

@test "buildids: text output, one row per entry and a summary" {
	need_debian_binaries
	pd buildids testdata/buildid.data
	assert_status 0
	assert_contains "$output" "  build_id=$DD_ID filename=/usr/bin/dd status=match path=/usr/bin/dd build_id_size=20 pid=-1 cpumode=user sources=feature offset=0x"
	assert_contains "$output" "filename=[vdso] status=pseudo detail=\"not a file\" build_id_size=20"
	assert_contains "$output" "summary:
  entries:                  5
  listed:                   5
  match:                    3"
	assert_empty "$stderr"
}

@test "buildids: MMAP2 build-ids (--buildid-mmap) are a source; the list equals perf's" {
	need_debian_binaries
	pdj -j buildids testdata/buildid-mmap.data
	assert_status 0
	assert_eq "$(perf_list)" "$(cat testdata/perf-ref/buildid-mmap.data.buildids.txt)" "the list"
	# the kernel's MMAP2 is [kernel.kallsyms]_text: listed as perf names it
	jq_all '[.buildids[] | .sources] | unique' '[["mmap2"]]' \
		'[.buildids[] | .status] | join(",")' '"not-checked,match,match,match"' \
		'.buildids[0] | [.filename, .pid, .cpumode_name, .offset]' '["[kernel.kallsyms]",-1,"kernel",344]' \
		'[.buildids[1:][] | .pid] | unique | length' '1' \
		'.summary.sources' '{"feature":0,"record":0,"mmap2":4,"sample":0}'
	pd -j records --type mmap2 testdata/buildid-mmap.data
	jq_eq '[.records[] | select(.misc_names | index("MMAP_BUILD_ID")) | .offset]' '[344,704,808,1080]'
}

@test "buildids: the feature list and the records' HEADER_BUILD_ID of every fixture equal perf buildid-list" {
	local f
	for f in cpu-clock callgraph group mono threads tracepoint allbits killed stat; do
		pd -j buildids --no-resolve "testdata/$f.data"
		assert_no_signal
		assert_eq "$(perf_list)" "$(cat "testdata/perf-ref/$f.data.buildids.txt")" "$f"
		jq_true '[.buildids[] | has("status")] | any | not'
	done
}

# hits_check NAME: --hits lists perf buildid-list -H's DSOs, with the
# sample counts perf report --sort dso shows (summed over its events):
# its [unknown] is what --hits leaves unmapped, and a DSO it shows that
# buildid-list -H does not list is a KSYMBOL's (hits.ksymbol).
hits_check() {
	local name=$1 ref=testdata/perf-ref/$1 want got
	pdj -j buildids --hits "testdata/$name"
	assert_no_signal
	got=$(jq -r '.buildids[] | "\(.build_id // "") \(.filename)" | ltrimstr(" ")' <<<"$output")
	want=$(sed 's/^ *//' "$ref.buildids-H.txt")
	assert_eq "$got" "$want" "$name: DSOs with hits"
	got=$(jq -r '(.buildids[] | "\(.samples) \(.filename | split("/") | last)"),
		"unmapped \(.summary.hits.unmapped)", "ksymbol \(.summary.hits.ksymbol)"' <<<"$output" | sort)
	want=$(awk 'NR == FNR { n = split($NF, p, "/"); listed[p[n]] = 1; next }
		{ s[$2] += $1 }
		END {
			for (d in s)
				if (d == "[unknown]") u += s[d]
				else if (d in listed) print s[d], d
				else k += s[d]
			print "unmapped", u + 0
			print "ksymbol", k + 0
		}' "$ref.buildids-H.txt" "$ref.dso-samples.txt" | sort)
	assert_eq "$got" "$want" "$name: samples per DSO"
}

@test "buildids --hits: DSOs and sample counts agree with perf (buildid-list -H, report --sort dso)" {
	hits_check buildid.data
	jq_all '.summary.hits' '{"samples":201,"mapped":201,"ksymbol":0,"unmapped":0,"maps":5,"not_kept":0,"capped":false}' \
		'.summary | [.entries, .listed]' '[5,4]'
	hits_check buildid-mmap.data
	hits_check threads.data
	jq_eq '.summary.hits.samples' '536'
	# pipe mode without build-ids: sampled DSOs with status no-build-id
	hits_check pipe.data
	jq_all '[.buildids[] | .status] | unique' '["no-build-id"]' \
		'[.buildids[] | [.cpumode_name, .sources[0], .build_id, .offset]] | unique' \
		'[["kernel","sample",null,null],["user","sample",null,null]]'
}

# The kernel's maps are machine-wide and may come after the samples; like
# perf, a sample is mapped with the maps known when it is processed
# (session.c: perf_session__new makes no kernel map for a file it reads)
@test "buildids --hits: kernel samples as perf maps them (--overwrite --tail-synthesize, KSYMBOL)" {
	# the kernel's MMAP (time 0) after every sample: perf reads it before its
	# one round is flushed, so every kernel sample is [kernel.kallsyms]
	hits_check tail-synth.data
	jq_all '[.buildids[] | select(.filename == "[kernel.kallsyms]") | .samples]' \
		"[$(awk '$2 == "[kernel.kallsyms]" { print $1 }' testdata/perf-ref/tail-synth.data.dso-samples.txt)]" \
		'.summary.hits | [.samples, .unmapped]' '[403,0]'
	# with a second, non-backward event perf flushes samples before the tail:
	# every kernel sample is unmapped (perf: [unknown]), none listed
	hits_check tail-mixed.data
	jq_all '[.buildids[].filename] | index("[kernel.kallsyms]")' null \
		'.summary.hits | [.samples, .unmapped]' '[865,667]'
	# a BPF program's KSYMBOL is a kernel map until unregistered: 3 samples in
	# it, one at its address after (perf report --sort dso: 3 and [unknown] 1)
	hits_check synthetic/ksymbol-hits.data
	jq_all '.summary.hits | [.mapped, .ksymbol, .unmapped]' '[390,3,1]'
}

@test "buildids --kernel: [kernel.kallsyms] against /sys/kernel/notes" {
	[ -r /sys/kernel/notes ] || skip "/sys/kernel/notes is not readable"
	command -v perf >/dev/null || skip "perf (to read the running kernel's build-id) is not installed"
	local running
	running=$(perf buildid-list -k 2>/dev/null) || skip "perf buildid-list -k failed"
	pdj -j buildids --kernel testdata/buildid.data
	assert_status 0
	if [ "$running" = "$KERNEL_ID" ]; then
		jq_eq '.buildids[0] | [.status, .path, .tried[0].build_id]' "[\"match\",\"/sys/kernel/notes\",\"$KERNEL_ID\"]"
	else
		jq_eq '.buildids[0] | [.status, .path, .found_build_id]' "[\"mismatch\",\"/sys/kernel/notes\",\"$running\"]"
	fi
}

@test "buildids --symfs: a rebuilt binary is a mismatch with both ids, a deleted one missing, a short id matches" {
	local S=$T/symfs
	mkdir -p "$S/opt/tiny"
	tiny "$S/opt/tiny/prog" "$ID_B"
	tiny "$S/opt/tiny/short" "$ID_SHORT"
	tiny "$T/gone" "$ID_B"
	cp "$T/gone" "$S/opt/tiny/gone"
	rm "$S/opt/tiny/gone"
	crafted "$T/c.data"
	pdj -j buildids --symfs "$S" "$T/c.data"
	assert_status 0
	jq_all '.buildids[0] | [.filename, .build_id, .status, .path, .found_build_id, .detail]' \
		"[\"/opt/tiny/prog\",\"$ID_A\",\"mismatch\",\"$S/opt/tiny/prog\",\"$ID_B\",\"the file has another build-id\"]" \
		'.buildids[0].tried | map(.status)' '["mismatch","missing","missing","missing"]' \
		'.buildids[0].tried | map(.path)' \
		"[\"$S/opt/tiny/prog\",\"$T/empty-debug/opt/tiny/prog/$ID_A/elf\",\"$T/empty-debug/.build-id/01/${ID_A:2}\",\"$S/usr/lib/debug/.build-id/01/${ID_A:2}.debug\"]" \
		'.buildids[1] | [.build_id, .build_id_size, .status, .path]' \
		"[\"${ID_SHORT}000000000000000000000000\",20,\"match\",\"$S/opt/tiny/short\"]" \
		'.buildids[2] | [.status, .path, .found_build_id, .detail]' '["missing",null,null,"no such file"]' \
		'.buildids[2].tried[0] | [.status, .detail]' '["missing","No such file or directory"]' \
		'.summary | [.match, .mismatch, .missing, .pseudo, .not_checked]' '[1,1,1,1,1]'
	# the text line shows both ids
	pd buildids --symfs "$S" "$T/c.data"
	assert_contains "$output" "build_id=$ID_A filename=/opt/tiny/prog status=mismatch path=$S/opt/tiny/prog found_build_id=$ID_B detail=\"the file has another build-id\" tried={path=$S/opt/tiny/prog status=mismatch build_id=$ID_B},{path="
	# --missing: what a bug report needs, nothing else
	pdj -j buildids --missing --symfs "$S" "$T/c.data"
	jq_all '[.buildids[] | "\(.status) \(.filename)"]' '["mismatch /opt/tiny/prog","missing /opt/tiny/gone"]' \
		'.summary | [.entries, .listed]' '[5,2]'
	# the same program with the recorded id: match
	tiny "$S/opt/tiny/prog" "$ID_A"
	pdj -j buildids --symfs "$S" "$T/c.data"
	jq_eq '.buildids[0] | [.status, .path]' "[\"match\",\"$S/opt/tiny/prog\"]"
}

@test "buildids: a truncated ELF is unreadable, other files not-elf, an ELF without the note a mismatch" {
	local S=$T/symfs
	mkdir -p "$S/opt/tiny"
	tiny "$T/full" "$ID_A"
	head -c 200 "$T/full" >"$S/opt/tiny/prog"       # headers, no sections
	printf '#!/bin/sh\n' >"$S/opt/tiny/short"        # a script
	mkdir "$S/opt/tiny/gone"                         # a directory
	crafted "$T/c.data"
	pdj -j buildids --symfs "$S" "$T/c.data"
	assert_status 0
	assert_no_signal
	jq_all '[.buildids[0:3][] | .status]' '["unreadable","not-elf","not-elf"]' \
		'.buildids[0].path' "\"$S/opt/tiny/prog\"" \
		'.buildids[0].detail | test("^truncated: [0-9]+ section headers at 0x[0-9a-f]+, file of 200 bytes$")' 'true' \
		'[.buildids[1:3][] | .detail]' '["no ELF magic (10 bytes)","a directory"]' \
		'.summary | [.unreadable, .not_elf, .missing]' '[1,2,0]'
	# every length of the truncated file: a status, never a crash
	local n
	for n in 0 3 4 16 52 63 64 100 1000 2000 4000; do
		head -c "$n" "$T/full" >"$S/opt/tiny/prog"
		pd -j buildids --symfs "$S" "$T/c.data"
		assert_no_signal
		jq_true '.buildids[0].status | IN("unreadable","not-elf","mismatch","match")'
	done
	# a sound ELF without NT_GNU_BUILD_ID
	tiny "$S/opt/tiny/prog" none
	pd -j buildids --symfs "$S" "$T/c.data"
	jq_eq '.buildids[0] | [.status, .found_build_id, .detail]' '["mismatch",null,"no NT_GNU_BUILD_ID note"]'
}

@test "buildids: found through perf's build-id cache and /usr/lib/debug" {
	local S=$T/symfs D=$T/debug
	tiny "$T/a" "$ID_A"
	tiny "$T/short" "$ID_SHORT"
	# <cache>/<path>/<build-id>/elf
	mkdir -p "$D/opt/tiny/prog/$ID_A" "$S"
	cp "$T/a" "$D/opt/tiny/prog/$ID_A/elf"
	# <cache>/.build-id/xx/rest as an old-style link to the file (the
	# recorded id is the zero-padded 20-byte field: its name is 40 digits);
	# perf makes it relative, "../../<path>/<build-id>" (build-id.c:
	# build_id_cache__add), so it stays inside the cache
	local sid=${ID_SHORT}000000000000000000000000
	mkdir -p "$D/.build-id/00" "$D/opt/tiny/short"
	cp "$T/short" "$D/opt/tiny/short/$sid"
	ln -s "../../opt/tiny/short/$sid" "$D/.build-id/00/${sid:2}"
	crafted "$T/c.data"
	pdj -j buildids --symfs "$S" --debug-dir "$D" "$T/c.data"
	jq_all '.buildids[0] | [.status, .path, (.tried | length)]' "[\"match\",\"$D/opt/tiny/prog/$ID_A/elf\",2]" \
		'.buildids[1] | [.status, .path]' "[\"match\",\"$D/.build-id/00/${ID_SHORT:2}000000000000000000000000\"]"
	# the new layout: .build-id/xx/rest is a link to the directory (here
	# one that <path>/<build-id> does not name, so the link is what finds it)
	rm -r "$D"
	mkdir -p "$D/moved/prog/$ID_A" "$D/.build-id/01"
	cp "$T/a" "$D/moved/prog/$ID_A/elf"
	ln -s "../../moved/prog/$ID_A" "$D/.build-id/01/${ID_A:2}"
	PERF_BUILDID_DIR=$D pdj -j buildids --symfs "$S" "$T/c.data"
	jq_eq '.buildids[0] | [.status, .path]' "[\"match\",\"$D/.build-id/01/${ID_A:2}/elf\"]"
	# /usr/lib/debug/.build-id/xx/rest.debug, under the symfs
	mkdir -p "$S/usr/lib/debug/.build-id/01"
	cp "$T/a" "$S/usr/lib/debug/.build-id/01/${ID_A:2}.debug"
	pdj -j buildids --symfs "$S" "$T/c.data"
	jq_eq '.buildids[0] | [.status, .path]' "[\"match\",\"$S/usr/lib/debug/.build-id/01/${ID_A:2}.debug\"]"
}

@test "features --resolve: BUILD_ID entries carry the same resolution as buildids" {
	local S=$T/symfs
	mkdir -p "$S/opt/tiny"
	tiny "$S/opt/tiny/prog" "$ID_B"
	crafted "$T/c.data"
	pdj -j features --resolve --symfs "$S" "$T/c.data" build_id
	assert_status 0
	local feat=$output
	jq_all "$(feature BUILD_ID).build_ids | map(.status)" '["mismatch","missing","missing","pseudo","not-checked"]' \
		"$(feature BUILD_ID).build_ids[0] | [.found_build_id, .path]" "[\"$ID_B\",\"$S/opt/tiny/prog\"]"
	pdj -j buildids --symfs "$S" "$T/c.data"
	assert_eq "$(jq -c '[.buildids[] | {status, path, found_build_id, detail, tried}]' <<<"$output")" \
		"$(jq -c "[$(feature BUILD_ID).build_ids[] | {status, path, found_build_id, detail, tried}]" <<<"$feat")" \
		"features --resolve vs buildids"
	# without --resolve, no resolution fields
	pdj -j features "$T/c.data" build_id
	jq_eq "[$(feature BUILD_ID).build_ids[] | has(\"status\")] | any" 'false'
	pd features --resolve --symfs "$S" "$T/c.data" build_id
	assert_contains "$output" "filename=/opt/tiny/prog status=mismatch path=$S/opt/tiny/prog found_build_id=$ID_B"
}

@test "buildids: usage errors" {
	pd buildids --missing --no-resolve testdata/buildid.data
	assert_status 2
	pd buildids --symfs
	assert_status 2
	assert_contains "$stderr" "option '--symfs' needs a value"
	pd help buildids
	assert_status 0
	assert_contains "$output" "Usage: perfdump buildids [OPTIONS] [FILE...]"
}

# bats test_tags=normal
@test "buildids corpus: the list equals HEADER_BUILD_ID, resolution says missing and adds no errors" {
	sweep
	need_corpus
	local f feat res nores bad docs= n=0
	while IFS= read -r -d '' f; do
		case $f in */invalid_perf.data) continue ;; esac # not a recording: corpus.bats
		pd -j features "$f" build_id
		assert_no_signal
		feat=$output
		pd -j buildids --symfs "$T/empty-symfs" "$f"
		assert_no_signal
		res=$output
		nores=$("$PERFDUMP" -j buildids --no-resolve "$f" 2>/dev/null) || true
		docs="$docs{\"f\":$(js "$f"),\"feat\":$feat,\"res\":$res,\"nores\":$nores}
"
		n=$((n + 1))
	done < <(find "$CORPUS" -type f ! -name MANIFEST.md -print0)
	[ "$n" -gt 50 ]
	# one jq for the three documents of every file: the feature (or pipe
	# record) entries equal the feature's, first occurrence of each pair;
	# nothing resolves under an empty symfs; resolving adds no errors
	bad=$(jq -c --argjson n "$n" -n '[inputs] | if length != $n then ["\(length) files of \($n)"] else .[] |
		.f as $f | .feat as $feat | .res as $res | .nores as $nores |
		([$res.buildids[] | select(.sources | index("feature") or index("record")) | [.build_id, .filename]]) as $got |
		([($feat.features[] | select(.name == "BUILD_ID") | .build_ids[]?) | [.build_id, .filename]] |
			reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end)) as $want |
		[if $res.perfdump_json_version != 1 or ($res.errors | type) != "array" then "not a perfdump document" else empty end,
		 if $got != $want then "build-ids \($got) != \($want)" else empty end,
		 if ([$res.buildids[] | .status | IN("missing","pseudo","not-checked")] | all | not) then "a status resolved" else empty end,
		 if $res.errors != $nores.errors then "errors \($res.errors) != \($nores.errors)" else empty end] |
		select(. != []) | [$f] + . end' <<<"$docs" 2>&1)
	assert_empty "$bad" "files whose build-ids disagree"
}

# check-short-trailer.data (scripts/gen-testdata.py): buildids decodes records
# with the record decoder (pd_decode_event), so a FORK too small for its
# sample_id trailer is an error here as in `records` and `check`
@test "buildids: a record too small for its sample_id trailer is an error, as records says" {
	pdj -j buildids testdata/synthetic/check-short-trailer.data
	assert_status 1
	jq_eq '[.errors[] | [.offset, .what, .detail]]' '[[328,"FORK","record of 32 bytes is too small for its 32-byte sample_id trailer"]]'
	pdj -j records testdata/synthetic/check-short-trailer.data
	assert_status 1
	jq_eq '[.errors[] | [.offset, .what, .detail]]' '[[328,"FORK","record of 32 bytes is too small for its 32-byte sample_id trailer"]]'
}

# ------------------------------------------------------------ hostile paths
# scripts/gen-hostile-paths.py writes recordings whose filenames try to
# leave --symfs and --debug-dir (its docstring lists every entry); the tree
# built here gives every escape a file to find, so that before the fix
# (paths appended to the directory) they were found:
#   $H/etc/passwd                   a 32-byte text file: S/../../etc/passwd
#   $A/outside/secret.so            SECRET (/bin/true), outside S
#   $A/outside/cache.so/ID_T/elf    SECRET: D/usr/bin/../../../outside/cache.so/ID_T/elf
#   $A/outside/bid.so               SECRET: where D's .build-id link for ID_T points
#   S=$A/symfs  usr/bin/, usr/lib/, real/false.so (INSIDE: /bin/false),
#               outside/secret.so (INSIDE: where lib -> ../outside lands
#               when resolved inside S), lib -> ../outside,
#               opt/abs.so -> $A/outside/secret.so, opt/abs-in.so -> /real/false.so,
#               opt/rel-in.so -> ../real/false.so, opt/fifo.so (a FIFO),
#               opt/loop.so -> loop.so, usr/lib/deep.so -> ../../opt/rel-in.so,
#               opt/trail.so -> ../real/false.so/ (the '/' wants a directory)
#   D=$A/debug  usr/bin/, .build-id/<ID_T> -> ../../../outside/bid.so,
#               .build-id/<ID_F> -> ../../moved/false.so/ID_F (a directory
#               holding elf = INSIDE, as perf links it)
#   D2=$A/debug2  the same with .build-id/<ID_T> -> $A/outside/bid.so
setup_file() {
	local H=$BATS_FILE_TMPDIR A S D D2 d
	A=$H/a S=$A/symfs D=$A/debug D2=$A/debug2
	[ -x /bin/true ] && [ -x /bin/false ] && command -v python3 >/dev/null || return 0
	ID_T=$(python3 scripts/gen-hostile-paths.py --build-id /bin/true)
	ID_F=$(python3 scripts/gen-hostile-paths.py --build-id /bin/false)
	[ "$ID_T" != "$ID_F" ] || return 0
	mkdir -p "$H/etc" "$A/outside/cache.so/$ID_T" "$A/empty" \
		"$S/usr/bin" "$S/usr/lib" "$S/opt" "$S/real" "$S/outside"
	printf 'root:x:0:0:root:/root:/bin/bash\n' >"$H/etc/passwd"
	cp /bin/true "$A/outside/secret.so"
	cp /bin/true "$A/outside/cache.so/$ID_T/elf"
	cp /bin/true "$A/outside/bid.so"
	cp /bin/false "$S/real/false.so"
	cp /bin/false "$S/outside/secret.so"
	ln -s ../outside "$S/lib"
	ln -s "$A/outside/secret.so" "$S/opt/abs.so"
	ln -s /real/false.so "$S/opt/abs-in.so"
	ln -s ../real/false.so "$S/opt/rel-in.so"
	mkfifo "$S/opt/fifo.so"
	ln -s loop.so "$S/opt/loop.so"
	ln -s ../../opt/rel-in.so "$S/usr/lib/deep.so"
	ln -s ../real/false.so/ "$S/opt/trail.so"
	for d in "$D" "$D2"; do
		mkdir -p "$d/usr/bin" "$d/.build-id/${ID_T:0:2}" "$d/.build-id/${ID_F:0:2}" \
			"$d/moved/false.so/$ID_F"
		cp /bin/false "$d/moved/false.so/$ID_F/elf"
		ln -s "../../moved/false.so/$ID_F" "$d/.build-id/${ID_F:0:2}/${ID_F:2}"
	done
	ln -s ../../../outside/bid.so "$D/.build-id/${ID_T:0:2}/${ID_T:2}"
	ln -s "$A/outside/bid.so" "$D2/.build-id/${ID_T:0:2}/${ID_T:2}"
	python3 scripts/gen-hostile-paths.py "$H" "$A/outside/secret.so" "$S/real/false.so"
	export ID_T ID_F
}

# need_hostile: the tree above was built; H A S D D2 set.
need_hostile() {
	[ -n "${ID_T:-}" ] || skip "needs python3, /bin/true and /bin/false with different build-ids"
	H=$BATS_FILE_TMPDIR A=$BATS_FILE_TMPDIR/a
	S=$A/symfs D=$A/debug D2=$A/debug2
}

# no_secret: the output shows no file outside the root: SECRET's build-id
# is never found, and the 32 bytes of $H/etc/passwd are never counted.
no_secret() {
	jq_all "[.buildids[] | .found_build_id, .tried[].build_id] | index(\"$ID_T\")" 'null' \
		"[.buildids[] | select(.build_id == \"$ID_T\") | .status] | index(\"match\")" 'null' \
		'[.buildids[] | .detail, .tried[].detail] | map(select(. != null and test("bytes"))) | length' '0'
}

OUT="'..' leads outside the root"

@test "buildids --symfs: a recorded path whose .. climbs out of the root is outside-root, never opened" {
	need_hostile
	local mode first=
	for mode in "" 1; do # openat2, then the walk without it
		PERFDUMP_NO_OPENAT2=$mode pdj -j buildids --symfs "$S" "$H/hostile-symfs.data"
		assert_status 0
		jq_all '[.buildids[] | select(.status == "outside-root") | [.filename, .sources[0]]]' \
			'[["/../../etc/passwd","feature"],["/usr/bin/../../../outside/secret.so","feature"],["/opt/../../outside/secret.so","mmap2"],["/./../outside/secret.so","record"]]' \
			'.buildids[1] | [.status, .path, .found_build_id, .detail]' \
			"[\"outside-root\",\"$S/usr/bin/../../../outside/secret.so\",null,\"$OUT\"]" \
			'.buildids[1].tried | map([.path, .status, .build_id])' \
			"[[\"$S/usr/bin/../../../outside/secret.so\",\"outside-root\",null],[\"$T/empty-debug/usr/bin/../../../outside/secret.so/$ID_T/elf\",\"outside-root\",null],[\"$T/empty-debug/.build-id/${ID_T:0:2}/${ID_T:2}\",\"missing\",null],[\"$S/usr/lib/debug/.build-id/${ID_T:0:2}/${ID_T:2}.debug\",\"missing\",null]]" \
			'.buildids[0] | [.filename, .status, .path, .detail]' \
			"[\"/../../etc/passwd\",\"outside-root\",\"$S/../../etc/passwd\",\"$OUT\"]" \
			'.summary | [.entries, .match, .mismatch, .missing, .not_elf, .unreadable, .outside_root]' '[13,4,1,2,1,1,4]'
		no_secret
		[ -z "$first" ] || assert_eq "$output" "$first" "the walk's output vs openat2's"
		first=$output
	done
	pd buildids --symfs "$S" "$H/hostile-symfs.data"
	assert_status 0
	assert_contains "$output" "build_id=$ID_T filename=/../../etc/passwd status=outside-root path=$S/../../etc/passwd detail=\"$OUT\" tried={path=$S/../../etc/passwd status=outside-root detail=\"$OUT\"},{path=$T/empty-debug/../../etc/passwd/$ID_T/elf status=outside-root detail=\"$OUT\"},{path=$T/empty-debug/.build-id/"
	assert_contains "$output" "filename=/./../outside/secret.so status=outside-root path=$S/./../outside/secret.so detail=\"$OUT\""
	assert_contains "$output" "  outside_root:             4"
	[[ $output != *"bytes)"* ]] || { echo "a size of a file outside: $output"; return 1; }
}

@test "buildids --symfs: links in the tree are resolved inside it, as if it were /" {
	need_hostile
	local mode first=
	for mode in "" 1; do
		PERFDUMP_NO_OPENAT2=$mode pdj -j buildids --symfs "$S" "$H/hostile-symfs.data"
		assert_status 0
		# lib -> ../outside: the ".." stays at the root, S/outside/secret.so
		# (INSIDE) is what it names; abs.so's target is looked for under S
		jq_all '[.buildids[2:11][] | [.filename, .status]]' \
			'[["/lib/secret.so","mismatch"],["/opt/abs.so","missing"],["/opt/abs-in.so","match"],["/opt/rel-in.so","match"],["/usr/lib/../../real/false.so","match"],["/opt/fifo.so","not-elf"],["/opt/loop.so","unreadable"],["/usr/lib/deep.so","match"],["/opt/trail.so","missing"]]' \
			'.buildids[2] | [.path, .found_build_id, .detail]' "[\"$S/lib/secret.so\",\"$ID_F\",\"the file has another build-id\"]" \
			'.buildids[3] | [.path, .detail, .tried[0].path, .tried[0].status, .tried[0].detail]' \
			"[null,\"no such file\",\"$S/opt/abs.so\",\"missing\",\"No such file or directory\"]" \
			'[.buildids[4,5,6,9] | .path]' "[\"$S/opt/abs-in.so\",\"$S/opt/rel-in.so\",\"$S/usr/lib/../../real/false.so\",\"$S/usr/lib/deep.so\"]" \
			'[.buildids[4,5,6,9] | .tried | length]' '[1,1,1,1]' \
			'[.buildids[7,8] | .detail]' '["not a regular file","Too many levels of symbolic links"]' \
			'.buildids[10].tried[0] | [.path, .status, .detail]' "[\"$S/opt/trail.so\",\"missing\",\"Not a directory\"]"
		no_secret
		[ -z "$first" ] || assert_eq "$output" "$first" "the walk's output vs openat2's"
		first=$output
	done
	pd buildids --symfs "$S" "$H/hostile-symfs.data"
	assert_contains "$output" "build_id=$ID_T filename=/lib/secret.so status=mismatch path=$S/lib/secret.so found_build_id=$ID_F detail=\"the file has another build-id\""
	assert_contains "$output" "build_id=$ID_T filename=/opt/abs.so status=missing detail=\"no such file\" tried={path=$S/opt/abs.so status=missing detail=\"No such file or directory\"}"
	assert_contains "$output" "build_id=$ID_F filename=/opt/abs-in.so status=match path=$S/opt/abs-in.so build_id_size=20"
}

@test "buildids --debug-dir: the build-id cache is a root too; its links stay inside it" {
	need_hostile
	local mode dir first=
	for dir in "$D" "$D2"; do
		for mode in "" 1; do
			PERFDUMP_NO_OPENAT2=$mode pdj -j buildids --symfs "$A/empty" --debug-dir "$dir" "$H/hostile-cache.data"
			assert_status 0
			jq_all '[.buildids[] | [.filename, .status]]' \
				'[["/usr/bin/../../../outside/cache.so","outside-root"],["/opt/bid.so","missing"],["/opt/renamed.so","match"]]' \
				'.buildids[0].tried | map([.path, .status])' \
				"[[\"$A/empty/usr/bin/../../../outside/cache.so\",\"outside-root\"],[\"$dir/usr/bin/../../../outside/cache.so/$ID_T/elf\",\"outside-root\"],[\"$dir/.build-id/${ID_T:0:2}/${ID_T:2}\",\"missing\"],[\"$A/empty/usr/lib/debug/.build-id/${ID_T:0:2}/${ID_T:2}.debug\",\"missing\"]]" \
				'.buildids[0] | [.path, .detail]' "[\"$A/empty/usr/bin/../../../outside/cache.so\",\"$OUT\"]" \
				'.buildids[1].tried[2] | [.path, .status, .detail]' \
				"[\"$dir/.build-id/${ID_T:0:2}/${ID_T:2}\",\"missing\",\"No such file or directory\"]" \
				'.buildids[2] | [.path, (.tried | map(.status))]' \
				"[\"$dir/.build-id/${ID_F:0:2}/${ID_F:2}/elf\",[\"missing\",\"missing\",\"match\"]]" \
				'.summary | [.match, .missing, .outside_root]' '[1,1,1]'
			no_secret
			if [ -n "$mode" ]; then
				assert_eq "$output" "$first" "the walk's output vs openat2's"
			fi
			first=$output
		done
	done
	pd buildids --symfs "$A/empty" --debug-dir "$D" "$H/hostile-cache.data"
	assert_contains "$output" "filename=/usr/bin/../../../outside/cache.so status=outside-root path=$A/empty/usr/bin/../../../outside/cache.so detail=\"$OUT\" tried={path=$A/empty/usr/bin/../../../outside/cache.so status=outside-root detail=\"$OUT\"},{path=$D/usr/bin/../../../outside/cache.so/$ID_T/elf status=outside-root detail=\"$OUT\"}"
}

@test "buildids: outside-root under --hits, --missing and features --resolve; without --symfs the root is /" {
	need_hostile
	pdj -j buildids --hits --symfs "$S" "$H/hostile-symfs.data"
	assert_status 0
	jq_all '[.buildids[] | [.filename, .samples, .status]]' \
		'[["/../../etc/passwd",1,"outside-root"],["/opt/../../outside/secret.so",1,"outside-root"]]' \
		'.summary.hits | [.samples, .mapped]' '[2,2]'
	pdj -j buildids --missing --symfs "$S" "$H/hostile-symfs.data"
	jq_all '[.buildids[] | .status]' \
		'["outside-root","outside-root","mismatch","missing","not-elf","unreadable","missing","outside-root","outside-root"]' \
		'.summary | [.entries, .listed]' '[13,9]'
	no_secret
	pdj -j features --resolve --symfs "$S" "$H/hostile-symfs.data" build_id
	assert_status 0
	jq_eq "[$(feature BUILD_ID).build_ids[] | .status]" \
		'["outside-root","outside-root","mismatch","missing","match","match","match","not-elf","unreadable","match","missing"]'
	# no --symfs: / is the root, and /../../etc/passwd is not /etc/passwd
	pdj -j buildids "$H/hostile-symfs.data"
	assert_status 0
	jq_all '.buildids[0:2] | map([.status, .path, .detail])' \
		"[[\"outside-root\",\"/../../etc/passwd\",\"$OUT\"],[\"outside-root\",\"/usr/bin/../../../outside/secret.so\",\"$OUT\"]]"
	no_secret
}
