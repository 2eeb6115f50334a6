#!/usr/bin/env bats
# The real-world corpus (../shared/corpus, MANIFEST.md): every file through
# `header` and `features`, in text and JSON.  No signal, valid JSON, exit 0
# except for the four damaged files, whose error names the right offset.
# Then the MANIFEST's "decoded" values for a dozen files.  Every test is
# skipped when the corpus is not there.

load helpers

# corpus_check REL [STATUS OFFSET [not-perf]]: header and features, text
# and -j: no signal, STATUS (default 0), valid JSON; a damaged file (STATUS
# 1) reports an error at OFFSET on stderr and in the JSON errors; one that
# is not a recording (not-perf) shows nothing but that error.  A sweep:
# make mutate runs every corpus file, whole, through the pipeline (header
# and features in text and JSON among it) under the sanitizers.
corpus_check() {
	sweep
	need_corpus
	local f=$CORPUS/$1 want=${2:-0} off=${3-} notperf=${4-} cmd
	[ -f "$f" ] || {
		echo "missing corpus file $f"
		return 1
	}
	for cmd in header features; do
		pd $cmd "$f"
		assert_no_signal
		assert_eq "$status" "$want" "exit status of '$cmd $1'"
		if [ -n "$notperf" ]; then
			assert_empty "$output" "stdout of '$cmd $1'"
		else
			assert_eq "${output%%$'\n'*}" "File: $f" "first line of '$cmd $1'"
		fi
		if [ "$want" = 0 ]; then
			assert_empty "$stderr" "stderr of '$cmd $1'"
		else
			assert_contains "$stderr" "perfdump: $f: $off: " "stderr of '$cmd $1'"
		fi
		pd -j $cmd "$f"
		assert_no_signal
		assert_eq "$status" "$want" "exit status of '-j $cmd $1'"
		if [ "$want" = 0 ]; then
			check_json '.errors == []'
		elif [ -n "$notperf" ]; then
			check_json ".$cmd == null and [.errors[].offset] == [$((off))]"
		else
			check_json "any(.errors[]; .offset == $((off)))"
		fi
	done
}

@test "corpus: every file in ../shared/corpus has a test here" {
	need_corpus
	local have want
	have=$(sed -n 's/^[[:space:]]*corpus_check \([^ ]*\).*/\1/p' "$BATS_TEST_FILENAME" | LC_ALL=C sort)
	want=$(cd "$CORPUS" && find . -type f ! -name MANIFEST.md | sed 's|^\./||' | LC_ALL=C sort)
	assert_eq "$have" "$want" "corpus files with a test"
}

@test "corpus autofdo/hierarchical_discriminator_test.x86_64.perf.data" {
	corpus_check autofdo/hierarchical_discriminator_test.x86_64.perf.data
}

@test "corpus autofdo/perf-kernel.data" {
	corpus_check autofdo/perf-kernel.data
}

@test "corpus hotspot/perf.data.PerfFormatLost" {
	corpus_check hotspot/perf.data.PerfFormatLost
}

@test "corpus hotspot/perf.data.true.v1" {
	corpus_check hotspot/perf.data.true.v1
}

@test "corpus hotspot/perf.data.true.v2" {
	corpus_check hotspot/perf.data.true.v2
}

@test "corpus linux-perf-data/fibo.compressed2.pipe.data" {
	corpus_check linux-perf-data/fibo.compressed2.pipe.data
}

@test "corpus linux-perf-data/sleep.compressed.data" {
	corpus_check linux-perf-data/sleep.compressed.data
}

@test "corpus linux-perf-data/sleep.compressed.pipe.data" {
	corpus_check linux-perf-data/sleep.compressed.pipe.data
}

@test "corpus linux-perf-data/sleep.compressed2.data" {
	corpus_check linux-perf-data/sleep.compressed2.data
}

@test "corpus linux-perf-data/sleep.compressed2.pipe.data" {
	corpus_check linux-perf-data/sleep.compressed2.pipe.data 1 0x7c40
}

@test "corpus linux-perf-data/sleep.data" {
	corpus_check linux-perf-data/sleep.data
}

