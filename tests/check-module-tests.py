#!/usr/bin/env python3
# check-module-tests.py SOURCE_ROOT: every core module has a unit test of
# its own, and the suite runs it.
#
# A module core/<layer>/ds-<name>.c is tested by tests/test-<name>.c; the
# files of a kind's folder core/kinds/<kind>/ by tests/test-kind-<kind>*.c;
# the others by the test tests/module-tests.txt names for them.  Each test
# file must be built by tests/meson.build (its name in a list there, or its
# file named), and each line of module-tests.txt must name a module and a
# test that exist: the list cannot go stale.
#
# SPDX-License-Identifier: GPL-3.0-or-later
import glob
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
tests_dir = os.path.join(root, "tests")
with open(os.path.join(tests_dir, "meson.build"), encoding="utf-8") as f:
    meson = f.read()


def built(test):
    """The test file is built by tests/meson.build."""
    name = os.path.basename(test)[len("test-"):-len(".c")]
    return (re.search(r"'%s'" % re.escape(name), meson) is not None
            or os.path.basename(test) in meson)


mapped = {}
problems = []
with open(os.path.join(tests_dir, "module-tests.txt"), encoding="utf-8") as f:
    for number, line in enumerate(f, 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        if len(fields) != 2:
            problems.append("module-tests.txt:%d: not “MODULE TEST”: %s" % (number, line))
            continue
        module, test = fields
        if not os.path.isfile(os.path.join(root, module)):
            problems.append("module-tests.txt:%d: no module %s" % (number, module))
        if not os.path.isfile(os.path.join(root, test)):
            problems.append("module-tests.txt:%d: no test %s" % (number, test))
        mapped[module] = test

modules = sorted(os.path.relpath(p, root)
                 for p in glob.glob(os.path.join(root, "core", "**", "*.c"), recursive=True))
count = 0
for module in modules:
    parts = module.split(os.sep)
    stem = os.path.basename(module)[len("ds-"):-len(".c")]
    candidates = [os.path.join("tests", "test-%s.c" % stem)]
    if len(parts) == 4 and parts[1] == "kinds" and parts[2] != "common":
        candidates += sorted(os.path.relpath(p, root) for p in
                             glob.glob(os.path.join(tests_dir, "test-kind-%s*.c" % parts[2])))
    if module in mapped:
        candidates = [mapped[module]]
    found = [t for t in candidates if os.path.isfile(os.path.join(root, t))]
    if not found:
        problems.append("%s: no unit test (tests/test-%s.c, or a line in tests/module-tests.txt)"
                        % (module, stem))
    elif not any(built(t) for t in found):
        problems.append("%s: %s is not in tests/meson.build" % (module, found[0]))
    else:
        count += 1

for p in problems:
    print(p)
print("%d of %d core modules have their unit test" % (count, len(modules)))
sys.exit(1 if problems else 0)
