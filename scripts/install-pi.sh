#!/bin/sh
# Installs reedboard on Raspberry Pi OS in one step, from the checkout this script sits in, and
# is safe to run again: the service user and its groups, a venv with reedboard[pi], the config,
# SPI on, the udev rule and the systemd unit the project ships (deploy/), the Pico's firmware if
# a Pico is attached, and the service enabled and started. One line a step; a step that fails
# ends it with one line naming the step.
#
#   sudo sh scripts/install-pi.sh [--build NAME] [--extras LIST] [--dry-run] [--root DIR]
#
# --build NAME       the build to write into a new /etc/reedboard/reedboard.toml and to put on a
#                    Pico (default: the config's build)
# --extras LIST      the extras to install (default: pi; e.g. pi,solver,web)
# --dry-run          print each action, change nothing
# --root DIR         put every system path under DIR (to try it off a Pi); the commands still
#                    run, with --prefix DIR (useradd, usermod, groupadd) or --root=DIR (systemctl
#                    enable), so put stubs of them on the PATH; the service is not started
# --venv-python PY   the Python that makes the venv (default: python3)
set -eu

SRC=$(cd "$(dirname "$0")/.." && pwd)
ROOT=""
DRY=0
BUILD=""
EXTRAS=pi
VENV_PYTHON=python3
SERVICE_USER=reedboard
WANTED_GROUPS="gpio spi dialout"
STEP=options
DIED=0

say() { echo "install-pi: $STEP: $*"; }

die() {
    echo "install-pi: failed at step $STEP: $*" >&2
    DIED=1
    exit 1
}

on_exit() {
    rc=$?
    if [ "$rc" -ne 0 ] && [ "$DIED" -eq 0 ]; then
        echo "install-pi: failed at step $STEP (exit $rc)" >&2
    fi
}
trap on_exit EXIT

# run CMD...: runs it, or in a dry run prints it
run() {
    if [ "$DRY" -eq 1 ]; then
        say "would run: $*"
    else
        "$@"
    fi
}

# shadow useradd|usermod|groupadd ARGS...: with --prefix ROOT under --root
shadow() {
    tool=$1
    shift
    if [ -n "$ROOT" ]; then
        run "$tool" --prefix "$ROOT" "$@"
    else
        run "$tool" "$@"
    fi
}

has_group() {
    if [ -n "$ROOT" ]; then
        grep -q "^$1:" "$ROOT/etc/group" 2>/dev/null
    else
        getent group "$1" >/dev/null
    fi
}

has_user() {
    if [ -n "$ROOT" ]; then
        grep -q "^$1:" "$ROOT/etc/passwd" 2>/dev/null
    else
        getent passwd "$1" >/dev/null
    fi
}

# put_file SOURCE DEST: installs SOURCE at DEST (mode 644) unless DEST already holds it
put_file() {
    if [ -f "$2" ] && cmp -s "$1" "$2"; then
        return 1
    fi
    run install -D -m 644 "$1" "$2"
}

need() {
    [ $# -ge 2 ] || die "$1 needs a value"
}

while [ $# -gt 0 ]; do
    case $1 in
        --root) need "$@"; ROOT=$2; shift 2 ;;
        --root=*) ROOT=${1#*=}; shift ;;
        --build) need "$@"; BUILD=$2; shift 2 ;;
        --build=*) BUILD=${1#*=}; shift ;;
        --extras) need "$@"; EXTRAS=$2; shift 2 ;;
        --extras=*) EXTRAS=${1#*=}; shift ;;
        --venv-python) need "$@"; VENV_PYTHON=$2; shift 2 ;;
        --venv-python=*) VENV_PYTHON=${1#*=}; shift ;;
        --dry-run) DRY=1; shift ;;
        -h | --help) sed -n '2,17s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) die "unknown option $1 (--help lists them)" ;;
    esac
done
case $BUILD in
    *'"'* | *'|'* | *'&'* | *\\*) die "--build $BUILD: a build name or file without quotes, |, & or \\" ;;
esac
case $EXTRAS in
    '' | *[!a-z0-9,_-]*) die "--extras $EXTRAS: extras' names, separated by commas" ;;
esac
if [ -n "$ROOT" ]; then
    [ -d "$ROOT" ] || die "--root $ROOT: no such directory"
    ROOT=$(cd "$ROOT" && pwd)
    [ "$ROOT" != / ] || ROOT=""
fi

STEP=preflight
UNIT_SRC=$SRC/deploy/reedboard.service
RULE_SRC=$SRC/deploy/99-reedboard-pico.rules
CONFIG_SRC=$SRC/deploy/reedboard.toml
for f in "$UNIT_SRC" "$RULE_SRC" "$CONFIG_SRC" "$SRC/pyproject.toml"; do
    [ -f "$f" ] || die "$f is missing: run the script from a reedboard checkout"