@test "corpus linux-perf-file-reader/perf.data" {
	corpus_check linux-perf-file-reader/perf.data
}

@test "corpus llvm-lnt/fib-aarch64.perf_data" {
	corpus_check llvm-lnt/fib-aarch64.perf_data
}

@test "corpus perf_data_converter/perf.data.armv7-3.4" {
	corpus_check perf_data_converter/perf.data.armv7-3.4
}

@test "corpus perf_data_converter/perf.data.armv7.perf_3.14-3.8" {
	corpus_check perf_data_converter/perf.data.armv7.perf_3.14-3.8
}

@test "corpus perf_data_converter/perf.data.branch-4.14" {
	corpus_check perf_data_converter/perf.data.branch-4.14
}

@test "corpus perf_data_converter/perf.data.branch_stack_hw_index" {
	corpus_check perf_data_converter/perf.data.branch_stack_hw_index
}

@test "corpus perf_data_converter/perf.data.branch_stack_spec" {
	corpus_check perf_data_converter/perf.data.branch_stack_spec
}

@test "corpus perf_data_converter/perf.data.ctx_switch_namespaces-4.14" {
	corpus_check perf_data_converter/perf.data.ctx_switch_namespaces-4.14
}

@test "corpus perf_data_converter/perf.data.group_desc-4.14" {
	corpus_check perf_data_converter/perf.data.group_desc-4.14
}

@test "corpus perf_data_converter/perf.data.group_desc-4.4" {
	corpus_check perf_data_converter/perf.data.group_desc-4.4
}

@test "corpus perf_data_converter/perf.data.hw_and_sw-3.4" {
	corpus_check perf_data_converter/perf.data.hw_and_sw-3.4
}

@test "corpus perf_data_converter/perf.data.hybrid_topology" {
	corpus_check perf_data_converter/perf.data.hybrid_topology
}

@test "corpus perf_data_converter/perf.data.i686-3.4" {
	corpus_check perf_data_converter/perf.data.i686-3.4
}

@test "corpus perf_data_converter/perf.data.intel_pt-4.14" {
	corpus_check perf_data_converter/perf.data.intel_pt-4.14
}

@test "corpus perf_data_converter/perf.data.piped.corrupted.zero_size_sample-3.2" {
	corpus_check perf_data_converter/perf.data.piped.corrupted.zero_size_sample-3.2 1 0xbfd0
}

@test "corpus perf_data_converter/perf.data.piped.extrabyte-3.4" {
	corpus_check perf_data_converter/perf.data.piped.extrabyte-3.4 1 0x8d080
}

@test "corpus perf_data_converter/perf.data.piped.header_features-4.16" {
	corpus_check perf_data_converter/perf.data.piped.header_features-4.16
}

@test "corpus perf_data_converter/perf.data.piped.header_features_aligned-6.12" {
	corpus_check perf_data_converter/perf.data.piped.header_features_aligned-6.12
}

@test "corpus perf_data_converter/perf.data.piped.header_feautres_group_desc-6.8" {
	corpus_check perf_data_converter/perf.data.piped.header_feautres_group_desc-6.8
}

@test "corpus perf_data_converter/perf.data.piped.host-3.2" {
	corpus_check perf_data_converter/perf.data.piped.host-3.2
}

@test "corpus perf_data_converter/perf.data.piped.intel_pt-4.14" {
	corpus_check perf_data_converter/perf.data.piped.intel_pt-4.14
}

@test "corpus perf_data_converter/perf.data.piped.lost_samples-4.4" {
	corpus_check perf_data_converter/perf.data.piped.lost_samples-4.4
}

@test "corpus perf_data_converter/perf.data.piped.no_attr_ids-4.14" {
	corpus_check perf_data_converter/perf.data.piped.no_attr_ids-4.14
}

@test "corpus perf_data_converter/perf.data.raw_callgraph_branch-3.4" {
	corpus_check perf_data_converter/perf.data.raw_callgraph_branch-3.4
}

@test "corpus perf_data_converter/perf.data.remmap-3.2" {
	corpus_check perf_data_converter/perf.data.remmap-3.2
}

