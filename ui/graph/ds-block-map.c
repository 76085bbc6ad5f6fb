/* ds-block-map.c: the Error Scan's block map
 *
 * HD Tune's grid of squares, one per stretch of the disk, coloured by how
 * its blocks read: not yet, quickly (three shades of the theme's success
 * colour, by MHDD's < 5, < 20 and < 50 ms), slowly (the warning colour
 * from 150 ms on) or not at all (the error colour).  Colour is never the
 * only sign: slow squares carry a dot (< 500 ms) or a bar (>= 500 ms) and
 * failed ones a cross, and the page's legend counts each state in words.
 *
 * As a graph layer draws a DsSeries, the map draws one: a point per cell
 * read (x = the cell, y = its DsScanCell), so the data stays with the page
 * and the map only keeps what it derives to draw fast.  The squares are as
 * large as the widget allows (from MIN_SIDE to MAX_SIDE pixels); when even
 * MIN_SIDE cannot hold a square per cell, each square shows the worst of
 * several cells.  Hovering a square tells its byte range and state.
 * How each state looks (and is called) is in ds-block-map-look.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n.h>
#include <math.h>
#include <string.h>

#include "ds-block-map-private.h"
#include "ds-graph.h"

#define MIN_SIDE 10
#define MAX_SIDE 28
#define GAP      2

struct _DsBlockMap
{
  GtkWidget  parent_instance;

  DsSeries  *series;
  gulong     changed_id;
  guint      applied;       /* series points already in cells */
  GByteArray *cells;        /* DsScanCell per cell */
  uint64_t   start_bytes;
  uint64_t   cell_bytes;
  uint64_t   end_bytes;

  /* The last frame's layout (for tooltips and tests). */
  guint      per_square;
  guint      n_columns;
  double     side;
  double     origin_x;
};

