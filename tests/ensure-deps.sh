#!/usr/bin/env bash
# Make sure what `make check` needs is installed: cmocka for the unit tests.
# As root the project installs it (Debian's libcmocka-dev); otherwise it
# prints the exact command and fails.
set -u
missing=()
[ -f /usr/include/cmocka.h ] || missing+=(libcmocka-dev)
for tool in "$@"; do
	case "$tool" in
	lcov) command -v lcov >/dev/null || missing+=(lcov) ;;
	prove) command -v prove >/dev/null || missing+=(perl) ;;
	esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "perfabi: missing ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "perfabi: installing ${missing[*]} (apt-get)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 ||
	{ apt-get update -q >/dev/null 2>&1 && apt-get install -y -q "${missing[@]}" >/dev/null; } || {
	echo "perfabi: could not install ${missing[*]}; run: apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
}