@test "corpus perf_data_converter/perf.data.singleprocess-3.4" {
	corpus_check perf_data_converter/perf.data.singleprocess-3.4
}

@test "corpus perf_data_converter/perf.data.weight_struct" {
	corpus_check perf_data_converter/perf.data.weight_struct
}

@test "corpus perf_data_converter/single-event-multi-process.perf.data" {
	corpus_check perf_data_converter/single-event-multi-process.perf.data
}

@test "corpus perfparser/contentsize.data" {
	corpus_check perfparser/contentsize.data
}

@test "corpus perfparser/cpp-inlining__cpp-inlining.perf.data" {
	corpus_check perfparser/cpp-inlining__cpp-inlining.perf.data
}

@test "corpus perfparser/fork_static_gcc__perf.data.zstd" {
	corpus_check perfparser/fork_static_gcc__perf.data.zstd
}

@test "corpus perfparser/parallel_static_gcc__perf.data.zstd" {
	corpus_check perfparser/parallel_static_gcc__perf.data.zstd
}

@test "corpus perfparser/probe.data.file" {
	corpus_check perfparser/probe.data.file
}

@test "corpus perfparser/probe.data.stream" {
	corpus_check perfparser/probe.data.stream
}

@test "corpus perfparser/vector_static_gcc__perf.data" {
	corpus_check perfparser/vector_static_gcc__perf.data
}

@test "corpus perfparser/vector_static_gcc__perf.lbr.data" {
	corpus_check perfparser/vector_static_gcc__perf.lbr.data
}

@test "corpus platform2-sommelier/perf.data.2012-11-01" {
	corpus_check platform2-sommelier/perf.data.2012-11-01
}

@test "corpus platform2-sommelier/perf.data.piped.powerpc" {
	corpus_check platform2-sommelier/perf.data.piped.powerpc
}

@test "corpus platform_system_extras/etm__perf_etm.data" {
	corpus_check platform_system_extras/etm__perf_etm.data
}

@test "corpus platform_system_extras/generated_by_linux_perf.data" {
	corpus_check platform_system_extras/generated_by_linux_perf.data
}

@test "corpus platform_system_extras/invalid_perf.data" {
	corpus_check platform_system_extras/invalid_perf.data 1 0x0 not-perf
}

@test "corpus platform_system_extras/lbr__perf_lbr.data" {
	corpus_check platform_system_extras/lbr__perf_lbr.data
}

@test "corpus platform_system_extras/perf_b.data" {
	corpus_check platform_system_extras/perf_b.data
}

@test "corpus platform_system_extras/perf_with_arm_regs.data" {
	corpus_check platform_system_extras/perf_with_arm_regs.data
}

@test "corpus platform_system_extras/perf_with_big_trace_data.data" {
	corpus_check platform_system_extras/perf_with_big_trace_data.data
}

@test "corpus platform_system_extras/perf_with_callchain_record.data" {
	corpus_check platform_system_extras/perf_with_callchain_record.data
}

@test "corpus platform_system_extras/perf_with_tracepoint_event.data" {
	corpus_check platform_system_extras/perf_with_tracepoint_event.data
}

@test "corpus platform_system_extras/perfprofd__canned.perf.data" {
	corpus_check platform_system_extras/perfprofd__canned.perf.data
}

# ------------------------------------------------ the damaged files

@test "corpus damaged: zero-size SAMPLE record at 0xbfd0 cannot be walked past" {
	need_corpus
	pdj -j header "$CORPUS/perf_data_converter/perf.data.piped.corrupted.zero_size_sample-3.2"
	assert_status 1
	jq_all \
		'.header.mode' '"pipe"' \
		'.header.stream.complete' false \
		'[.errors[] | select(.offset == 49104) | .detail | test("size 0")]' '[true]'
}

@test "corpus damaged: one trailing byte after the last record (0x8d080 = size - 1)" {
	need_corpus
	local f=$CORPUS/perf_data_converter/perf.data.piped.extrabyte-3.4
	assert_eq "$(file_size "$f")" $((0x8d081)) "file size"
	pdj -j header "$f"
	assert_status 1
	assert_contains "$stderr" "perfdump: $f: 0x8d080: "
	assert_contains "$stderr" "trailing"
	jq_eq '[.errors[].offset]' '[577664]'
}

