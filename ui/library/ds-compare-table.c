/* ds-compare-table.c: a comparison's legend, tables and notes as widgets
 *
 * The legend names each result and says what makes its figures likely
 * fooled (its warnings, an icon and the sentence each).  The tables are
 * the CLI's (ds-compare-format.c) laid out in grids: one per section, a
 * row per figure, a column per result and a ratio column per result
 * after the first.  The better value of each row is bold and
 * marked "▲" (higher is better) or "▼" (lower is better), so the mark
 * does not depend on colour alone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-compare-window-private.h"
#include "ds-render.h"
#include "ds-warnings.h"

char *
_ds_compare_color (guint column)
{
  return g_strdup (ds_chart_series_color_name (column));
}

static GtkWidget *
cell (const char *text,
      float       xalign,
      const char *css_class)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  if (css_class != NULL)
    gtk_widget_add_css_class (label, css_class);
  return label;
}

static void
draw_key (GtkDrawingArea *area,
          cairo_t        *cr,
          int             width,
          int             height,
          gpointer        data)
{
  guint column = GPOINTER_TO_UINT (data);
  DsChartColor color = ds_chart_series_color (column);

  ds_chart_set_color (cr, &color, 1);
  ds_chart_series_key (cr, column, 2, height / 2.0, width - 4, 2);
}

/* A curve's key: its colour, line pattern and marker, as the graph
 * draws it; a bar's: a block of its colour (bars carry their letter). */
static GtkWidget *
swatch (guint    column,
        gboolean curves)
{
  g_autofree char *color = _ds_compare_color (column);
  g_autofree char *markup = g_strdup_printf ("<span foreground=\"%s\">■■</span>", color);
  GtkWidget *label;

  if (curves)
    {
      GtkWidget *area = gtk_drawing_area_new ();

      gtk_drawing_area_set_content_width (GTK_DRAWING_AREA (area), 32);
      gtk_drawing_area_set_content_height (GTK_DRAWING_AREA (area), 16);
      gtk_widget_set_valign (area, GTK_ALIGN_CENTER);
      gtk_drawing_area_set_draw_func (GTK_DRAWING_AREA (area), draw_key,
                                      GUINT_TO_POINTER (column), NULL);
      return area;
    }
  label = gtk_label_new (NULL);
  gtk_label_set_markup (GTK_LABEL (label), markup);
  return label;
}

/* What makes @result's figures likely fooled, a row each: the warning
 * icon and the sentence (never colour alone), the code its tooltip, as
 * the main window's bar shows them; NULL when nothing. */
static GtkWidget *
warnings_box (const DsResult *result)
{
  GtkWidget *box;

  if (result == NULL || result->warnings == NULL || result->warnings->len == 0)
    return NULL;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_name (box, "compare_warnings");
  gtk_widget_set_margin_top (box, 4);
  for (guint i = 0; i < result->warnings->len; i++)
    {
      const DsWarning *w = result->warnings->pdata[i];
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
      GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-warning-symbolic");
      GtkWidget *label = cell (w->message, 0, "warning-text");

      gtk_widget_set_valign (icon, GTK_ALIGN_START);
      gtk_widget_add_css_class (icon, "warning");
      gtk_accessible_update_property (GTK_ACCESSIBLE (icon), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      _("Warning"), -1);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
      gtk_label_set_natural_wrap_mode (GTK_LABEL (label), GTK_NATURAL_WRAP_NONE);
      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_set_tooltip_text (row, w->code);
      gtk_box_append (GTK_BOX (row), icon);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (GTK_BOX (box), row);
    }

  return box;
}

static void
access_toggled_cb (GtkCheckButton  *button,
                   DsCompareWindow *window)
{
  guint column = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "column"));

  ds_compare_window_set_show_access (window, column, gtk_check_button_get_active (button));
}

GtkWidget *
_ds_compare_legend_new (DsCompareWindow    *window,
                        const DsComparison *cmp,
                        gboolean            curves)
{
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);

  for (guint c = 0; c < cmp->columns->len; c++)
    {
      const DsCompareColumn *col = ds_comparison_get_column (cmp, c);
      char letter[2] = { col->letter, '\0' };
      GtkWidget *text = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *label = cell (col->label, 0, "heading");
      GtkWidget *warnings;

      gtk_grid_attach (GTK_GRID (grid), swatch (c, curves), 0, c, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), cell (letter, 0.5, "heading"), 1, c, 1, 1);
      gtk_box_append (GTK_BOX (text), label);
      gtk_box_append (GTK_BOX (text), cell (col->description, 0, "dim-label"));
      gtk_box_append (GTK_BOX (text), cell (col->source, 0, "dim-label"));
      /* A fooled figure beside a true one is the comparison's trap. */
      warnings = warnings_box (col->result);
      if (warnings != NULL)
        gtk_box_append (GTK_BOX (text), warnings);
      gtk_widget_set_hexpand (text, TRUE);
      gtk_grid_attach (GTK_GRID (grid), text, 2, c, 1, 1);

      if (curves)
        {
          GtkWidget *check = gtk_check_button_new_with_mnemonic (_("_Access times"));

          gtk_check_button_set_active (GTK_CHECK_BUTTON (check), TRUE);
          gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
          gtk_widget_set_tooltip_text (check, _("Show this run’s access-time dots on the graphs"));
          g_object_set_data (G_OBJECT (check), "column", GUINT_TO_POINTER (c));
          g_signal_connect_object (check, "toggled", G_CALLBACK (access_toggled_cb), window, 0);
          gtk_grid_attach (GTK_GRID (grid), check, 3, c, 1, 1);
        }
    }

  return grid;
}