done
# where the shipped unit runs reedboard from, and the config it reads
EXEC=$(sed -n 's/^ExecStart=\([^ ]*\).*/\1/p' "$UNIT_SRC" | head -n 1)
CONFIG_PATH=$(sed -n 's/^ExecStart=.* --config \([^ ]*\).*/\1/p' "$UNIT_SRC" | head -n 1)
case $EXEC in
    /*/bin/reedboard) VENV_PATH=${EXEC%/bin/reedboard} ;;
    *) die "$UNIT_SRC: ExecStart does not run .../bin/reedboard" ;;
esac
[ -n "$CONFIG_PATH" ] || die "$UNIT_SRC: ExecStart has no --config FILE"
VENV=$ROOT$VENV_PATH
CONFIG=$ROOT$CONFIG_PATH
UNIT=$ROOT/etc/systemd/system/reedboard.service
RULE=$ROOT/etc/udev/rules.d/99-reedboard-pico.rules
if [ -z "$ROOT" ] && [ "$DRY" -eq 0 ] && [ "$(id -u)" -ne 0 ]; then
    die "run it as root (sudo sh scripts/install-pi.sh), or with --dry-run or --root DIR"
fi
if [ "$DRY" -eq 1 ]; then
    say "dry run: nothing is changed"
else
    say "installing from $SRC${ROOT:+ under $ROOT}"
fi

STEP=groups
added=""
for g in $WANTED_GROUPS; do
    if ! has_group "$g"; then
        shadow groupadd --system "$g"
        added="$added $g"
    fi
done
if [ -n "$added" ]; then
    [ "$DRY" -eq 1 ] || say "added${added}"
else
    say "$WANTED_GROUPS there"
fi

STEP=user
joined=$(echo "$WANTED_GROUPS" | tr ' ' ',')
if has_user "$SERVICE_USER"; then
    made="there"
else
    if has_group "$SERVICE_USER"; then
        own="--gid $SERVICE_USER"
    else
        own="--user-group"
    fi
    # $own is two words or one: unquoted on purpose
    # shellcheck disable=SC2086
    shadow useradd --system $own --home-dir /var/lib/reedboard --no-create-home \
        --shell /usr/sbin/nologin "$SERVICE_USER"
    made="made"
fi
shadow usermod --append --groups "$joined" "$SERVICE_USER"
[ "$DRY" -eq 1 ] || say "$SERVICE_USER $made, in $joined"
# its home, where the game store lives (the unit's StateDirectory makes it too, but only once
# the service starts: `reedboard doctor` before that would find the store unwritable)
if [ ! -d "$ROOT/var/lib/reedboard" ]; then
    if [ -n "$ROOT" ]; then
        run mkdir -p "$ROOT/var/lib/reedboard"
    else
        run install -d -o "$SERVICE_USER" -g "$SERVICE_USER" -m 755 /var/lib/reedboard
    fi
fi

STEP=packages
# what pip needs where a package has no wheel for this machine (spidev is built from source
# off piwheels): the venv module, Python's headers, a C compiler
if [ -n "$ROOT" ]; then
    say "skipped under --root (the system's packages are the machine's own)"
elif ! command -v apt-get >/dev/null 2>&1; then
    say "no apt-get: make sure python3-venv, python3-dev and gcc are installed"
else
    MISSING=""
    for package in python3-venv python3-dev gcc; do
        dpkg -s "$package" >/dev/null 2>&1 || MISSING="$MISSING $package"
    done
    if [ -z "$MISSING" ]; then
        say "python3-venv python3-dev gcc there"
    else
        export DEBIAN_FRONTEND=noninteractive
        # shellcheck disable=SC2086 # (one word a package)
        run apt-get install -y --no-install-recommends $MISSING ||
            die "apt-get could not install$MISSING (apt-get update first?)"
        [ "$DRY" -eq 1 ] || say "installed$MISSING"
    fi
fi

STEP=venv
if [ -x "$VENV/bin/python" ]; then
    say "$VENV there"
else
    if ! "$VENV_PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        die "reedboard needs Python 3.11 or newer ($VENV_PYTHON: $("$VENV_PYTHON" --version 2>&1 || echo none))"
    fi
    run mkdir -p "$(dirname "$VENV")"
    if ! run "$VENV_PYTHON" -m venv "$VENV"; then
        die "could not make a venv at $VENV: apt install python3-venv first"
    fi
    [ "$DRY" -eq 1 ] || say "$VENV made"
fi

STEP=pip
# pip builds in the folder it installs from (build/, src/*.egg-info): from a copy, so the clone
# stays its owner's (as root, the clone's own `sh scripts/run.sh` could no longer write there)
if [ "$DRY" -eq 1 ]; then
    say "would run: $VENV/bin/python -m pip install --quiet --upgrade $SRC[$EXTRAS] (from a copy)"
else
    COPY=$(mktemp -d)
    tar -C "$SRC" --exclude='*.egg-info' --exclude=__pycache__ -cf - pyproject.toml README.md src |
        tar -C "$COPY" -xf -
    "$VENV/bin/python" -m pip install --quiet --upgrade "$COPY[$EXTRAS]" || {
        rm -rf "$COPY"
        die "pip could not install reedboard[$EXTRAS]"
    }
    rm -rf "$COPY"
    say "reedboard[$EXTRAS] installed into $VENV"
fi

STEP=config
if [ -n "$BUILD" ] && [ -x "$VENV/bin/reedboard" ]; then
    if ! why=$("$VENV/bin/reedboard" wiring table "$BUILD" 2>&1 >/dev/null); then
        die "--build $BUILD: $(echo "$why" | tail -n 1)"
    fi
fi
if [ -f "$CONFIG" ]; then
    IN_USE=$(sed -n 's/^build *= *"\([^"]*\)".*/\1/p' "$CONFIG" | head -n 1)
    if [ -z "$BUILD" ] || [ "$BUILD" = "$IN_USE" ]; then
        say "$CONFIG kept"
    elif [ "$DRY" -eq 1 ]; then
        say "would set build = \"$BUILD\" in $CONFIG (it is ${IN_USE:-not set} there)"
        IN_USE=$BUILD
    else
        if [ -n "$IN_USE" ]; then  # only the first build line: the others are in tables
            sed "0,/^build *= *\"[^\"]*\"/s||build = \"$BUILD\"|" "$CONFIG" >"$CONFIG.new"
        else  # a top-level key: before any table
            { echo "build = \"$BUILD\""; cat "$CONFIG"; } >"$CONFIG.new"
        fi
        chmod 644 "$CONFIG.new"
        mv "$CONFIG.new" "$CONFIG"
        say "$CONFIG kept, its build set to $BUILD (it was ${IN_USE:-not set})"
        IN_USE=$BUILD
    fi