@test "corpus damaged: text appended to a pipe stream at 0x7c40" {
	need_corpus
	local f=$CORPUS/linux-perf-data/sleep.compressed2.pipe.data
	pdj -j features "$f"
	assert_status 1
	assert_contains "$stderr" "perfdump: $f: 0x7c40: "
	# the features before the damage are all decoded
	jq_all \
		'[.features[].id]' '[3,4,5,6,7,8,9,10,11,12,13,14,16,21,22,25,26,27,28,31]' \
		"$(feature ARCH).value" '"x86_64"' \
		'[.errors[].offset]' '[31808]'
}

@test "corpus damaged: invalid_perf.data (1024 zero bytes) has no magic at 0x0" {
	need_corpus
	local f=$CORPUS/platform_system_extras/invalid_perf.data
	pdj -j header "$f"
	assert_status 1
	assert_contains "$stderr" "perfdump: $f: 0x0: "
	assert_contains "$stderr" "magic"
	jq_eq '[.errors[].offset]' '[0]'
}

# ------------------------------------------- MANIFEST "decoded" values

# corpus_features REL: run `features -j` on a sound corpus file.
corpus_features() {
	need_corpus
	pdj -j features "$CORPUS/$1"
	assert_status 0
	assert_empty "$stderr" stderr
}

# sys_pairs OS VERSION ARCH CPUDESC CPUID AVAIL ONLINE: appends to SYS the
# jq_all pairs for the MANIFEST's decoded osrelease, perf_version, arch,
# cpudesc, cpuid and nrcpus(avail,online); "-" skips a value.
sys_pairs() {
	local names=(OSRELEASE VERSION ARCH CPUDESC CPUID) i
	for i in 0 1 2 3 4; do
		if [ "$1" != - ]; then
			SYS+=("$(feature "${names[i]}").value" "$(js "$1")")
		fi
		shift
	done
	SYS+=("$(feature NRCPUS) | [.nr_cpus_avail, .nr_cpus_online]" "[$1,$2]")
}

@test "corpus values: perf.data.armv7-3.4 (armv7l, perf 3.4)" {
	corpus_features perf_data_converter/perf.data.armv7-3.4
	SYS=()
	sys_pairs 3.4.0 3.4.2842.g784f12 armv7l 'ARMv7 Processor rev 4 (v7l)' - 2 2
	jq_all "${SYS[@]}" \
		'[.features[].name] | index("CPUID")' null \
		"[$(feature EVENT_DESC).events[].name]" \
		'["cycles","instructions","cache-references","cache-misses","branches","branch-misses"]'
}

@test "corpus values: perf.data.i686-3.4 (32-bit x86)" {
	corpus_features perf_data_converter/perf.data.i686-3.4
	SYS=()
	sys_pairs 3.4.0 3.4.2818.ga9d300 i686 'Intel(R) Atom(TM) CPU N570 @ 1.66GHz' 'GenuineIntel,6,28,10' 4 4
	jq_all "${SYS[@]}" \
		"[$(feature EVENT_DESC).events[].name]" \
		'["cycles","instructions","cache-references","cache-misses","branches","branch-misses"]'
}

@test "corpus values: perf.data.branch_stack_spec (384 CPUs, BRANCH_STACK, CPU_PMU_CAPS)" {
	corpus_features perf_data_converter/perf.data.branch_stack_spec
	SYS=()
	sys_pairs 4.15.0-smp-9xx 5.19.0-4-GOOGLE-gbb83c99d3d0a x86_64 'AMD Eng Sample: 100-000000894-04' 'AuthenticAMD,25,17,0' 384 384
	jq_all "${SYS[@]}" \
		"[$(feature EVENT_DESC).events[].name]" '["rc4"]' \
		'[.features[].id]' '[2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,20,21,25,26,28]'
}

