/* ds-library-history-view.c: the library window's History: the selected
 * result's device (matched by WWN or serial, not its /dev name) and each
 * test's headline figure over time, a graph per test above the text that
 * `results history DEVICE` prints
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-figures.h"
#include "ds-graph.h"
#include "ds-library-history.h"
#include "ds-library-window-private.h"
#include "ds-line-layer.h"
#include "ds-series.h"

/* The graph's vertical axis for a figure's unit: rates, IOPS and times
 * have theirs; anything else is a plain number named by the heading. */
static DsGraphAxis
trend_axis (int unit)
{
  switch ((DsCompareUnit) unit)
    {
    case DS_COMPARE_RATE: return DS_GRAPH_AXIS_RATE;
    case DS_COMPARE_IOPS: return DS_GRAPH_AXIS_IOPS;
    case DS_COMPARE_TIME: return DS_GRAPH_AXIS_LATENCY;
    case DS_COMPARE_PERCENT:
    case DS_COMPARE_COUNT:
    case DS_COMPARE_BYTES:
    case DS_COMPARE_RATIO:
    default:
      return DS_GRAPH_AXIS_NUMBER;
    }
}

/* One kind's headline figure against the date of each run: a disk
 * slowing down month after month, reallocated sectors rising. */
static GtkWidget *
trend_graph (const DsLibraryTrend *trend)
{
  g_autoptr (DsSeries) series = ds_series_new ();
  g_autofree char *kind = _ds_library_kind_text (trend->entries->pdata[0]);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *label = gtk_label_new (kind);
  GtkWidget *graph = ds_graph_new ();
  DsGraphLayer *layer = ds_line_layer_new ();

  for (guint i = 0; i < trend->entries->len; i++)
    ds_series_append (series,
                      (double) g_date_time_to_unix (ds_library_entry_get_date (trend->entries->pdata[i])),
                      g_array_index (trend->values, double, i), 0);
  ds_series_changed (series);

  /* The line between the runs, a marker on each run. */
  ds_line_layer_set_style (DS_LINE_LAYER (layer), 0);
  ds_line_layer_set_every_point (DS_LINE_LAYER (layer), TRUE);
  ds_graph_layer_set_series (layer, series);
  ds_graph_layer_set_title (layer, trend->name);
  ds_graph_set_x_axis (DS_GRAPH (graph), DS_GRAPH_AXIS_DATE);
  ds_graph_set_y_axis (DS_GRAPH (graph), DS_GRAPH_SIDE_LEFT, trend_axis (trend->unit));
  ds_graph_add_layer (DS_GRAPH (graph), layer);
  g_object_unref (layer);
  gtk_widget_set_size_request (graph, -1, 220);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), graph);

  return box;
}

static GtkWidget *
history_window (DsLibraryWindow       *self,
                const DsLibraryDevice *device)
{
  g_autofree char *text = ds_library_device_history (device, DS_UNITS_MB);
  g_autofree char *what = ds_library_device_describe (device);
  g_autofree char *title = g_strdup_printf (_("History of %s"), what);
  g_autoptr (GPtrArray) trends = ds_library_device_trends (device);
  GtkWidget *window = adw_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *header = adw_header_bar_new ();
  GtkWidget *scrolled = gtk_scrolled_window_new ();
  GtkWidget *content = gtk_box_new (GTK_ORIENTATION_VERTICAL, 18);
  GtkWidget *text_scrolled = gtk_scrolled_window_new ();
  GtkWidget *label = gtk_label_new (text);

  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_transient_for (GTK_WINDOW (window), GTK_WINDOW (self));
  gtk_window_set_modal (GTK_WINDOW (window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, trends->len > 0 ? 720 : 420);
  gtk_widget_set_margin_start (content, 12);
  gtk_widget_set_margin_end (content, 12);
  gtk_widget_set_margin_top (content, 12);
  gtk_widget_set_margin_bottom (content, 12);
  /* The graphs first, one per test; then every figure as text. */
  for (guint i = 0; i < trends->len; i++)
    gtk_box_append (GTK_BOX (content), trend_graph (trends->pdata[i]));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_yalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "monospace");
  /* The text's long lines scroll on their own: the graphs keep the
   * window's width. */
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (text_scrolled), GTK_POLICY_AUTOMATIC, GTK_POLICY_NEVER);
  gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (text_scrolled), TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (text_scrolled), label);
  gtk_box_append (GTK_BOX (content), text_scrolled);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scrolled), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), content);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), header);
  gtk_box_append (GTK_BOX (box), scrolled);
  adw_window_set_content (ADW_WINDOW (window), box);

  return window;
}

static void
history_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  DsLibraryWindow *self = DS_LIBRARY_WINDOW (widget);
  g_autoptr(DsLibraryEntry) entry = _ds_library_window_selected_one (self);
  GPtrArray *devices;
  DsLibraryDevice *device;

  /* Nothing selected: the device the drop-down shows. */
  if (entry == NULL)
    {
      device = _ds_library_window_shown_device (self);
      if (device != NULL)
        gtk_window_present (GTK_WINDOW (history_window (self, device)));
      return;
    }
  /* The drop-down's devices, from the entries the list holds (the
   * index): no file is read, nothing grouped again. */
  devices = _ds_library_window_devices (self);
  device = devices != NULL ? ds_library_device_of (devices, entry) : NULL;
  if (device == NULL)
    return;
  gtk_window_present (GTK_WINDOW (history_window (self, device)));
}

void
_ds_library_window_class_history_init (DsLibraryWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "library.history", NULL, history_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_h, GDK_CONTROL_MASK, "library.history", NULL);
}