else
    IN_USE=${BUILD:-$(sed -n 's/^build *= *"\([^"]*\)".*/\1/p' "$CONFIG_SRC" | head -n 1)}
    if [ "$DRY" -eq 1 ]; then
        say "would write $CONFIG from deploy/reedboard.toml, build = \"$IN_USE\""
    else
        mkdir -p "$(dirname "$CONFIG")"
        sed "s|^build = \"[^\"]*\"|build = \"$IN_USE\"|" "$CONFIG_SRC" >"$CONFIG.new"
        chmod 644 "$CONFIG.new"
        mv "$CONFIG.new" "$CONFIG"
        say "$CONFIG written (build = \"$IN_USE\"; edit the game and the rest there)"
    fi
fi

# the config's game must be one the build's board plays (a new build's layout may serve other
# games than the shipped config's): else the first the layout names, said
STEP=game
BUILD_FILE=$SRC/src/reedboard/wiring/builds/$IN_USE.toml
if [ -n "$IN_USE" ] && [ -f "$BUILD_FILE" ] && [ -f "$CONFIG" ]; then  # (a shipped build)
    LAYOUT=$(sed -n 's/^layout *= *"\([^"]*\)".*/\1/p' "$BUILD_FILE" | head -n 1)
    LAYOUT_FILE=$SRC/src/reedboard/wiring/layouts/$LAYOUT.toml
    GAMES=$(sed -n 's/^games *= *\[\(.*\)\].*/\1/p' "$LAYOUT_FILE" 2>/dev/null | tr -d '",')
    GAME=$(sed -n 's/^game *= *"\([^"]*\)".*/\1/p' "$CONFIG" | head -n 1)
    case " $GAMES " in
        "  ") ;;
        *" $GAME "*) say "$GAME plays on $IN_USE" ;;
        *)
            FIRST=${GAMES%% *}
            if [ "$DRY" -eq 1 ]; then
                say "would set game = \"$FIRST\" in $CONFIG ($IN_USE does not play ${GAME:-none})"
            else
                if [ -n "$GAME" ]; then
                    sed "0,/^game *= *\"[^\"]*\"/s||game = \"$FIRST\"|" "$CONFIG" >"$CONFIG.new"
                else
                    { echo "game = \"$FIRST\""; cat "$CONFIG"; } >"$CONFIG.new"
                fi
                chmod 644 "$CONFIG.new"
                mv "$CONFIG.new" "$CONFIG"
                say "game set to $FIRST: $IN_USE plays $GAMES, not ${GAME:-none}"
            fi
            ;;
    esac