@test "corpus values: generated_by_linux_perf.data (nrcpus avail 40, online 39)" {
	corpus_features platform_system_extras/generated_by_linux_perf.data
	SYS=()
	sys_pairs 3.13.0-93-generic 4.1.g6c8446 x86_64 'Intel(R) Xeon(R) CPU E5-2680 v2 @ 2.80GHz' 'GenuineIntel,6,62,4' 40 39
	jq_all "${SYS[@]}" "[$(feature EVENT_DESC).events[].name]" '["cycles"]'
}

@test "corpus values: perf.data.piped.powerpc (big-endian ppc64, legacy Google pipe records 69-80)" {
	need_corpus
	local f=$CORPUS/platform2-sommelier/perf.data.piped.powerpc
	pdj -j header "$f"
	assert_status 0
	jq_all \
		'.header | [.magic, .endianness, .mode, .header_size]' '["2ELIFREP","big","pipe",16]' \
		'.header.stream | [.legacy_google_features, .header_feature_records, .complete]' '[true,0,true]' \
		'[.header.feature_records[] | [.id, .record_type]]' \
		'[[3,69],[4,70],[5,71],[6,72],[7,73],[8,74],[9,75],[10,76],[11,77],[12,78],[13,79],[14,80],[2,67],[2,67],[2,67],[2,67]]'
	corpus_features platform2-sommelier/perf.data.piped.powerpc
	SYS=()
	sys_pairs 3.3.8-power7-600.25 3.3.0-4-GOOGLE ppc64 'POWER7 (architected), altivec supported' '63,515' 64 64
	jq_all "${SYS[@]}" \
		"[.features[] | select(.id >= 3) | .source] | unique" '["legacy_google_record"]' \
		"$(feature CMDLINE).argv" '["/usr/bin/perf","record","-o","-","./noploop.ppc","10"]' \
		"$(feature TOTAL_MEM).total_mem_kb" 130388800 \
		"$(feature BUILD_ID) | [.source, .nr]" '["header_build_id_records",4]'
}

@test "corpus values: perf.data.piped.host-3.2 (legacy Google pipe, little-endian)" {
	corpus_features perf_data_converter/perf.data.piped.host-3.2
	SYS=()
	sys_pairs 3.2.5-gg987 3.3.0-4-GOOGLE x86_64 'Intel(R) Xeon(R) CPU E5-2690 0 @ 2.90GHz' 'GenuineIntel,6,45,7' 32 32
	jq_all "${SYS[@]}" \
		"[.features[] | select(.id >= 3 and .id <= 9) | .source] | unique" '["legacy_google_record"]'
}

@test "corpus values: hotspot/perf.data.true.v1 (PERFFILE, attr_size 88)" {
	need_corpus
	pdj -j header "$CORPUS/hotspot/perf.data.true.v1"
	assert_status 0
	jq_all \
		'.header | [.magic, .version, .endianness, .mode, .header_size, .attr_size, .nr_attrs]' \
		'["PERFFILE",1,"little","file",104,88,1]' \
		'.header.endianness_how | test("attr_size 88")' true \
		'.header.attrs | [.offset, .size]' '[112,88]' \
		'.header.data | [.offset, .size]' '[272,9544]' \
		'.header.features' '["BUILD_ID"]'
	corpus_features hotspot/perf.data.true.v1
	# its BUILD_ID section is empty (the table entry says size 0)
	jq_all '[.features[].name]' '["BUILD_ID"]' "$(feature BUILD_ID) | [.offset, .size]" '[9832,0]'
}

@test "corpus values: sleep.compressed.data (aarch64, zstd level 1)" {
	corpus_features linux-perf-data/sleep.compressed.data
	SYS=()
	sys_pairs 6.5.0-1024-aws 6.5.13 aarch64 - 0x00000000410fd080 16 16
	jq_all "${SYS[@]}" \
		"$(feature COMPRESSED) | [.type, .type_name, .level]" '[1,"zstd",1]' \
		"[$(feature EVENT_DESC).events[].name]" '["cycles:P"]'
}

