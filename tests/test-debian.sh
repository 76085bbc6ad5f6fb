#!/bin/sh
# debian/ against the project it packages (no root, no build of the
# package: .ci/run builds, installs and purges it):
#  1. debian/changelog's version is meson's project version;
#  2. every path debian/*.install names is in what `meson install` puts
#     in a DESTDIR (the paths the packages ship are real);
#  3. every build dependency of debian/control is among the packages
#     tools/install-deps installs (so CI and a developer can build it).
#   test-debian.sh SOURCE_ROOT BUILD_ROOT
set -eu
src=$1
build=$2
tmp=$(mktemp -d /tmp/ds-test-debian-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
echo "1..3"

meson_version=$(sed -n "s/^  version: '\([^']*\)',$/\1/p" "$src/meson.build" | head -n 1)
deb_version=$(sed -n '1s/^diskscope (\([^)]*\)).*/\1/p' "$src/debian/changelog")
if [ -n "$meson_version" ] && [ "$deb_version" = "$meson_version" ]; then
  echo "ok 1 - debian/changelog is version $deb_version, as meson.build"
else
  echo "not ok 1 - debian/changelog says '$deb_version', meson.build '$meson_version'"
  exit 1
fi

# The packages are built with --prefix=/usr.
meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/dest" >/dev/null 2>&1 || {
  echo "not ok 2 - meson install into a DESTDIR failed"; exit 1; }
prefix=$(meson introspect "$build" --buildoptions | python3 -c '
import json, sys
print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
missing=""
for list in "$src"/debian/*.install; do
  while read -r path; do
    [ -n "$path" ] || continue
    # debian/*.install names paths under /usr; the build may have another prefix.
    rel=${path#usr/}
    [ -e "$tmp/dest$prefix/$rel" ] || missing="$missing $(basename "$list"):$path"
  done < "$list"
done
if [ -z "$missing" ]; then
  echo "ok 2 - every path in debian/*.install is installed"
else
  echo "not ok 2 - not installed:$missing"
  exit 1
fi

deps=$(sed -n '/^Build-Depends:/,/^[A-Z]/p' "$src/debian/control" | grep '^ ' |
       sed 's/^ *//; s/[ ,(<].*//' | sort -u)
missing=""
for dep in $deps; do
  # debhelper-compat is provided by debhelper; pkgconf by pkg-config's package.
  case "$dep" in
    debhelper-compat) dep=debhelper ;;
    pkgconf) dep=pkg-config ;;
  esac
  grep -Eq "(^|[[:space:]])$dep([[:space:]]|$)" "$src/tools/install-deps" || missing="$missing $dep"
done
if [ -z "$missing" ]; then
  echo "ok 3 - tools/install-deps installs every build dependency of debian/control"
else
  echo "not ok 3 - not in tools/install-deps:$missing"
  exit 1
fi
