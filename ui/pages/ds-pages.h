/* ds-pages.h: the window's pages, listed once
 *
 * How to add a page (say, Health):
 *
 *  1. Write ui/pages/ds-health-page.c/.h and ds-health-page.ui beside them: a widget
 *     that implements DsPage (ds-page.h) with what it needs of set_device,
 *     set_units, configure, begin, add_samples, show_result and show_error.
 *     A page that plots draws through a DsGraph and its layers
 *     (ds-graph-layer.h says how to add a layer).
 *  2. Add one row to the table in ds-pages.c: its name (for --page and the
 *     last-page setting), title, icon, the kind it runs and its type.
 *  3. List its files in ui/pages/meson.build, ui/diskscope.gresource.xml
 *     and po/POTFILES.in.
 *
 * Nothing else lists pages: the window builds its view stack from the
 * table, the application's --help names them from it, the session runs the
 * row's kind and the display tests build every row.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ds-bench.h"

G_BEGIN_DECLS

typedef struct {
  const char  *name;        /* "benchmark": --page, the last-page setting */
  const char  *title;       /* N_(): the switcher's label */
  const char  *icon_name;
  DsBenchKind  kind;        /* what Start runs; DS_BENCH_N_KINDS: nothing */
  GType      (*get_type) (void);
  /* A key of the app's settings that the page follows, bound (one way)
   * to the page's property of the same name ("file-size": the
   * Preferences' test file size); NULL: none. */
  const char  *setting;
} DsPageInfo;

/* The pages in the switcher's order; *@ret_n_pages of them. */
const DsPageInfo *ds_pages_get        (guint       *ret_n_pages);
const DsPageInfo *ds_pages_lookup     (const char  *name);
/* The page that shows @kind's results, or NULL. */
const DsPageInfo *ds_pages_for_kind   (DsBenchKind  kind);
/* "benchmark, extra, …, info" */
char             *ds_pages_list_names (void);

G_END_DECLS
