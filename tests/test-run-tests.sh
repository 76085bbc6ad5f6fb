#!/bin/sh
# README's two Quick start commands must work as root on a machine without
# sudo (CI, a minimal Debian) and as a user with sudo.  tools/run-tests and
# tools/quickstart are run in their dry-run modes (they print the commands
# they would run) with a fake sudo first on PATH that records each call.
#   test-run-tests.sh SOURCE_ROOT
set -eu
src=$1
tmp=$(mktemp -d /tmp/ds-test-run-tests-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
echo "1..8"

# 1. The Quick start is two commands, the bare scripts (no sudo in front):
# ./tools/quickstart, then ./tools/run-tests.
commands=$(sed -n '/^## Quick start/,/^## /p' "$src/README.md" |
           sed -n '/^```sh/,/^```/p' | grep -v '^```' | sed 's/ *#.*//' | grep -v '^$' | tr '\n' ';')
case "$commands" in
  "./tools/quickstart;./tools/run-tests;") echo "ok 1 - README's Quick start is ./tools/quickstart then ./tools/run-tests" ;;
  *) echo "not ok 1 - README's Quick start commands are '$commands'"; exit 1 ;;
esac

mkdir "$tmp/bin"
cat > "$tmp/bin/sudo" <<FAKE
#!/bin/sh
echo "sudo \$*" >> "$tmp/sudo.log"
exit 97
FAKE
chmod 755 "$tmp/bin/sudo"

# 2. As root: everything runs directly, sudo is never called.
if [ "$(id -u)" -ne 0 ]; then
  echo "ok 2 # SKIP not root: the root case runs in CI"
