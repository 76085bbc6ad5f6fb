#!/usr/bin/env bash
# test-int-udisks.sh: a user without rights benchmarks a loop device
# through udisks2 and polkit (TAP).
#
# Usage: test-int-udisks.sh DISKSCOPE-CLI [DISKSCOPE]
#
# Starts what is not running (the system bus, polkitd, systemd-udevd,
# udisksd), makes a loop device, and runs diskscope-cli as `nobody`:
#   1. with --no-udisks: permission denied, udisks2 not asked;
#   2. no polkit rule: refused with NotAuthorizedCanObtain, and the
#      message names the polkit action;
#   3. a rule in /etc/polkit-1/rules.d/ lets `nobody` use udisks2: a read
#      benchmark completes, then a write benchmark (O_EXCL through udisks2);
#   4. while someone else holds the device exclusively, the write is
#      refused as busy.
# With DISKSCOPE (the app), the same user runs it scripted under Xvfb:
# refused without the rule (the window says which action), a benchmark
# completes with it; the screenshots stay in the meson log folder.
# Everything it started or made (daemons, rule file, loop device, files)
# is stopped or removed on exit, however it exits; nothing else is touched.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -u

cli=$(realpath "$1")
build_root=$(dirname "$(dirname "$cli")")   # BUILD/app/diskscope-cli
app=${2:+$(realpath "$2")}
shots=${MESON_BUILD_ROOT:-$PWD}/meson-logs
user=nobody
n=0
failed=0
started_pids=()
loop=""
rule=""
holder=""
work=""
bus_pid=""

ok ()   { n=$((n + 1)); echo "ok $n - $1"; }
fail () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
bail () { echo "Bail out! $*"; exit 1; }

