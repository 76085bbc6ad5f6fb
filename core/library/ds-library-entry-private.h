/* ds-library-entry-private.h: what a library entry holds, for the files
 * that make one (ds-library-entry-new.c) and read one (ds-library-entry.c)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include "ds-library-entry.h"

G_BEGIN_DECLS

struct _DsLibraryEntry {
  GObject          parent_instance;

  char            *id;
  char            *path;
  DsLibraryStatus  status;
  char            *error_message;
  DsBenchKind      kind;
  char            *label;
  gboolean         custom_label;
  char            *notes;
  GStrv            tags;
  char            *device;
  char            *device_path;
  uint64_t         size_bytes;
  GDateTime       *date;
  char            *hostname;
  char            *summary;
  char            *model;
  char            *serial;
  char            *wwn;
  guint            n_warnings;
  char            *headline_key;
  char            *headline_name;
  int              headline_unit;
  double           headline_value;
  /* Everything a search looks in, case-folded, "\n" between fields: a
   * search as the user types is one strstr per entry. */
  char            *search_text;
};

G_END_DECLS
