/* ds-graph-a11y.c: what a graph says to a screen reader
 *
 * A graph is an image (GTK_ACCESSIBLE_ROLE_IMG): its label names what it
 * plots ("Read, Access time by Position (GB)"), its description the
 * numbers of each layer ("Read: 200 points from 24.9 to 6056.7 MB/s").
 * The table beside it has the averages; this says what the picture
 * shows.  ds-graph.c updates it at most twice a second while a run draws.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-graph-private.h"

void
_ds_graph_describe (DsGraph           *self,
                    GPtrArray         *layers,
                    const DsGraphAxes *axes)
{
  g_autoptr (GString) label = g_string_new (NULL);
  g_autoptr (GString) description = g_string_new (NULL);
  DsGraphPlot plot = { 0 };
  DsGraphSteps steps;

  _ds_graph_axes_scale (axes, layers, &plot, &steps);

  for (guint i = 0; i < layers->len; i++)
    {
      DsGraphLayer *layer = layers->pdata[i];
      DsSeries *series = ds_graph_layer_get_series (layer);
      DsGraphSide side = ds_graph_layer_get_y_axis (layer);
      const char *title = ds_graph_layer_get_title (layer);
      double factor = plot.y_factor[side];
      guint n;

      if (title == NULL)
        continue;
      g_string_append_printf (label, "%s%s", label->len > 0 ? ", " : "", title);

      n = series != NULL ? ds_series_get_n_points (series) : 0;
      if (n == 0)
        continue;
      if (description->len > 0)
        g_string_append (description, "; ");
      g_string_append_printf (description,
                                g_dngettext (GETTEXT_PACKAGE, "%s: %u point from %.4g to %.4g %s",
                                             "%s: %u points from %.4g to %.4g %s", n),
                                title, n, ds_series_get_min_y (series) * factor,
                                ds_series_get_max_y (series) * factor,
                                _ds_graph_axes_unit (axes, side));
    }

  if (description->len == 0)
    g_string_append (description, _("No points yet"));
  if (label->len > 0)
    g_string_append_printf (label, _(" by %s"), _ds_graph_axes_x_title (axes));

  gtk_accessible_update_property (GTK_ACCESSIBLE (self),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label->str,
                                  GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description->str,
                                  -1);
}