G_DEFINE_FINAL_TYPE (DsBlockMap, ds_block_map, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SERIES,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ---- Cells ------------------------------------------------------------- */

/* Brings the cells up to the series: points are only appended while a
 * scan runs, so only the new ones are applied; a cleared series starts
 * over. */
static void
apply_series (DsBlockMap *self)
{
  const DsSeriesPoint *points;
  guint n_points;

  if (self->series == NULL)
    return;

  n_points = ds_series_get_n_points (self->series);
  if (n_points < self->applied)
    {
      memset (self->cells->data, DS_SCAN_UNREAD, self->cells->len);
      self->applied = 0;
    }

  points = ds_series_get_points (self->series);
  for (guint i = self->applied; i < n_points; i++)
    {
      double x = points[i].x;
      guint state = (guint) CLAMP (points[i].y, DS_SCAN_UNREAD, DS_SCAN_ERROR);

      if (points[i].error != 0)
        state = DS_SCAN_ERROR;
      if (x >= 0 && x < self->cells->len)
        self->cells->data[(guint) x] = MAX (self->cells->data[(guint) x], state);
    }
  self->applied = n_points;
}

static void
series_changed_cb (DsBlockMap *self)
{
  apply_series (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* The largest square side (MIN_SIDE..MAX_SIDE) at which @n squares fit in
 * @width × @height, or 0 when not even MIN_SIDE does. */
static double
fit_side (int   width,
          int   height,
          guint n)
{
  for (int side = MAX_SIDE; side >= MIN_SIDE; side--)
    {
      guint columns = (guint) ((width + GAP) / (side + GAP));
      guint rows = (guint) ((height + GAP) / (side + GAP));

      if ((guint64) columns * rows >= n)
        return side;
    }

  return 0;
}

static void
layout (DsBlockMap *self,
        int         width,
        int         height,
        guint      *ret_n_squares)
{
  guint n_cells = self->cells->len;
  guint per_square = 1;
  double side = fit_side (width, height, n_cells);

  if (side == 0)
    {
      guint columns = (guint) MAX ((width + GAP) / (MIN_SIDE + GAP), 1);
      guint rows = (guint) MAX ((height + GAP) / (MIN_SIDE + GAP), 1);

      per_square = (n_cells + columns * rows - 1) / (columns * rows);
      side = fit_side (width, height, (n_cells + per_square - 1) / per_square);
      if (side == 0)
        side = MIN_SIDE;
    }

  self->per_square = per_square;
  self->side = side;
  self->n_columns = (guint) MAX ((width + GAP) / (side + GAP), 1);
  *ret_n_squares = (n_cells + per_square - 1) / per_square;
  /* Centred across, from the top. */
  self->origin_x = floor (MAX (0, (width - (MIN (self->n_columns, *ret_n_squares) * (side + GAP) - GAP)) / 2));
}

static DsScanCell
square_state (DsBlockMap *self,
              guint       square)
{
  guint first = square * self->per_square;
  guint last = MIN (first + self->per_square, self->cells->len);
  guint8 worst = DS_SCAN_UNREAD;

  for (guint i = first; i < last; i++)
    worst = MAX (worst, self->cells->data[i]);

  return (DsScanCell) worst;
}

static void
ds_block_map_snapshot (GtkWidget   *widget,
                       GtkSnapshot *snapshot)
{
  DsBlockMap *self = DS_BLOCK_MAP (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  GdkRGBA colors[DS_BLOCK_MAP_N_STATES];
  g_autofree guint8 *states = NULL;
  guint n_squares;
  cairo_t *cr;

  if (self->cells->len == 0 || width < MIN_SIDE || height < MIN_SIDE)
    return;

  layout (self, width, height, &n_squares);
  for (guint s = 0; s < DS_BLOCK_MAP_N_STATES; s++)
    ds_block_map_state_color (widget, s, &colors[s]);

  states = g_malloc (n_squares);
  for (guint q = 0; q < n_squares; q++)
    states[q] = square_state (self, q);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));

  /* One fill per state, then the marks over them. */
  for (guint s = 0; s < DS_BLOCK_MAP_N_STATES; s++)
    {
      gboolean any = FALSE;

      for (guint q = 0; q < n_squares; q++)
        if (states[q] == s)
          {
            cairo_rectangle (cr, self->origin_x + (q % self->n_columns) * (self->side + GAP),
                             (q / self->n_columns) * (self->side + GAP), self->side, self->side);
            any = TRUE;
          }
      if (any)
        {
          gdk_cairo_set_source_rgba (cr, &colors[s]);
          cairo_fill (cr);
        }
    }

  for (guint q = 0; q < n_squares; q++)
    if (ds_block_map_state_has_mark (states[q]))
      ds_block_map_draw_mark (widget, cr, states[q],
                              self->origin_x + (q % self->n_columns) * (self->side + GAP),
                              (q / self->n_columns) * (self->side + GAP), self->side);

  cairo_destroy (cr);
}

static gboolean
ds_block_map_query_tooltip (GtkWidget  *widget,
                            int         x,
                            int         y,
                            gboolean    keyboard,
                            GtkTooltip *tooltip)
{
  DsBlockMap *self = DS_BLOCK_MAP (widget);
  guint column, row, square, first, last;
  g_autofree char *from = NULL;
  g_autofree char *to = NULL;
  g_autofree char *text = NULL;
  uint64_t start, end;

  if (self->cells->len == 0 || self->side <= 0 || x < self->origin_x)
    return FALSE;

  column = (guint) ((x - self->origin_x) / (self->side + GAP));
  row = (guint) (y / (self->side + GAP));
  if (column >= self->n_columns)
    return FALSE;
  square = row * self->n_columns + column;
  first = square * self->per_square;
  if (first >= self->cells->len)
    return FALSE;
  last = MIN (first + self->per_square, self->cells->len);

  start = self->start_bytes + (uint64_t) first * self->cell_bytes;
  end = MIN (self->start_bytes + (uint64_t) last * self->cell_bytes, self->end_bytes);
  /* A square is often less than a thousandth of a GB: its place in GB,
   * then its exact bytes, as the list of bad ranges gives them. */
  from = g_strdup_printf ("%.3f", start / 1e9);
  to = g_strdup_printf ("%" G_GUINT64_FORMAT, start);
  /* Translators: where a square of the map starts (GB), its first byte,
   * its length in bytes, then how it read */
  text = g_strdup_printf (_("At %s GB: offset %s, %" PRIu64 " bytes: %s"), from, to,
                          end - start, ds_block_map_state_label (square_state (self, square)));
  gtk_tooltip_set_text (tooltip, text);

  return TRUE;
}

static void
ds_block_map_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  *minimum = 8 * (MIN_SIDE + GAP);
  *natural = 40 * (MIN_SIDE + GAP);
}

/* ---- API --------------------------------------------------------------- */

DsSeries *
ds_block_map_get_series (DsBlockMap *self)
{
  g_return_val_if_fail (DS_IS_BLOCK_MAP (self), NULL);

  return self->series;
}

void
ds_block_map_set_series (DsBlockMap *self,
                         DsSeries   *series)
{
  g_return_if_fail (DS_IS_BLOCK_MAP (self));
  g_return_if_fail (series == NULL || DS_IS_SERIES (series));

  if (self->series == series)
    return;

  if (self->series != NULL)
    g_clear_signal_handler (&self->changed_id, self->series);
  g_set_object (&self->series, series);
  if (series != NULL)
    self->changed_id = g_signal_connect_swapped (series, "changed",
                                                 G_CALLBACK (series_changed_cb), self);

  if (self->cells->len > 0)
    memset (self->cells->data, DS_SCAN_UNREAD, self->cells->len);
  self->applied = 0;
  apply_series (self);

  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SERIES]);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
