#!/usr/bin/env bash
# Re-create the fixture of export --to chrome (tests/export-chrome.bats)
# that no other fixture covers: testdata/notime.data, samples recorded
# without their time (perf record --no-timestamp: sample_type IP|TID),
# which a timeline cannot place.  The tracepoint recording with
# sched_switch the tests use is testdata/tracepoint.data (record-fixtures.sh)
# and tp-sched.data (record-tp-fixtures.sh).
#
# Run as root from the project root:   scripts/record-chrome-fixtures.sh
set -euo pipefail
export LC_ALL=C
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "record-chrome-fixtures.sh: must run as root" >&2; exit 1; }

out=testdata/notime.data
rm -f "$out"
perf record -q --no-timestamp -e cpu-clock -c 100000 -o "$out" -- \
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done'
chmod 644 "$out"
size=$(stat -c %s "$out")
[ "$size" -le 262144 ] || { echo "$out: $size bytes, more than 256 KiB" >&2; exit 1; }
echo "$out: $size bytes"
