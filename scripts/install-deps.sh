#!/bin/sh
# Install what perfdump needs from Debian packages, only what is missing.
#   scripts/install-deps.sh build   compiler, make, pkg-config, libelf, libdw, libzstd,
#                                   liblzma, zlib, libstdc++'s archive (its demangler),
#                                   protobuf-c and its compiler (export --to pprof)
#   scripts/install-deps.sh test    build + bats, jq, python3, strace, the zstd,
#                                   xz and gzip tools, script, libtraceevent
#                                   (the tests' tracepoint oracle), go (go tool
#                                   pprof reads export --to pprof's output)
# Runs apt-get as root, or through sudo when not root.
set -eu

want=${1:-build}
pkgs="gcc make pkg-config libelf-dev libdw-dev libzstd-dev liblzma-dev zlib1g-dev libstdc++-12-dev libprotobuf-c-dev protobuf-c-compiler"
case $want in
build) ;;
test) pkgs="$pkgs libtraceevent-dev bats jq python3 clang clang-format libclang-rt-dev man-db bsdextrautils strace zstd xz-utils gzip bsdutils golang-go" ;;
*) echo "usage: $0 build|test" >&2; exit 2 ;;
esac

missing=""
for p in $pkgs; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -eq 0 ]; then
	run=""
elif command -v sudo >/dev/null 2>&1; then
	run="sudo"
else
	echo "perfdump: missing Debian packages:$missing" >&2
	echo "install them as root: apt-get install$missing" >&2
	exit 1
fi
echo "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$run apt-get update -qq
# shellcheck disable=SC2086
$run apt-get install -y -qq --no-install-recommends $missing