static char *
row_title (const DsCompareRow *row)
{
  if (row->measure[0] == '\0')
    return g_strdup (row->name);
  return g_strdup_printf ("%s, %s", row->name, row->measure);
}

static GtkWidget *
value_cell (const DsCompareRow *row,
            guint               c,
            DsUnits             units)
{
  g_autofree char *value = ds_compare_format_value (row->unit, row->values[c], units);
  g_autofree char *marked = NULL;
  GtkWidget *label;

  if (row->best != (int) c)
    return cell (value, 1, "numeric");

  marked = g_strdup_printf ("%s %s", value, row->higher_is_better ? "▲" : "▼");
  label = cell (marked, 1, "numeric");
  gtk_widget_add_css_class (label, "heading");
  gtk_widget_add_css_class (label, "success");
  gtk_widget_set_tooltip_text (label, row->higher_is_better ? _("The best: higher is better")
                                                            : _("The best: lower is better"));
  return label;
}

static GtkWidget *
section_grid (const DsComparison *cmp,
              guint               first,
              guint               end,
              DsUnits             units)
{
  guint n = cmp->columns->len;
  GtkWidget *grid = gtk_grid_new ();

  gtk_grid_set_column_spacing (GTK_GRID (grid), 24);
  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  g_object_set (grid, "margin-start", 16, "margin-end", 16, "margin-top", 10, "margin-bottom", 10, NULL);

  /* The header: A, B, …, then B/A, C/A, … */
  for (guint c = 0; c < n; c++)
    {
      const DsCompareColumn *col = ds_comparison_get_column (cmp, c);
      char letter[2] = { col->letter, '\0' };
      GtkWidget *header = cell (letter, 1, "heading");

      gtk_widget_set_tooltip_text (header, col->label);
      gtk_grid_attach (GTK_GRID (grid), header, 1 + c, 0, 1, 1);
      if (c > 0)
        {
          g_autofree char *ratio = g_strdup_printf ("%c/%c", col->letter,
                                                    ds_comparison_get_column (cmp, 0)->letter);

          gtk_grid_attach (GTK_GRID (grid), cell (ratio, 1, "heading"), n + c, 0, 1, 1);
        }
    }

  for (guint r = first; r < end; r++)
    {
      const DsCompareRow *row = cmp->rows->pdata[r];
      g_autofree char *title = row_title (row);
      int y = 1 + r - first;

      gtk_grid_attach (GTK_GRID (grid), cell (title, 0, NULL), 0, y, 1, 1);
      for (guint c = 0; c < n; c++)
        {
          gtk_grid_attach (GTK_GRID (grid), value_cell (row, c, units), 1 + c, y, 1, 1);
          if (c > 0)
            {
              g_autofree char *ratio = ds_compare_format_ratio (ds_compare_row_ratio (row, c));

              gtk_grid_attach (GTK_GRID (grid), cell (ratio, 1, "dim-label"), n + c, y, 1, 1);
            }
        }
    }

  return grid;
}

GtkWidget *
_ds_compare_tables_new (const DsComparison *cmp,
                        DsUnits             units)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  guint first = 0;

  while (first < cmp->rows->len)
    {
      const char *section = ((DsCompareRow *) cmp->rows->pdata[first])->section;
      guint end = first;
      GtkWidget *frame = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
      GtkWidget *grid, *card;

      while (end < cmp->rows->len &&
             g_strcmp0 (((DsCompareRow *) cmp->rows->pdata[end])->section, section) == 0)
        end++;

      grid = section_grid (cmp, first, end, units);
      card = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
      gtk_widget_add_css_class (card, "card");
      gtk_widget_add_css_class (grid, "ds-compare-table");
      gtk_widget_set_halign (card, GTK_ALIGN_START);
      gtk_box_append (GTK_BOX (card), grid);
      gtk_box_append (GTK_BOX (frame), cell (section, 0, "heading"));
      gtk_box_append (GTK_BOX (frame), card);
      gtk_box_append (GTK_BOX (box), frame);
      first = end;
    }

  return box;
}

GtkWidget *
_ds_compare_notes_new (const DsComparison *cmp)
{
  GtkWidget *box;

  if (cmp->notes->len == 0)
    return NULL;

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_box_append (GTK_BOX (box), cell (_("Notes"), 0, "heading"));
  for (guint i = 0; i < cmp->notes->len; i++)
    {
      g_autofree char *text = g_strdup_printf ("• %s", (const char *) cmp->notes->pdata[i]);
      GtkWidget *label = cell (text, 0, "dim-label");

      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_box_append (GTK_BOX (box), label);
    }
  return box;
}
