#!/bin/sh
# Tries scripts/install-pi.sh as far as it can go off a Pi: in a fresh Debian bookworm chroot
# (debootstrap), from a clone of this checkout, twice (the second run must change nothing),
# then `reedboard doctor` as the service user. Run as root on a Debian machine; it downloads
# a minimal Debian (about 150 MB) and the Python packages, so it takes a few minutes.
#
#   sudo sh scripts/try-install-chroot.sh [DIR]      (default DIR: /tmp/reedboard-chroot)
#
# What a chroot cannot show: udev and systemd are not running there (the installer says so and
# enables the unit for boot), there is no SPI or Pico (a config.txt is made so the SPI step
# runs). The machine's own CA certificates and pip config are copied in, so the chroot reaches
# the same package registries the machine does.
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
DIR=${1:-/tmp/reedboard-chroot}
say() { echo "try-install: $*"; }

[ "$(id -u)" -eq 0 ] || { echo "try-install: run it as root (debootstrap and chroot)" >&2; exit 1; }
command -v debootstrap >/dev/null 2>&1 || apt-get install -y debootstrap >/dev/null
if [ ! -x "$DIR/usr/bin/python3" ]; then
    say "debootstrap bookworm into $DIR"
    debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates,systemd,udev,git \
        bookworm "$DIR" http://deb.debian.org/debian >"$DIR.debootstrap.log" 2>&1 ||
        { echo "try-install: debootstrap failed: $DIR.debootstrap.log" >&2; exit 1; }
fi
cp /usr/local/share/ca-certificates/*.crt "$DIR/usr/local/share/ca-certificates/" 2>/dev/null || true
chroot "$DIR" update-ca-certificates >/dev/null 2>&1 || true
[ ! -f /etc/pip.conf ] || cp /etc/pip.conf "$DIR/etc/pip.conf"
mountpoint -q "$DIR/proc" || mount -t proc proc "$DIR/proc"
trap 'umount "$DIR/proc" 2>/dev/null || true' EXIT
mkdir -p "$DIR/boot/firmware"
[ -f "$DIR/boot/firmware/config.txt" ] || printf '[all]\narm_64bit=1\n' >"$DIR/boot/firmware/config.txt"
rm -rf "$DIR/home/pi/reedboard"
mkdir -p "$DIR/home/pi"
git clone -q "$SRC" "$DIR/home/pi/reedboard"
chroot "$DIR" apt-get update -qq
for run in 1 2; do
    say "install-pi.sh, run $run"
    rc=0
    chroot "$DIR" sh -c 'cd /home/pi/reedboard && sh scripts/install-pi.sh --build pi-cross33' \
        >"$DIR.install-$run.log" 2>&1 || rc=$?
    grep '^install-pi:' "$DIR.install-$run.log" || true
    [ "$rc" -eq 0 ] || { echo "try-install: run $run failed: $DIR.install-$run.log" >&2; exit 1; }
done
say "reedboard doctor as the service user"
chroot "$DIR" su -s /bin/sh reedboard -c \
    '/opt/reedboard/.venv/bin/reedboard doctor --config /etc/reedboard/reedboard.toml'
