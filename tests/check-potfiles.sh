#!/bin/sh
# check-potfiles.sh SOURCE_ROOT: po/POTFILES.in lists every C file of core/,
# ui/ and app/ that marks strings for translation (_(), N_(), C_(), NC_()),
# and every file it lists exists.  A file left out would keep its messages
# English in every language without anyone noticing.
#
# SPDX-License-Identifier: GPL-3.0-or-later
set -eu

root=${1:?usage: check-potfiles.sh SOURCE_ROOT}
potfiles="$root/po/POTFILES.in"
status=0

cd "$root"
for file in $(grep -rlE '(^|[^A-Za-z0-9_])N?C?_\(' --include='*.c' core ui app | sort); do
  if ! grep -qxF "$file" "$potfiles"; then
    echo "not in po/POTFILES.in: $file (it has strings marked for translation)"
    status=1
  fi
done
for file in $(grep -v '^#' "$potfiles" | grep -v '^[[:space:]]*$'); do
  if [ ! -e "$file" ]; then
    echo "po/POTFILES.in lists $file, which does not exist"
    status=1
  fi
done
[ "$status" -eq 0 ] && echo "po/POTFILES.in lists every file with translatable strings"
exit "$status"