cleanup () {
  [ -n "$holder" ] && kill "$holder" 2>/dev/null && wait "$holder" 2>/dev/null
  [ -n "$rule" ] && rm -f "$rule"
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  # Stop what this test started, newest first, by pid.
  for ((i = ${#started_pids[@]} - 1; i >= 0; i--)); do
    [ -n "${started_pids[i]}" ] || continue
    kill "${started_pids[i]}" 2>/dev/null
    for _ in $(seq 50); do kill -0 "${started_pids[i]}" 2>/dev/null || break; sleep 0.1; done
    kill -9 "${started_pids[i]}" 2>/dev/null
  done
  # Our bus leaves its pid file and socket behind: they would stop the
  # next one from starting.
  if [ -n "$bus_pid" ] && [ "$(cat /run/dbus/pid 2>/dev/null)" = "$bus_pid" ]; then
    rm -f /run/dbus/pid /run/dbus/system_bus_socket
  fi
  [ -n "$work" ] && rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

[ "$(id -u)" -eq 0 ] || { echo "1..0 # SKIP needs root: it starts system daemons and a loop device"; exit 0; }

# The suite makes GLib warnings fatal for our programs (G_DEBUG); the
# system's daemons are not ours, and polkitd or udisksd would abort on a
# warning of their own.
daemon_env=(env -u G_DEBUG -u G_SLICE)

for bin in dbus-daemon gdbus /usr/lib/polkit-1/polkitd /lib/systemd/systemd-udevd \
           udevadm /usr/libexec/udisks2/udisksd losetup setpriv flock pkttyagent script; do
  command -v "$bin" >/dev/null || bail "$bin is missing: run tools/install-deps (udisks2, polkitd, udev, dbus)"
done

# One run of this test at a time on the machine (the rule file and the
# daemons are shared); others' loop devices and daemons are left alone.
exec 9>/tmp/diskscope-udisks-test.lock
flock -w 600 9 || bail "another udisks test holds /tmp/diskscope-udisks-test.lock"


has_name () {
  gdbus call --system --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.NameHasOwner "$1" 2>/dev/null | grep -q true
}

wait_for () {   # wait_for SECONDS COMMAND...
  local t=$(($1 * 10)); shift
  for _ in $(seq "$t"); do "$@" && return 0; sleep 0.1; done
  return 1
}

# ---- the system bus -------------------------------------------------------
if ! gdbus call --system --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
       --method org.freedesktop.DBus.GetId >/dev/null 2>&1; then
  mkdir -p /run/dbus
  # A pid file or socket left by a bus that is gone would stop a new one.
  if [ -f /run/dbus/pid ] && ! kill -0 "$(cat /run/dbus/pid)" 2>/dev/null; then
    rm -f /run/dbus/pid /run/dbus/system_bus_socket
  fi
  pid=$("${daemon_env[@]}" dbus-daemon --system --fork --print-pid) || bail "could not start the system bus"
  started_pids+=("$pid")
  bus_pid=$pid
  wait_for 10 has_name org.freedesktop.DBus || bail "the system bus does not answer"
fi

# ---- polkitd --------------------------------------------------------------
if ! has_name org.freedesktop.PolicyKit1; then
  "${daemon_env[@]}" /usr/lib/polkit-1/polkitd --no-debug >/dev/null 2>&1 &
  started_pids+=("$!")
  wait_for 20 has_name org.freedesktop.PolicyKit1 || bail "polkitd did not start"
fi

# ---- udevd (udisks2 sees only devices udev has processed) -----------------
udevd_pid=""
if ! udevadm control --ping >/dev/null 2>&1; then
  /lib/systemd/systemd-udevd >/dev/null 2>&1 &
  udevd_pid=$!
  started_pids+=("$udevd_pid")
  wait_for 10 udevadm control --ping || bail "systemd-udevd did not start"
fi

# ---- udisksd --------------------------------------------------------------
if ! has_name org.freedesktop.UDisks2; then
  "${daemon_env[@]}" /usr/libexec/udisks2/udisksd --no-debug >/dev/null 2>&1 &
  started_pids+=("$!")
  wait_for 30 has_name org.freedesktop.UDisks2 || bail "udisksd did not start"
fi

# ---- the loop device ------------------------------------------------------
work=$(mktemp -d /var/tmp/ds-test-int-udisks-XXXXXX)
chmod 0711 "$work"
truncate -s 64M "$work/disk.img"
loop=$(losetup --direct-io=on -f --show "$work/disk.img") || bail "losetup failed"
# Only our device: others' loop devices get no event from this test.
udevadm trigger --action=add "/sys/class/block/${loop#/dev/}"
udevadm settle -t 20 2>/dev/null

known () {
  gdbus call --system --dest org.freedesktop.UDisks2 \
    --object-path /org/freedesktop/UDisks2/Manager \
    --method org.freedesktop.UDisks2.Manager.ResolveDevice "{'path': <'$loop'>}" "{}" \
    2>/dev/null | grep -q block_devices
}
wait_for 30 known || bail "udisks2 does not know $loop after udev processed it"

# A udevd of ours would also probe the loop devices other programs make
# meanwhile (and count as I/O on them): once udisks2 knows ours, it goes.
if [ -n "$udevd_pid" ]; then
  kill "$udevd_pid"
  wait "$udevd_pid" 2>/dev/null
  for i in "${!started_pids[@]}"; do
    [ "${started_pids[i]}" = "$udevd_pid" ] && started_pids[i]=""
  done
fi

as_user () {   # as_user OUT ERR ARGS...: runs the CLI as $user; its status
  local out=$1 err=$2; shift 2
  (cd "$work" && setpriv --reuid="$user" --regid=nogroup --clear-groups \
     env HOME=/nonexistent "$cli" "$@" >"$out" 2>"$err")
}

app_as_user () {   # app_as_user SHOT: the app's status, scripted under Xvfb
  setpriv --reuid="$user" --regid=nogroup --clear-groups \
    env -u DISPLAY -u WAYLAND_DISPLAY -u DBUS_SESSION_BUS_ADDRESS -u XDG_RUNTIME_DIR \
      HOME="$work/home" GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$work/schemas" \
      GSK_RENDERER=cairo NO_AT_BRIDGE=1 G_MESSAGES_DEBUG=all \
    xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- \
    "$app" --device "$loop" --page benchmark --start --quit-when-done --accuracy 1 \
      --screenshot "$work/home/$1" >"$work/app.log" 2>&1
  local status=$?
  cp "$work/home/$1" "$shots/" 2>/dev/null
  cp "$work/app.log" "$shots/${1%.png}.log" 2>/dev/null
  return $status
}

# The window said "Waiting for permission to open LOOP…" while polkit was
# asked, and took it down when the answer came (ds-window.c logs both).
app_waited () {   # app_waited WHAT
  if grep -q "status: Waiting for permission to open $loop…" "$work/app.log" &&
     grep -A1000 "status: Waiting for permission" "$work/app.log" |
       grep -q "status: the wait is over"; then
    ok "$1: the window showed it was waiting for permission, then cleared it"
  else
    fail "$1: the window showed it was waiting for permission, then cleared it" \
      "$(grep 'status:' "$work/app.log")"
  fi
}
mkdir -p "$work/home"
chown "$user" "$work/home"

# `nobody` runs copies from our own folder: the checkout may sit where it
# cannot look (/root, a mktemp -d folder of mode 0700).  The programs need
# nothing from the build tree but the app's compiled settings schema.
mkdir -p "$work/bin" "$work/schemas"
cp "$cli" "$work/bin/diskscope-cli"
cli=$work/bin/diskscope-cli
if [ -n "$app" ]; then
  cp "$app" "$work/bin/diskscope"
  app=$work/bin/diskscope
  cp "$build_root/data/gschemas.compiled" "$work/schemas/"
fi
# A sanitizer build reads its leak suppressions at exit: from a copy
# `nobody` can read too.
supp=$(sed -n 's/^\(.*:\)\{0,1\}suppressions=\([^:]*\).*/\2/p' <<<"${LSAN_OPTIONS:-}")
if [ -n "$supp" ] && [ -r "$supp" ]; then
  cp "$supp" "$work/bin/lsan.supp"
  export LSAN_OPTIONS=${LSAN_OPTIONS/"$supp"/$work/bin/lsan.supp}
fi
chmod -R a+rX "$work/bin" "$work/schemas"

# A plain user may not open it: the test means nothing otherwise.
if setpriv --reuid="$user" --regid=nogroup --clear-groups test -r "$loop"; then
  bail "$user can read $loop without udisks2: nothing to test"
fi

# 1. --no-udisks: our own permission error, udisks2 not asked.
as_user "$work/out" "$work/err" benchmark "$loop" --no-progress --accuracy 1 --no-udisks
status=$?
if [ $status -ne 0 ] && grep -q "Permission denied" "$work/err" && ! grep -q udisks2 "$work/err"; then
  ok "--no-udisks: permission denied without asking udisks2"
else
  fail "--no-udisks: permission denied without asking udisks2" "status $status" "$(cat "$work/err")"
fi

# 2. No rule: polkit wants a password nobody can type here.
as_user "$work/out" "$work/err" benchmark "$loop" --no-progress --accuracy 1
status=$?
if [ $status -eq 1 ] && grep -q "NotAuthorizedCanObtain" "$work/err" &&
   grep -q "org.freedesktop.udisks2.open-device" "$work/err"; then
  ok "without a rule: refused with NotAuthorizedCanObtain, naming the polkit action"
  sed "s/^/# /" "$work/err"
else
  fail "without a rule: refused with NotAuthorizedCanObtain, naming the polkit action" \
       "status $status" "$(cat "$work/err")"
fi

if [ -n "$app" ]; then
  if ! app_as_user int-udisks-app-refused.png && [ -s "$work/home/int-udisks-app-refused.png" ] &&
     grep -q "org.freedesktop.udisks2.open-device.*NotAuthorizedCanObtain" "$work/app.log"; then
    ok "the app without a rule: the run fails naming the action (screenshot int-udisks-app-refused.png)"
  else
    fail "the app without a rule: the run fails" "$(tail -20 "$work/app.log")"
  fi
  app_waited "the app without a rule"
fi

# 3. A rule for this user: polkitd reloads rules.d on its own.
rule=/etc/polkit-1/rules.d/49-diskscope-test-$$.rules
cat >"$rule" <<EOF
// Written by Diskscope's test-int-udisks.sh; removed when it ends.
polkit.addRule(function(action, subject) {
    if (action.id.indexOf("org.freedesktop.udisks2.") == 0 && subject.user == "$user")
        return polkit.Result.YES;
});
EOF
chmod 0644 "$rule"

allowed () {
  as_user "$work/out" "$work/err" benchmark "$loop" --no-progress --accuracy 1 --capacity 16M --json
}
if wait_for 20 allowed; then
  ok "with a rule: the read benchmark completes through udisks2"
else
  fail "with a rule: the read benchmark completes through udisks2" "$(cat "$work/err")"
fi

if python3 - "$work/out" "$loop" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
t = r["target"]
assert r["complete"] and r["error"] is None, r["error"]
assert t["path"] == sys.argv[2] and t["kind"] == "block", t
assert t["size_bytes"] == 64 << 20, t
transfer = r["results"]["read"]["transfer"]
print("# read average %.1f MB/s over %d points" % (transfer["avg_bytes_per_s"] / 1e6, len(transfer["points"])))
assert transfer["avg_bytes_per_s"] > 0 and len(transfer["points"]) > 0
EOF
then
  ok "the read result names the loop device and its size, with a rate"
else
  fail "the read result names the loop device and its size, with a rate" "$(head -c 2000 "$work/out")"
fi

if [ -n "$app" ]; then
  if app_as_user int-udisks-app.png && [ -s "$work/home/int-udisks-app.png" ]; then
    ok "the app with a rule: the benchmark completes through udisks2 (screenshot int-udisks-app.png)"
  else
    fail "the app with a rule: the benchmark completes through udisks2" "$(tail -20 "$work/app.log")"
  fi
  app_waited "the app with a rule"
fi

# The user still cannot open the device itself: udisks2 gave a fd, not rights.
if setpriv --reuid="$user" --regid=nogroup --clear-groups test -r "$loop"; then
  fail "the device's permissions are unchanged"
else
  ok "the device's permissions are unchanged"
fi

# 4. A write test: "rw" with O_EXCL through udisks2; the data changes.
before=$(dd if="$loop" bs=1M count=16 iflag=direct status=none | md5sum)
as_user "$work/out" "$work/err" benchmark "$loop" --no-progress --accuracy 1 --capacity 16M \
  --write --destroy-data="$loop" --json
status=$?
after=$(dd if="$loop" bs=1M count=16 iflag=direct status=none | md5sum)
if [ $status -eq 0 ] && [ "$before" != "$after" ]; then
  ok "with a rule: the write benchmark completes through udisks2"
else
  fail "with a rule: the write benchmark completes through udisks2" "status $status" "$(cat "$work/err")"
fi

# 5. Someone else holds it exclusively: udisks2's O_EXCL open says busy.
python3 -c '
import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(120)' "$loop" >"$work/held" &
holder=$!
wait_for 10 grep -q held "$work/held" || bail "could not hold $loop exclusively"
as_user "$work/out" "$work/err" benchmark "$loop" --no-progress --accuracy 1 --capacity 16M \
  --write --destroy-data="$loop"
status=$?
if [ $status -ne 0 ] && grep -q "in use" "$work/err"; then
  ok "held exclusively by another program: the write is refused as busy"
else
  fail "held exclusively by another program: the write is refused as busy" "status $status" "$(cat "$work/err")"
fi
kill "$holder"; wait "$holder" 2>/dev/null; holder=""

# 6. Without the rule again: refused again (the rule was what allowed it).
rm -f "$rule"; rule=""
refused () {
  ! as_user "$work/out" "$work/err" benchmark "$loop" --no-progress --accuracy 1 --capacity 16M &&
    grep -q NotAuthorizedCanObtain "$work/err"
}
if wait_for 20 refused; then
  ok "the rule removed: refused again"
else
  fail "the rule removed: refused again" "$(cat "$work/err")"
fi

# 7. In a terminal without a desktop agent, the CLI starts pkttyagent for
# itself: the password prompt names the action; Ctrl+C at the prompt stops
# the run at once (status 130) and leaves no agent behind.
mkfifo "$work/keys"
exec 8<>"$work/keys"   # the terminal's keyboard: held open, no password
setpriv --reuid="$user" --regid=nogroup --clear-groups \
  script -qefc "$cli benchmark $loop --accuracy 1" /dev/null <&8 >"$work/tty.log" 2>&1 &
terminal=$!
if wait_for 30 grep -q "AUTHENTICATING FOR org.freedesktop.udisks2.open-device" "$work/tty.log"; then
  ok "in a terminal: the CLI asks for the password itself (pkttyagent)"
  wait_for 10 grep -q "Password:" "$work/tty.log"
  t0=$(date +%s%N)
  printf '\003' >&8     # Ctrl+C
  wait "$terminal"; status=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  if [ $status -eq 130 ] && [ $ms -lt 3000 ] && grep -q "stopped" "$work/tty.log"; then
    ok "Ctrl+C at the password prompt stops the run (status 130 after $ms ms)"
  else
    fail "Ctrl+C at the password prompt stops the run" "status $status after $ms ms" "$(cat -v "$work/tty.log")"
  fi
else
  fail "in a terminal: the CLI asks for the password itself (pkttyagent)" "$(cat -v "$work/tty.log")"
  kill "$terminal" 2>/dev/null; wait "$terminal"
fi
exec 8>&-
if pgrep -u "$user" -x pkttyagent >/dev/null; then
  fail "no agent is left behind" "$(pgrep -a -u "$user" -x pkttyagent)"
else
  ok "no agent is left behind"
fi

# 8. Run as root, udisks2 is never asked (a plain open works).
if "$cli" info "$loop" >/dev/null 2>&1; then
  ok "root opens the device itself"
else
  fail "root opens the device itself"
fi

echo "1..$n"
exit $failed
