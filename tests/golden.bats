#!/usr/bin/env bats
# Golden outputs: the current text and JSON output of `header`, `features`,
# `attrs`, `stats` (pretty JSON) and `records` (JSON lines) for every fixture equals
# tests/golden/ (written by
# scripts/update-golden.sh; regenerate and review the diff when an output
# change is intended).

load helpers

G=tests/golden
GOLDEN_CMDS="header features attrs records stats"

# the JSON golden's extension: records are JSON lines
json_ext() {
	[ "$1" = records ] && echo jsonl || echo json
}

# as_file TEXT: TEXT as a file holds it, with its last newline (and an
# empty output as an empty file: an input that is not a recording)
as_file() {
	[ -z "$1" ] || printf '%s\n' "$1"
}

# same_as GOLDEN TEXT: the file GOLDEN holds as_file TEXT (compared in the
# shell: no process unless they differ, then diff -u shows how)
same_as() {
	local g= want=${2:+$2$'\n'}
	IFS= read -r -d '' g <"$1" || true
	[ "$g" = "$want" ] || diff -u "$1" <(as_file "$2")
}

# golden_check NAME: NAME is a path below testdata/.  A sweep for a file
# (the same ten commands on every fixture): make mutate runs each fixture
# file whole through them under the sanitizers.  A directory recording
# (threads.data, comm-order.data) is not a file it can run, so the
# sanitizer build checks those too.
golden_check() {
	local name=$1 f=testdata/$1 cmd rc=0
	[ -d "$f" ] || sweep
	for cmd in $GOLDEN_CMDS; do
		[ -f "$G/$name.$cmd.txt" ] || {
			echo "no golden $G/$name.$cmd.txt: run scripts/update-golden.sh"
			return 1
		}
		pd $cmd "$f"
		assert_no_signal
		same_as "$G/$name.$cmd.txt" "$output" || rc=1
		if [ -f "$G/$name.$cmd.err" ]; then
			same_as "$G/$name.$cmd.err" "$stderr" || rc=1
		else
			assert_empty "$stderr" "stderr of '$cmd $f'" || rc=1
		fi
		if [ $cmd = records ]; then
			pd records --json-lines "$f"
		else
			pd -p $cmd "$f"
		fi
		assert_no_signal
		same_as "$G/$name.$cmd.$(json_ext $cmd)" "$output" || rc=1
	done
	return $rc
}

