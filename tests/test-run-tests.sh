#!/bin/sh
# README's test command must work as root on a machine without sudo (CI, a
# minimal Debian) and as a user with sudo.  tools/run-tests is run in its
# dry-run mode (it prints the commands it would run) with a fake sudo first
# on PATH that records each call.
#   test-run-tests.sh SOURCE_ROOT
set -eu
src=$1
tmp=$(mktemp -d /tmp/ds-test-run-tests-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp"
echo "1..3"

# 1. The Quick start's test command is the bare script: no sudo in front.
line=$(sed -n '/^## Quick start/,/^## /p' "$src/README.md" | grep -E '^(sudo )?\./tools/run-tests' | head -n 1)
case "$line" in
  "./tools/run-tests"*) echo "ok 1 - README's test command is ./tools/run-tests" ;;
  *) echo "not ok 1 - README's test command is '$line'"; exit 1 ;;
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