ds_block_map_set_geometry (DsBlockMap *self,
                           guint       n_cells,
                           uint64_t    start_bytes,
                           uint64_t    cell_bytes,
                           uint64_t    end_bytes)
{
  g_return_if_fail (DS_IS_BLOCK_MAP (self));

  if (self->cells->len != n_cells)
    {
      g_byte_array_set_size (self->cells, n_cells);
      memset (self->cells->data, DS_SCAN_UNREAD, n_cells);
      self->applied = 0;
      apply_series (self);
    }
  self->start_bytes = start_bytes;
  self->cell_bytes = cell_bytes;
  self->end_bytes = end_bytes;

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

guint
ds_block_map_get_n_cells (DsBlockMap *self)
{
  g_return_val_if_fail (DS_IS_BLOCK_MAP (self), 0);

  return self->cells->len;
}

DsScanCell
ds_block_map_get_cell (DsBlockMap *self,
                       guint       cell)
{
  g_return_val_if_fail (DS_IS_BLOCK_MAP (self), DS_SCAN_UNREAD);
  g_return_val_if_fail (cell < self->cells->len, DS_SCAN_UNREAD);

  return (DsScanCell) self->cells->data[cell];
}

gboolean
ds_block_map_get_cell_area (DsBlockMap   *self,
                            guint         cell,
                            GdkRectangle *ret_area)
{
  guint square;

  g_return_val_if_fail (DS_IS_BLOCK_MAP (self), FALSE);

  if (self->side <= 0 || cell >= self->cells->len)
    return FALSE;

  square = cell / MAX (self->per_square, 1);
  ret_area->x = (int) (self->origin_x + (square % self->n_columns) * (self->side + GAP));
  ret_area->y = (int) ((square / self->n_columns) * (self->side + GAP));
  ret_area->width = ret_area->height = (int) self->side;
  return TRUE;
}

guint
ds_block_map_get_cells_per_square (DsBlockMap *self)
{
  g_return_val_if_fail (DS_IS_BLOCK_MAP (self), 1);

  return MAX (self->per_square, 1);
}

/* ---- Life cycle -------------------------------------------------------- */

static void
ds_block_map_dispose (GObject *object)
{
  ds_block_map_set_series (DS_BLOCK_MAP (object), NULL);

  G_OBJECT_CLASS (ds_block_map_parent_class)->dispose (object);
}

static void
ds_block_map_finalize (GObject *object)
{
  DsBlockMap *self = (DsBlockMap *) object;

  g_clear_pointer (&self->cells, g_byte_array_unref);

  G_OBJECT_CLASS (ds_block_map_parent_class)->finalize (object);
}

static void
ds_block_map_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  DsBlockMap *self = DS_BLOCK_MAP (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      g_value_set_object (value, self->series);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_block_map_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  DsBlockMap *self = DS_BLOCK_MAP (object);

  switch (prop_id)
    {
    case PROP_SERIES:
      ds_block_map_set_series (self, g_value_get_object (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
ds_block_map_class_init (DsBlockMapClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_block_map_dispose;
  object_class->finalize = ds_block_map_finalize;
  object_class->get_property = ds_block_map_get_property;
  object_class->set_property = ds_block_map_set_property;

  widget_class->snapshot = ds_block_map_snapshot;
  widget_class->measure = ds_block_map_measure;
  widget_class->query_tooltip = ds_block_map_query_tooltip;

  properties[PROP_SERIES] =
    g_param_spec_object ("series", NULL, NULL, DS_TYPE_SERIES,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "blockmap");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
ds_block_map_init (DsBlockMap *self)
{
  self->cells = g_byte_array_new ();
  self->per_square = 1;
  gtk_widget_set_has_tooltip (GTK_WIDGET (self), TRUE);
}

GtkWidget *
ds_block_map_new (void)
{
  return g_object_new (DS_TYPE_BLOCK_MAP, NULL);
}