@test "golden: every fixture has golden files, and every golden file a fixture" {
	local want have e
	# (json_ext inline: a subshell a name cost seconds)
	want=$(cd testdata && for f in *.data synthetic/*.data; do
		for c in $GOLDEN_CMDS; do
			e=json
			[ "$c" != records ] || e=jsonl
			printf '%s.%s.txt\n%s.%s.%s\n' "$f" $c "$f" $c "$e"
		done
	done | LC_ALL=C sort)
	have=$(cd $G && find . -type f ! -name '*.err' | sed 's|^\./||' | LC_ALL=C sort)
	assert_eq "$have" "$want" "golden files"
}

@test "golden allbits.data" {
	golden_check allbits.data
}

@test "golden buildid-mmap.data" {
	golden_check buildid-mmap.data
}

@test "golden buildid.data" {
	golden_check buildid.data
}

@test "golden callgraph.data" {
	golden_check callgraph.data
}

@test "golden cpu-clock.data" {
	golden_check cpu-clock.data
}

@test "golden group.data" {
	golden_check group.data
}

@test "golden killed.data" {
	golden_check killed.data
}

@test "golden notime.data" {
	golden_check notime.data
}

@test "golden mono.data" {
	golden_check mono.data
}

@test "golden pipe.data" {
	golden_check pipe.data
}

@test "golden redact.data" {
	golden_check redact.data
}

@test "golden redact-pipe.data" {
	golden_check redact-pipe.data
}

@test "golden stat.data" {
	golden_check stat.data
}

@test "golden group-s.data" {
	golden_check group-s.data
}

@test "golden group-s-pipe.data" {
	golden_check group-s-pipe.data
}

@test "golden stat-a.data" {
	golden_check stat-a.data
}

@test "golden stat-i.data" {
	golden_check stat-i.data
}

@test "golden syswide.data" {
	golden_check syswide.data
}

# bats test_tags=asan
@test "golden comm-order.data" {
	golden_check comm-order.data
}

@test "golden synthetic/attr-big.data" {
	golden_check synthetic/attr-big.data
}

@test "golden synthetic/attrs-after-data.data" {
	golden_check synthetic/attrs-after-data.data
}

@test "golden synthetic/full-be.data" {
	golden_check synthetic/full-be.data
}

@test "golden synthetic/full-be32.data" {
	golden_check synthetic/full-be32.data
}

@test "golden synthetic/full-le.data" {
	golden_check synthetic/full-le.data
}

@test "golden synthetic/hdr72.data" {
	golden_check synthetic/hdr72.data
}

@test "golden synthetic/pipe-be.data" {
	golden_check synthetic/pipe-be.data
}

@test "golden synthetic/pipe-le.data" {
	golden_check synthetic/pipe-le.data
}

@test "golden synthetic/trunc-attrs.data" {
	golden_check synthetic/trunc-attrs.data
}

@test "golden synthetic/trunc-data.data" {
	golden_check synthetic/trunc-data.data
}

@test "golden synthetic/trunc-feattable.data" {
	golden_check synthetic/trunc-feattable.data
}

@test "golden synthetic/trunc-feature.data" {
	golden_check synthetic/trunc-feature.data
}

@test "golden synthetic/trunc-header.data" {
	golden_check synthetic/trunc-header.data
}

@test "golden synthetic/unknown-features.data" {
	golden_check synthetic/unknown-features.data
}

@test "golden synthetic/v1.data" {
	golden_check synthetic/v1.data
}

@test "golden synthetic/zero-magic.data" {
	golden_check synthetic/zero-magic.data
}

# bats test_tags=asan
@test "golden threads.data" {
	golden_check threads.data
}

@test "golden tracepoint.data" {
	golden_check tracepoint.data
}

@test "golden tp-*.data (tracepoint fixtures)" {
	local f rc=0
	for f in tp-irq.data tp-openat.data tp-pipe.data tp-sched.data tp-uprobe.data; do
		golden_check "$f" || rc=1
	done
	return $rc
}

@test "golden synthetic/tp-*.data (tracepoint twins, damaged tracepoints)" {
	local f rc=0
	for f in tp-bad.data tp-be.data tp-le.data tp-le32.data; do
		golden_check "synthetic/$f" || rc=1
	done
	return $rc
}

@test "golden zstd.data" {
	golden_check zstd.data
}

@test "golden killed-u.data, stat-msr.data, synthetic/nodesc-*.data (events named from their attr)" {
	local f rc=0
	for f in killed-u.data stat-msr.data synthetic/nodesc-bp.data synthetic/nodesc-group.data \
		synthetic/nodesc-nopmu-stat-msr.data synthetic/nodesc-stat-msr.data \
		synthetic/nodesc-tracepoint.data; do
		golden_check "$f" || rc=1
	done
	return $rc
}

@test "golden synthetic/check-*.data (the files made for perfdump check)" {
	sweep
	local f rc=0
	for f in testdata/synthetic/check-*.data; do
		golden_check "${f#testdata/}" || rc=1
	done
	return $rc
}

@test "golden synthetic/code-*.data (the files made for the check codes)" {
	sweep
	local f rc=0
	for f in testdata/synthetic/code-*.data; do
		golden_check "${f#testdata/}" || rc=1
	done
	return $rc
}

# No JSON object has the same key twice (jq keeps the last one, hiding the
# other): every golden, and the -x output of the commands that dump
# structures, on every fixture.  A sample's RAW payload is raw_data, the
# record's -x dump raw: once they were both raw.
@test "golden: no JSON object has a key twice, -x included" {
	local f cmd d=$BATS_TEST_TMPDIR/x n=0
	mkdir -p "$d"
	for f in testdata/*.data testdata/synthetic/*.data; do
		for cmd in header features attrs records; do
			n=$((n + 1))
			"$PERFDUMP" -j -x "$cmd" "$f" >"$d/$n.$cmd.json" 2>/dev/null || true
		done
	done
	run python3 -c '
import json, sys
def pairs(kv):
    keys = [k for k, _ in kv]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise ValueError("duplicate key %s" % dup)
    return dict(kv)
bad = 0
for path in sys.argv[1:]:
    with open(path) as f:
        text = f.read()
    docs = text.splitlines() if path.endswith("l") else [text]
    for doc in docs:
        try:
            if doc.strip():
                json.loads(doc, object_pairs_hook=pairs)
        except ValueError as e:
            print(path, e)
            bad += 1
            break
sys.exit(1 if bad else 0)' $G/*.json $G/*.jsonl "$d"/*.json
	assert_status 0
	[ "$(ls "$d" | wc -l)" -ge 160 ]
}
