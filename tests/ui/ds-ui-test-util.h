/* ds-ui-test-util.h: what the display tests share
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <adwaita.h>

#include "ds-graph.h"
#include "ds-series.h"
#include "ds-window.h"

G_BEGIN_DECLS

/* A checked fixture: GTK and libadwaita, or the test fails with how to run
 * it (under xvfb-run -a). */
void       ds_ui_test_setup          (void);
/* Runs the main context for @ms milliseconds without blocking on it. */
void       ds_ui_test_spin           (guint      ms);
/* Runs the main context until @widget is mapped (10 s at most). */
void       ds_ui_test_wait_mapped    (GtkWidget *widget);
void       ds_ui_test_wait_drawn     (GtkWidget *widget,
                                      guint      frames);
/* Runs the main context until *@flag is set or @timeout_ms passed; what
 * *@flag is then.  No Check assertion: the benchmarks' helpers use it. */
gboolean   ds_ui_test_spin_until     (const gboolean *flag,
                                      guint           timeout_ms);
/* Runs the main context until *@flag is set, failing the test after
 * @timeout_ms with "@what did not happen within …". */
void       ds_ui_test_wait_for       (const gboolean *flag,
                                      guint           timeout_ms,
                                      const char     *what);
/* A template child of @window's Benchmark page ("graph", "min_label",
 * "read_layer", …). */
gpointer   ds_ui_test_benchmark_child (DsWindow  *window,
                                       const char *name);
/* A template child of the page called @page ("health", "error-scan"…). */
gpointer   ds_ui_test_page_child     (DsWindow   *window,
                                      const char *page,
                                      const char *name);
/* With DS_UI_TEST_SCREENSHOTS=DIR in the environment, saves the whole
 * window's content (header bar included, as the metainfo's screenshots
 * show it) to DIR/@name; otherwise does nothing. */
void       ds_ui_test_keep_screenshot (DsWindow  *window,
                                       const char *name);
/* Pixels of @colour (within a tolerance) in [x0, x1) × [y0, y1) of
 * @widget as drawn now. */
guint      ds_ui_test_count_colour   (GtkWidget     *widget,
                                      const GdkRGBA *colour,
                                      int            x0,
                                      int            y0,
                                      int            x1,
                                      int            y1);
/* The series a layer of the Benchmark page's graph draws ("read_layer",
 * "write_layer", "access_layer"). */
DsSeries  *ds_ui_test_benchmark_series (DsWindow  *window,
                                        const char *layer);
/* A template child of @window ("view_stack", "device_dropdown", …). */
/* The Saturation page (@page, "sweep") set for random 4 KiB reads over
 * @over (0: queue depth, 1: threads) @from … @to, @time_index in its step
 * time menu, no steady-state wait.  No Check assertion (the benchmarks'
 * helpers call it outside a test): a missing control is a g_error(). */
void       ds_ui_test_set_sweep      (GtkWidget  *page,
                                      guint       over,
                                      guint       from,
                                      guint       to,
                                      guint       time_index);
gpointer   ds_ui_test_window_child   (DsWindow   *window,
                                      const char *name);
/* The first descendant of @widget of @type (depth first), or NULL. */
GtkWidget *ds_ui_test_find_descendant (GtkWidget *widget,
                                       GType      type);
/* The visible toplevel of @type transient for @parent, or NULL. */
GtkWindow *ds_ui_test_find_toplevel  (GType      type,
                                      GtkWindow *parent);
/* Finds the key binding of @keyval + @modifiers among @widget's shortcut
 * controllers and activates its action, as pressing the keys would; FALSE
 * when no shortcut has that trigger. */
gboolean   ds_ui_test_press_keys     (GtkWidget      *widget,
                                      guint           keyval,
                                      GdkModifierType modifiers);
/* Opens a saved result in @window's session and waits for it (10 s at
 * most): as the Open Result action does, without the file chooser.  In a
 * shown window it also waits for the page that shows it to be drawn. */
gboolean   ds_ui_test_open_result    (DsWindow    *window,
                                      const char  *path,
                                      GError     **error);
/* The message dialog @window presented (transient for it, visible), or
 * NULL: the write confirmation, a refusal. */
AdwMessageDialog *ds_ui_test_find_dialog (DsWindow *window);
/* A graph as the pages build them: a rate curve over @x_axis and, with
 * @access, access-time dots on a right axis (the Benchmark page's). */
GtkWidget *ds_ui_test_graph_new      (DsGraphAxis  x_axis,
                                      DsSeries    *rate,
                                      DsSeries    *access);

/* When DS_UI_TEST_SHOTS names a folder, saves @widget as it is drawn now
 * to @name.png there, for a person to look at what a test saw (the window
 * with its banners, a dialog); does nothing otherwise. */
void       ds_ui_test_shoot          (GtkWidget  *widget,
                                      const char *name);

G_END_DECLS
