#!/bin/sh
# Debian packages the tests use beside Python's (a browser, a broker): the names in
# scripts/system-packages.txt, one a line. Installs the missing ones with apt-get when run as
# root (as CI is); otherwise says which are missing, and the tests that need them are skipped
# with that reason.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
missing=""
for name in $(grep -v '^#' "$here/system-packages.txt" | tr -s ' \n' ' '); do
    if ! dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $name"
    fi
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "system packages missing:$missing (install them with apt-get; their tests are skipped)" >&2
    exit 0
fi
echo "== apt-get install$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
