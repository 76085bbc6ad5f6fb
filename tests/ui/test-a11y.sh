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
cleanup () {
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

# GTK 4 speaks AT-SPI itself: no NO_AT_BRIDGE, no GTK_A11Y=none here.
env -u NO_AT_BRIDGE -u GTK_A11Y -u DISPLAY -u DBUS_SESSION_BUS_ADDRESS \
  HOME="$work" XDG_RUNTIME_DIR="$work" GSETTINGS_BACKEND=memory GSK_RENDERER=cairo \
  xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- \
  /usr/bin/python3 - "$app" "$loop" <<'PY'
import subprocess, sys, time
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

proc = subprocess.Popen([app_path, "--device", loop, "--page", "benchmark",
                         "--start", "--accuracy", "1"])
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
        time.sleep(1)
    ok(graph is not None, "the benchmark graph is an image in the accessibility tree",
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
print("1..%d" % n)
sys.exit(1 if failed else 0)
PY
