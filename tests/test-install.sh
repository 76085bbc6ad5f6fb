#!/usr/bin/env bash
# test-install.sh: what `meson install` puts in a DESTDIR is what a
# distribution package ships, and it validates (TAP).
#
# Usage: test-install.sh BUILD-DIR GUI(true|false)
#
# Installs into a temporary DESTDIR, then checks the installed files with
# the tools a distribution runs: desktop-file-validate, appstreamcli
# validate --no-net, glib-compile-schemas --strict, man --warnings; and that
# the bash completion completes the installed CLI's commands and options.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -u

build=$(realpath "$1")
gui=$2
n=0
failed=0
dest=$(mktemp -d /tmp/ds-test-install-XXXXXX)
trap 'rm -rf "$dest"' EXIT

ok ()   { n=$((n + 1)); echo "ok $n - $1"; }
fail () { n=$((n + 1)); failed=1; echo "not ok $n - $1"; shift; for l in "$@"; do echo "# $l"; done; }
check () {   # check NAME COMMAND...: ok when COMMAND succeeds, else its output
  local name=$1 out; shift
  if out=$("$@" 2>&1); then ok "$name"; else fail "$name" "$out"; fi
}

if ! out=$(meson install -C "$build" --destdir "$dest" --no-rebuild --quiet 2>&1); then
  echo "Bail out! meson install failed: $out"
  exit 1
fi
prefix=$(meson introspect "$build" --buildoptions |
         python3 -c 'import json, sys; print([o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"][0])')
root=$dest$prefix
version=$("$root/bin/diskscope-cli" --version | awk '{ print $2 }')

check "the installed diskscope-cli runs ($version)" test -n "$version"

for page in diskscope-cli $([ "$gui" = true ] && echo diskscope); do
  man1=$root/share/man/man1/$page.1
  if [ ! -f "$man1" ]; then
    fail "man page $page(1) is installed" "no $man1"
    continue
  fi
  warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l -E UTF-8 "$man1" 2>&1 >"$dest/$page.txt")
  if [ -z "$warnings" ] && grep -q "Diskscope $version" "$dest/$page.txt" &&
     grep -q "^NAME" "$dest/$page.txt"; then
    ok "man page $page(1): renders without warnings, names version $version"
  else
    fail "man page $page(1): renders without warnings, names version $version" "$warnings"
  fi
done
if grep -q "no-udisks" "$dest/diskscope-cli.txt" && grep -q "org.freedesktop.udisks2.open-device" "$dest/diskscope-cli.txt"; then
  ok "diskscope-cli(1) says how access works (udisks2, the polkit action, --no-udisks)"
else
  fail "diskscope-cli(1) says how access works (udisks2, the polkit action, --no-udisks)"
fi
# Every command the CLI has is in its man page.
missing=""
for cmd in $("$root/bin/diskscope-cli" --help | awk '/^Usage:/ { u = 1; next } u && NF == 0 { exit } u { print $2 }' | sort -u); do
  grep -qE "^ {7}$cmd( |$)" "$dest/diskscope-cli.txt" || missing="$missing $cmd"
done
if [ -z "$missing" ]; then ok "diskscope-cli(1) describes every command"; else fail "diskscope-cli(1) describes every command" "missing:$missing"; fi

