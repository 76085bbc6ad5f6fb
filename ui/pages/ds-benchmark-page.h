/* ds-benchmark-page.h: HD Tune's Benchmark tab
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define DS_TYPE_BENCHMARK_PAGE (ds_benchmark_page_get_type ())
G_DECLARE_FINAL_TYPE (DsBenchmarkPage, ds_benchmark_page, DS, BENCHMARK_PAGE, GtkWidget)

G_END_DECLS
