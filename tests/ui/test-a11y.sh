#!/usr/bin/env bash
# test-a11y.sh: what a screen reader gets from the Benchmark page (TAP).
#
# Usage: test-a11y.sh DISKSCOPE
#
# Runs the app's Benchmark on a loop device of its own under Xvfb with the
# accessibility bus, and reads the accessibility tree through AT-SPI
# (pyatspi, as Orca does): the graph is an image whose name says what it
# plots and whose description gives its numbers, and the table beside it
# is there with its values.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -u

app=$(realpath "$1")
loop=""
work=""
xvfb=""
cleanup () {
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null && wait "$xvfb" 2>/dev/null
  [ -n "$loop" ] && losetup -d "$loop" 2>/dev/null
  [ -n "$work" ] && rm -rf "$work"
}
trap cleanup EXIT

[ "$(id -u)" -eq 0 ] || { echo "1..0 # SKIP needs root for a loop device"; exit 0; }
/usr/bin/python3 -c "import pyatspi" 2>/dev/null ||
  { echo "Bail out! python3-pyatspi is missing: run tools/install-deps"; exit 1; }

work=$(mktemp -d /var/tmp/ds-test-a11y-XXXXXX)
truncate -s 64M "$work/disk.img"
loop=$(losetup --direct-io=on -f --show "$work/disk.img") || { echo "Bail out! losetup failed"; exit 1; }

# A display of its own, not the suite's: GTK takes the accessibility bus
# from the X root window, where an earlier session's bus may still be
# named.  Xvfb picks a free display itself and writes its number once it
# accepts connections (-displayfd), so no lock-file race with another
# server can hand the app a display that is not there.
command -v Xvfb >/dev/null || { echo "Bail out! Xvfb is missing: run tools/install-deps"; exit 1; }
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp 3>"$work/display" >"$work/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 300); do
  grep -q '^[0-9][0-9]*$' "$work/display" 2>/dev/null && break
  kill -0 "$xvfb" 2>/dev/null || break
  sleep 0.1
done
display=$(head -n 1 "$work/display" 2>/dev/null)
case "$display" in
  ''|*[!0-9]*)
    echo "Bail out! Xvfb did not start"
    sed 's/^/# /' "$work/xvfb.log"
    exit 1 ;;
esac
echo "# display :$display"

# GTK 4 speaks AT-SPI itself: no NO_AT_BRIDGE, no GTK_A11Y=none here.
# Nor the suite's fatal warnings (G_DEBUG): the AT-SPI client library
# (dbind, in the Python process) warns about the registry's own cache
# while it starts, which is not ours to fix.
env -u NO_AT_BRIDGE -u GTK_A11Y -u XAUTHORITY -u DBUS_SESSION_BUS_ADDRESS -u WAYLAND_DISPLAY -u G_DEBUG \
  DISPLAY=":$display" HOME="$work" XDG_RUNTIME_DIR="$work" \
  GSETTINGS_BACKEND=memory GSK_RENDERER=cairo \
  dbus-run-session -- \
  /usr/bin/python3 - "$app" "$loop" 3>&1 1>&2 <<'PY'
import os, subprocess, sys, time
# The TAP stream is fd 3: what the bus's services print goes to stderr.
sys.stdout = os.fdopen(3, "w", buffering=1)
import pyatspi

app_path, loop = sys.argv[1], sys.argv[2]
n = 0
failed = False

def ok(cond, name, detail=""):
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        failed = True
        for line in str(detail).splitlines():
            print("# " + line)

def walk(node, depth=0):
    if node is None or depth > 60:
        return
    yield node
    for i in range(node.childCount):
        try:
            child = node.getChildAtIndex(i)
        except Exception:
            continue
        yield from walk(child, depth + 1)

def find_app():
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        a = desktop.getChildAtIndex(i)
        if a is not None and a.name and "diskscope" in a.name.lower():
            return a
    return None

def display_answers(timeout):
    """Whether the X server takes a client within timeout seconds."""
    import ctypes, ctypes.util
    x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    end = time.time() + timeout
    while True:
        d = x11.XOpenDisplay(None)
        if d:
            x11.XCloseDisplay(d)
            return True
        if time.time() > end:
            return False
        time.sleep(0.2)

app_log = os.path.join(os.environ["HOME"], "app-stderr.txt")

def launch():
    """The app, started again (at most twice more) if it could not open
    the display: a test X server that turns a client away is not what this
    test measures, and each time is said."""
    for attempt in range(3):
        display_answers(10)
        err = open(app_log, "w+")
        p = subprocess.Popen([app_path, "--device", loop, "--page", "benchmark",
                              "--start", "--accuracy", "1"], stderr=err)
        try:
            p.wait(5)
        except subprocess.TimeoutExpired:
            return p
        err.seek(0)
        text = err.read()
        sys.stderr.write(text)
        if "cannot open display" not in text:
            open(app_log, "w").close()
            return p
        print("# the app could not open the display (try %d): %s"
              % (attempt + 1, text.strip().splitlines()[-1] if text.strip() else ""))
    return p

proc = launch()
try:
    graph = None
    deadline = time.time() + 120
    while time.time() < deadline:
        a = find_app()
        if a is not None:
            images = [x for x in walk(a) if x.getRole() == pyatspi.ROLE_IMAGE
                      and "Position" in (x.name or "")]
            done = [x for x in images if "200 points" in (x.description or "")]
            if done:
                graph = done[0]
                break
        if proc.poll() is not None:
            break
        time.sleep(1)
    ok(graph is not None, "the benchmark graph is an image in the accessibility tree",
       "the app exited (status %s) before its graph was read" % proc.returncode
       if proc.returncode is not None else
       "no image named for its axes with 200 points after 120 s")
    if graph is not None:
        print("# name: " + graph.name)
        print("# description: " + graph.description)
        ok("Read" in graph.name and "Position (GB)" in graph.name,
           "its name says what it plots (Read by Position)", graph.name)
        ok("Read: 200 points from" in graph.description and "MB/s" in graph.description,
           "its description gives the read curve's points, range and unit", graph.description)
    a = find_app()
    labels = [x.name for x in walk(a)] if a is not None else []
    texts = " | ".join(l for l in labels if l)
    ok(all(w in labels for w in ("Minimum", "Maximum", "Average", "Access Time", "Burst Rate")),
       "the table beside the graph is in the tree (Minimum, Maximum, Average, Access Time, Burst Rate)",
       texts[:2000])
    ok(any(l.endswith("MB/s") and l[0].isdigit() for l in labels if l),
       "the table's values are readable (a number in MB/s)", texts[:2000])
finally:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    with open(app_log) as log:
        sys.stderr.write(log.read())
print("1..%d" % n)
sys.exit(1 if failed else 0)
PY