fi

STEP=spi
SPI_NEW=0
if [ -f "$ROOT/boot/firmware/config.txt" ]; then
    BOOT=$ROOT/boot/firmware/config.txt
elif [ -f "$ROOT/boot/config.txt" ]; then
    BOOT=$ROOT/boot/config.txt
else
    BOOT=""
fi
if [ -z "$BOOT" ]; then
    say "no config.txt in /boot/firmware or /boot (not Raspberry Pi OS?): SPI left alone"
elif grep -Eq '^[[:space:]]*dtparam=([^#]*,)?spi(=on)?[[:space:]]*(,|#|$)' "$BOOT"; then
    say "already on in $BOOT"
elif [ "$DRY" -eq 1 ]; then
    say "would add dtparam=spi=on to $BOOT"
else
    printf '\n# reedboard: SPI for the LED chain (scripts/install-pi.sh)\n[all]\ndtparam=spi=on\n' >>"$BOOT"
    SPI_NEW=1
    say "dtparam=spi=on added to $BOOT (a reboot turns it on)"
fi

STEP=udev
if put_file "$RULE_SRC" "$RULE"; then
    [ "$DRY" -eq 1 ] || say "$RULE installed"
else
    say "$RULE there"
fi
if run udevadm control --reload 2>/dev/null; then
    run udevadm trigger --subsystem-match=tty --action=add
    run udevadm settle --timeout=10
else
    say "udev is not running here (a chroot or a container?): the rule applies once it runs"
fi

STEP=systemd
if put_file "$UNIT_SRC" "$UNIT"; then
    state="installed"
else
    state="there"
fi
# (systemd not running: a chroot or a container; the unit is enabled for when it does)
BOOTED=0
[ -n "$ROOT" ] || [ ! -d /run/systemd/system ] || BOOTED=1
if [ -n "$ROOT" ]; then
    run systemctl --root="$ROOT" enable reedboard.service
elif [ "$BOOTED" -eq 0 ]; then
    run systemctl enable reedboard.service
else
    run systemctl daemon-reload
    run systemctl enable reedboard.service
fi
[ "$DRY" -eq 1 ] || say "$UNIT $state, enabled"

STEP=pico
PORT=""
if [ -e "$ROOT/dev/reedboard-pico" ]; then
    PORT=$ROOT/dev/reedboard-pico
else
    found=""
    count=0
    for p in "$ROOT"/dev/ttyACM*; do
        [ -e "$p" ] || continue
        found="$found $p"
        count=$((count + 1))
    done
    if [ "$count" -eq 1 ]; then
        PORT=${found# }
    elif [ "$count" -gt 1 ]; then
        say "several serial ports (${found# }), none named /dev/reedboard-pico: firmware not installed (reedboard firmware install BUILD --port PORT)"
    fi
fi
if [ -z "$PORT" ]; then
    [ "${count:-0}" -gt 1 ] || say "no Pico attached (/dev/reedboard-pico, /dev/ttyACM*): firmware not installed"
elif [ -z "$IN_USE" ]; then
    say "a Pico is on $PORT but $CONFIG names no build: firmware not installed (--build NAME)"
elif [ "$DRY" -eq 1 ] && [ ! -x "$VENV/bin/reedboard" ]; then
    say "would run: $VENV/bin/reedboard firmware install $IN_USE --port $PORT (if $IN_USE is a Pico build)"
elif ! why=$("$VENV/bin/reedboard" firmware install "$IN_USE" --port "$PORT" --dry-run 2>&1 >/dev/null); then
    say "a Pico is on $PORT, but: $(echo "$why" | tail -n 1); firmware not installed (set build in $CONFIG, or --build)"
else
    [ "$BOOTED" -eq 0 ] || run systemctl stop reedboard.service # it would talk on the port too
    # mpremote is found on the PATH: the venv's
    run env PATH="$VENV/bin:$PATH" "$VENV/bin/reedboard" firmware install "$IN_USE" --port "$PORT"
    [ "$DRY" -eq 1 ] || say "firmware for $IN_USE installed on $PORT"
fi

STEP=start
if [ -n "$ROOT" ]; then
    say "not started (--root): start it on the Pi itself"
elif [ "$BOOTED" -eq 0 ]; then
    say "not started: systemd is not running here (a chroot or a container?); it starts at boot"
elif [ "$SPI_NEW" -eq 1 ]; then
    say "reboot now (sudo reboot): SPI was just turned on; reedboard starts at boot"
else
    run systemctl restart reedboard.service
    [ "$DRY" -eq 1 ] || say "reedboard started: journalctl -u reedboard -f"
fi

STEP=done
say "reedboard doctor --config $CONFIG_PATH says what is left to fix"
