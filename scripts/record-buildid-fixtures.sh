#!/usr/bin/env bash
# Record the build-id fixtures of `perfdump buildids` (issue 5) and perf's own
# view of them, without touching the other fixtures (scripts/record-fixtures.sh
# re-records everything).
#
# Run as root from the project root:   scripts/record-buildid-fixtures.sh
#
#   testdata/buildid.data       --buildid-all: the HEADER_BUILD_ID feature lists
#                               every DSO mapped, sampled or not ([vdso] too)
#   testdata/buildid-mmap.data  --buildid-mmap: build-ids in MMAP2 records
#                               (misc MMAP_BUILD_ID), no BUILD_ID feature
#
# perf-ref/NAME.buildids.txt     perf buildid-list -i FILE
# perf-ref/NAME.buildids-H.txt   perf buildid-list -H -i FILE (DSOs with hits)
# perf-ref/NAME.dso-samples.txt  perf report --stdio --sort dso -F sample,dso -q
#                                (samples per DSO, what --hits counts)
#
# The workload is /usr/bin/dd from Debian's coreutils, so every entry but
# [vdso] and [kernel.kallsyms] resolves to a file of a Debian package.
set -euo pipefail
export LC_ALL=C

cd "$(dirname "$0")/.."
if [ "$(id -u)" != 0 ]; then
    echo "record-buildid-fixtures.sh: must run as root" >&2
    exit 1
fi

TD=testdata
REF=$TD/perf-ref
MAX=262144
WORKLOAD="/usr/bin/dd if=/dev/zero of=/dev/null bs=1k count=100000"

record() {
    local name=$1
    shift
    rm -f "$TD/$name" "$TD/$name.old"
    # shellcheck disable=SC2086
    perf record -e cpu-clock "$@" -o "$TD/$name" -- $WORKLOAD 2>"$REF/$name.record.log"
    chmod a+r "$TD/$name"
    perf buildid-list -i "$TD/$name" >"$REF/$name.buildids.txt"
    perf buildid-list -H -i "$TD/$name" >"$REF/$name.buildids-H.txt"
    perf report -i "$TD/$name" --stdio --sort dso -F sample,dso -q 2>/dev/null |
        sed '/^$/d' >"$REF/$name.dso-samples.txt"
    chmod a+r "$REF/$name".*
    local size
    size=$(stat -c %s "$TD/$name")
    printf '%-20s %7s bytes\n' "$name" "$size"
    if [ "$size" -gt "$MAX" ]; then
        echo "$name is over the $MAX byte budget" >&2
        exit 1
    fi
}

record buildid.data --buildid-all
record buildid-mmap.data --buildid-mmap

# perf's hits for two fixtures of record-fixtures.sh (references only: the
# fixtures themselves are not re-recorded here).
for name in threads.data pipe.data; do
    perf buildid-list -H -i "$TD/$name" >"$REF/$name.buildids-H.txt"
    perf report -i "$TD/$name" --stdio --sort dso -F sample,dso -q 2>/dev/null |
        sed '/^$/d' >"$REF/$name.dso-samples.txt"
    chmod a+r "$REF/$name".*
done