# ---- bash completion ------------------------------------------------------
completion=$root/share/bash-completion/completions/diskscope-cli
complete_line () {   # what the completion offers for LINE, cursor at its end
  PATH="$root/bin:$PATH" bash -c '
    [ -r /usr/share/bash-completion/bash_completion ] && . /usr/share/bash-completion/bash_completion
    . "$1"
    line=$2
    read -ra COMP_WORDS <<<"$line"
    [[ $line == *" " ]] && COMP_WORDS+=("")
    COMP_LINE=$line; COMP_POINT=${#line}; COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    _diskscope_cli diskscope-cli "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
    echo "${COMPREPLY[*]}"' _ "$completion" "$1"
}
if [ -f "$completion" ]; then
  got=$(complete_line "diskscope-cli ")
  if [[ " $got " == *" benchmark "* && " $got " == *" workload "* && " $got " == *" monitor "* ]]; then
    ok "bash completion: the commands"
  else
    fail "bash completion: the commands" "got: $got"
  fi
  got=$(complete_line "diskscope-cli benchmark --no-u")
  [ "$got" = "--no-udisks" ] && ok "bash completion: a command's options" ||
    fail "bash completion: a command's options" "got: $got"
  got=$(complete_line "diskscope-cli workload --pattern randr")
  [ "$got" = "randread randrw" ] && ok "bash completion: an option's values" ||
    fail "bash completion: an option's values" "got: $got"
else
  fail "bash completion is installed" "no $completion"
fi

# ---- the desktop's files --------------------------------------------------
if [ "$gui" = true ]; then
  app_id=io.github.diskscope.Diskscope
  check "desktop-file-validate on the installed desktop file" \
    desktop-file-validate "$root/share/applications/$app_id.desktop"
  check "appstreamcli validate --no-net on the installed metainfo" \
    appstreamcli validate --no-net "$root/share/metainfo/$app_id.metainfo.xml"
  check "glib-compile-schemas --strict on the installed schema" \
    glib-compile-schemas --strict --targetdir "$dest" "$root/share/glib-2.0/schemas"
  check "the icons are installed (scalable and symbolic)" \
    test -s "$root/share/icons/hicolor/scalable/apps/$app_id.svg" -a \
         -s "$root/share/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
  check "the translations are installed" \
    test -s "$root/share/locale/ru/LC_MESSAGES/diskscope.mo"
fi

# ---- the installed programs find their files ------------------------------
# A distribution's package is installed at its prefix, with no environment
# variable pointing anywhere: the DESTDIR tree is bind-mounted over the
# prefix in a mount namespace of its own (nothing else sees it) and the
# programs run with an empty environment but PATH, HOME and the language.
# The package manager's trigger compiles the schemas, as meson install does
# without a DESTDIR.
# A sanitizer build's runtime settings (its leak suppressions) are not the
# app's environment: they pass through, as does the tests' G_DEBUG (a
# warning of the installed programs fails the test, as any test's).
# A prefix of a user's own (the quick start's ~/.local) is found the way the
# user's session finds it, as XDG_DATA_HOME; a system prefix (/usr,
# /usr/local) through the default XDG_DATA_DIRS.
prefix_env=()
case "$prefix/share" in
  /usr/share|/usr/local/share) ;;
  *) prefix_env=("XDG_DATA_HOME=$prefix/share") ;;
esac
sanitizer_env=()
for v in ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS G_DEBUG; do
  if [ -n "${!v:-}" ]; then
    sanitizer_env+=("$v=${!v}")
  fi
done
as_installed () {   # as_installed COMMAND...: in the installed tree, env -i
  unshare --mount --propagation private \
    sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' _ "$root" "$prefix" \
    env -i PATH="$prefix/bin:/usr/bin:/bin" HOME="$dest/home" LANG=C.UTF-8 LANGUAGE=ru \
      "${prefix_env[@]}" "${sanitizer_env[@]}" "$@"
}
catalog () {   # what the installed ru catalog makes of MSGID
  as_installed env TEXTDOMAINDIR="$prefix/share/locale" gettext diskscope "$1"
}
if [ "$(id -u)" != 0 ] || ! command -v unshare >/dev/null; then
  ok "the installed programs find their files # SKIP needs root and unshare to mount the install at $prefix"
else
  mkdir -p "$dest/home"
  [ "$gui" = true ] && glib-compile-schemas "$root/share/glib-2.0/schemas"
  ru=$(catalog "Benchmark")
  out=$(as_installed diskscope-cli benchmark --help 2>&1)
  if [ -n "$ru" ] && [ "$ru" != "Benchmark" ] && [[ $out == *"$ru"* ]]; then
    ok "LANGUAGE=ru: the installed diskscope-cli --help reads the installed catalog (“$ru”)"
  else
    fail "LANGUAGE=ru: the installed diskscope-cli --help reads the installed catalog" \
      "catalog: Benchmark → $ru" "$(echo "$out" | head -5)"
  fi
  if [ "$gui" = true ]; then
    ru=$(catalog "Measure how fast your disks read and write.")
    out=$(as_installed diskscope --help 2>&1)
    if [ -n "$ru" ] && [[ $ru != Measure* ]] && [[ $out == *"$ru"* ]]; then
      ok "LANGUAGE=ru: the installed diskscope --help reads the installed catalog"
    else
      fail "LANGUAGE=ru: the installed diskscope --help reads the installed catalog" \
        "catalog: $ru" "$(echo "$out" | head -5)"
    fi
    # The window is built from the GResource and reads its settings: with
    # no schema found the app aborts, with no resource it has no window.
    out=$(as_installed GSK_RENDERER=cairo NO_AT_BRIDGE=1 \
            xvfb-run -a -s "-screen 0 1280x1024x24" dbus-run-session -- \
            diskscope --page info --screenshot "$dest/home/installed.png" --quit-when-done 2>&1)
    status=$?
    if [ "$status" = 0 ] && [ -s "$dest/home/installed.png" ] &&
       ! grep -qE "CRITICAL|ERROR|[Ss]chema" <<<"$out"; then
      ok "the installed diskscope starts with no environment (GResource, schema, catalog found)"
    else
      fail "the installed diskscope starts with no environment (GResource, schema, catalog found)" \
        "status $status" "$(echo "$out" | tail -8)"
    fi
  fi
fi

echo "1..$n"
exit $failed
