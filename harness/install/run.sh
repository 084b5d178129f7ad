#!/bin/sh
# perfabi, installed by `make install`: run the suite with the runner, cases
# and fixtures installed next to this script, from any working directory.
#
#   DIR/run.sh [runner options] [PATTERN...]     (DIR/run.sh --help lists them)
#
# Results go to ./results of the caller's working directory, as with the
# source tree's ./run.sh (--results DIR elsewhere, --no-results for none).
# No compiler and no source tree are needed: everything is static.
self=$(readlink -f -- "$0" 2>/dev/null) || self=$0
case $self in
*/*)	;;
*)	self=$(command -v -- "$self") || { echo "run.sh: cannot find where $0 is" >&2; exit 2; } ;;
esac
here=$(cd -- "${self%/*}" && pwd -P) || exit 2
if [ ! -x "$here/perfabi/perfabi-run" ]; then
	echo "run.sh: no runner at $here/perfabi/perfabi-run (an incomplete install?)" >&2
	exit 2
fi
exec "$here/perfabi/perfabi-run" "$@"