@test "corpus values: sleep.compressed.pipe.data: the same values from HEADER_FEATURE records" {
	corpus_features linux-perf-data/sleep.compressed.pipe.data
	SYS=()
	sys_pairs 6.5.0-1024-aws 6.5.13 aarch64 - 0x00000000410fd080 16 16
	jq_all "${SYS[@]}" \
		"$(feature COMPRESSED) | [.type, .type_name, .level]" '[1,"zstd",1]' \
		"[$(feature EVENT_DESC).events[].name]" '["cycles:P"]' \
		'[.features[].id]' '[3,4,5,6,7,9,10,11,12,13,14,16,21,22,23,25,26,27,29,31]'
}

@test "corpus values: fib-aarch64.perf_data (perf 4.0.2, PMU mappings)" {
	corpus_features llvm-lnt/fib-aarch64.perf_data
	SYS=()
	sys_pairs 4.0.0-1-arm64 4.0.2 aarch64 - - 6 6
	jq_all "${SYS[@]}" \
		"[$(feature EVENT_DESC).events[].name]" '["cycles"]' \
		"$(feature PMU_MAPPINGS) | [.mappings[] | \"\\(.name) = \\(.type)\"] | join(\", \")" \
		'"cpu = 4, software = 1, tracepoint = 2, breakpoint = 5"'
}

@test "corpus values: piped.header_feautres_group_desc-6.8 (GROUP_DESC in a pipe)" {
	corpus_features perf_data_converter/perf.data.piped.header_feautres_group_desc-6.8
	SYS=()
	sys_pairs 6.6.15-2rodete2-amd64 6.8.0-12-GOOGLE x86_64 'Intel(R) Xeon(R) W-2135 CPU @ 3.70GHz' 'GenuineIntel,6,85,4' 12 12
	jq_all "${SYS[@]}" \
		"[$(feature EVENT_DESC).events[].name]" '["cycles:u","instructions:u"]' \
		"$(feature GROUP_DESC) | [.groups[] | [.leader_idx, .nr_members]]" '[[0,2]]' \
		"$(feature GROUP_DESC).source" '"header_feature_record"'
}

@test "corpus values: perf_with_callchain_record.data (simpleperf META_INFO)" {
	corpus_features platform_system_extras/perf_with_callchain_record.data
	jq_all \
		'[.features[].name]' '["BUILD_ID","OSRELEASE","ARCH","CMDLINE","SP_FILE","SP_META_INFO"]' \
		"$(feature ARCH).value" '"aarch64"' \
		"$(feature OSRELEASE).value" '"4.4.88-gb86dd0bc9690"' \
		"$(feature SP_META_INFO) | [.info[] | select(.key == \"simpleperf_version\" or .key == \"android_version\") | \"\\(.key)=\\(.value)\"] | sort" \
		'["android_version=8.1.0","simpleperf_version=1.36eb3ba51745"]'
}

@test "corpus values: cpp-inlining (hybrid events, zstd)" {
	corpus_features perfparser/cpp-inlining__cpp-inlining.perf.data
	SYS=()
	sys_pairs 6.6.10-arch1-1 6.6-1 x86_64 '12th Gen Intel(R) Core(TM) i7-1260P' 'GenuineIntel,6,154,3' 16 16
	jq_all "${SYS[@]}" \
		"$(feature COMPRESSED) | [.type_name, .level]" '["zstd",1]' \
		"[$(feature EVENT_DESC).events[].name]" '["cpu_atom/cycles:Pu/","cpu_core/cycles:Pu/","dummy:HGu"]'
}

@test "corpus values: perf.data.hybrid_topology (HYBRID_TOPOLOGY, PMU_CAPS)" {
	corpus_features perf_data_converter/perf.data.hybrid_topology
	SYS=()
	sys_pairs 5.15.140-21013-ge5249718105d 5.15.68 x86_64 '13th Gen Intel(R) Core(TM) i7-1365U' 'GenuineIntel,6,186,3' 12 12
	jq_all "${SYS[@]}" \
		"[$(feature EVENT_DESC).events[].name]" '["cpu_core/cycles:ppp/","cpu_atom/cycles:ppp/","dummy:HG"]' \
		"[$(feature HYBRID_TOPOLOGY).nodes[].pmu_name] | sort" '["cpu_atom","cpu_core"]'
}