else
  out=$(cd "$src" && PATH="$tmp/bin:$PATH" DS_RUN_TESTS_DRY_RUN=1 ./tools/run-tests 2>&1) || {
    echo "not ok 2 - run-tests as root failed: $out"; exit 1; }
  if [ -e "$tmp/sudo.log" ] || printf '%s\n' "$out" | grep -q '^+ sudo'; then
    echo "not ok 2 - run-tests as root called sudo:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
  fi
  printf '%s\n' "$out" | grep -q '^+ env .*meson test' || {
    echo "not ok 2 - no test command in:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1; }
  echo "ok 2 - as root the tests run without sudo"
fi

# 3. As a user with sudo: builds as the user, only the tests go through sudo.
if [ "$(id -u)" -ne 0 ]; then
  echo "ok 3 # SKIP not root: cannot switch to another user here"
else
  # A copy of the script in a folder nobody can enter: the checkout may be
  # where it cannot (a mktemp -d folder of mode 0700, /root).
  mkdir -p "$tmp/src/tools"
  cp "$src/tools/run-tests" "$tmp/src/tools/"
  chmod -R a+rX "$tmp/src"
  out=$(cd "$tmp/src" && setpriv --reuid=65534 --regid=65534 --clear-groups \
          env PATH="$tmp/bin:$PATH" HOME="$tmp" DS_RUN_TESTS_DRY_RUN=1 ./tools/run-tests 2>&1) || {
    echo "not ok 3 - run-tests as nobody failed: $out"; exit 1; }
  if ! printf '%s\n' "$out" | grep -q '^+ sudo env .*meson test'; then
    echo "not ok 3 - the tests do not go through sudo:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
  fi
  if printf '%s\n' "$out" | grep -E '^\+ sudo' | grep -qv 'meson test'; then
    echo "not ok 3 - something besides the tests runs as root:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
  fi
  echo "ok 3 - as a user the build runs as the user and the tests through sudo"
fi

# The quick start, dry-run, from a copy of the scripts in a folder anyone
# may enter (and with no build/ of its own).
mkdir -p "$tmp/qs/tools"
cp "$src/tools/quickstart" "$tmp/qs/tools/"
chmod -R a+rX "$tmp/qs"
# quickstart [ENV-OPTIONS] [NAME=VALUE...]: as root
quickstart() {
  (cd "$tmp/qs" && env "$@" PATH="$tmp/bin:$PATH" DS_QUICKSTART_DRY_RUN=1 ./tools/quickstart 2>&1)
}
# the same as nobody (a user with the fake sudo)
quickstart_nobody() {
  (cd "$tmp/qs" && setpriv --reuid=65534 --regid=65534 --clear-groups \
     env "$@" HOME="$tmp/home" PATH="$tmp/bin:$PATH" DS_QUICKSTART_DRY_RUN=1 ./tools/quickstart 2>&1)
}
mkdir -p "$tmp/home"
chmod 777 "$tmp/home"

# 4. As root: everything runs directly into /usr/local; without a display
# the app is installed, not started, the CLI named, and it succeeds.
if [ "$(id -u)" -ne 0 ]; then
  echo "ok 4 # SKIP not root: the root case runs in CI"
else
  rm -f "$tmp/sudo.log"
  out=$(quickstart -u DISPLAY -u WAYLAND_DISPLAY) || {
    echo "not ok 4 - quickstart as root failed: $out"; exit 1; }
  if [ -e "$tmp/sudo.log" ] || printf '%s\n' "$out" | grep -q '^+ sudo'; then
    echo "not ok 4 - quickstart as root called sudo:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
  fi
  for want in '^+ meson setup build --prefix /usr/local$' '^+ meson install -C build' \
              'no display: the app is installed; run diskscope-cli'; do
    printf '%s\n' "$out" | grep -q -- "$want" || {
      echo "not ok 4 - no '$want' in:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1; }
  done
  if printf '%s\n' "$out" | grep -q 'bin/diskscope'; then
    echo "not ok 4 - the app started without a display:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
  fi
  echo "ok 4 - as root the quick start installs into /usr/local without sudo; no display: it says so"
fi

# 5. With a display it says it starts the app, and how to stop it.
if [ "$(id -u)" -ne 0 ]; then
  echo "ok 5 # SKIP not root: the root case runs in CI"
else
  out=$(quickstart DISPLAY=:5) || { echo "not ok 5 - quickstart failed: $out"; exit 1; }
  if printf '%s\n' "$out" | grep -q '^+ /usr/local/bin/diskscope$' &&
     printf '%s\n' "$out" | grep -q 'starting diskscope on the display :5: close its window'; then
    echo "ok 5 - with a display the quick start says it starts the app and how to stop it"
  else
    echo "not ok 5 - no start, or no word of it:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
  fi
fi

# 6. As a user with sudo: builds as the user; only the install into
# /usr/local (and the packages, inside install-deps) need root.
if [ "$(id -u)" -ne 0 ]; then
  echo "ok 6 # SKIP not root: cannot switch to another user here"
elif setpriv --reuid=65534 --regid=65534 --clear-groups test -w /usr/local; then
  echo "ok 6 # SKIP /usr/local is writable by anyone here: no sudo is needed to install"
else
  out=$(quickstart_nobody -u DISPLAY -u WAYLAND_DISPLAY) || {
    echo "not ok 6 - quickstart as nobody failed: $out"; exit 1; }
  if ! printf '%s\n' "$out" | grep -q '^+ sudo meson install -C build'; then
    echo "not ok 6 - the install does not go through sudo:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
  fi
  if printf '%s\n' "$out" | grep -E '^\+ sudo' | grep -qv 'meson install'; then
    echo "not ok 6 - something besides the install runs as root:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
  fi
  printf '%s\n' "$out" | grep -q '^+ ./tools/install-deps$' || {
    echo "not ok 6 - no install-deps in:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1; }
  echo "ok 6 - as a user the quick start builds as the user and installs through sudo"
fi

# 7. DISKSCOPE_PREFIX=~/.local: a user's own install, no sudo at all.
if [ "$(id -u)" -ne 0 ]; then
  echo "ok 7 # SKIP not root: cannot switch to another user here"
else
  rm -f "$tmp/sudo.log"
  out=$(quickstart_nobody -u DISPLAY -u WAYLAND_DISPLAY DISKSCOPE_PREFIX="$tmp/home/.local") || {
    echo "not ok 7 - quickstart as nobody into ~/.local failed: $out"; exit 1; }
  if printf '%s\n' "$out" | grep -q '^+ sudo'; then
    echo "not ok 7 - an install into ~/.local went through sudo:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
  fi
  printf '%s\n' "$out" | grep -q "^+ meson setup build --prefix $tmp/home/.local\$" || {
    echo "not ok 7 - not set up for ~/.local:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1; }
  echo "ok 7 - DISKSCOPE_PREFIX=~/.local installs for the user without sudo"
fi

# 8. After the tests, run-tests says what meson's testlog.json holds: the
# counts, and the ten slowest tests, slowest first, with the suite's total
# test time (the 15-minute bar).  Run for real (not dry) from a copy, with
# a testlog of twelve tests made here, and meson, ninja and xvfb-run that
# do nothing (sudo, for a user, runs its command).
mkdir -p "$tmp/sum/tools" "$tmp/sum/build/meson-logs" "$tmp/sumbin"
cp "$src/tools/run-tests" "$tmp/sum/tools/"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do
  case $i in 12) r=FAIL ;; 11) r=SKIP ;; *) r=OK ;; esac
  printf '{"name": "t%02d", "duration": %d.5, "result": "%s"}\n' "$i" "$i" "$r"
done > "$tmp/sum/build/meson-logs/testlog.json"
for tool in meson ninja xvfb-run; do
  printf '#!/bin/sh\nexit 0\n' > "$tmp/sumbin/$tool"
done
printf '#!/bin/sh\nexec "$@"\n' > "$tmp/sumbin/sudo"
chmod 755 "$tmp/sumbin/"*
if ! out=$(cd "$tmp/sum" && PATH="$tmp/sumbin:$PATH" ./tools/run-tests 2>&1); then
  echo "not ok 8 - run-tests with a testlog failed:"; printf '%s\n' "$out" | sed 's/^/# /'; exit 1
fi
want=$(printf '%s\n' \
  "tests: 10 passed, 1 failed, 1 skipped" \
  "slowest of 12 tests (84 s of test time in all):" \
  "     12.5 s  t12  FAIL" "     11.5 s  t11  SKIP" "     10.5 s  t10  OK" \
  "      9.5 s  t09  OK" "      8.5 s  t08  OK" "      7.5 s  t07  OK" "      6.5 s  t06  OK" \
  "      5.5 s  t05  OK" "      4.5 s  t04  OK" "      3.5 s  t03  OK")
got=$(printf '%s\n' "$out" | sed -n '/^tests: /,$p')
if [ "$got" = "$want" ]; then
  echo "ok 8 - run-tests ends with the counts and the ten slowest tests of testlog.json"
else
  echo "not ok 8 - run-tests's summary is not the ten slowest of testlog.json:"
  printf '%s\n' "$got" | sed 's/^/# got: /'
  printf '%s\n' "$want" | sed 's/^/# want: /'
  exit 1
fi
