/* ds-page.h: what the window asks of each page
 *
 * Which page runs which kind is in the page table (ds-pages.h), with how
 * to add a page.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#pragma once

#include <gtk/gtk.h>

#include "ds-bench.h"
#include "ds-device.h"
#include "ds-result.h"
#include "ds-units.h"

G_BEGIN_DECLS

#define DS_TYPE_PAGE (ds_page_get_type ())
G_DECLARE_INTERFACE (DsPage, ds_page, DS, PAGE, GtkWidget)

struct _DsPageInterface
{
  GTypeInterface parent_iface;

  /* The device the user picked (NULL: none). */
  void        (*set_device)   (DsPage            *self,
                               const DsDevice    *device);
  void        (*set_units)    (DsPage            *self,
                               DsUnits            units);
  /* Adds the page's own choices (read/write, folder) to @spec.  FALSE with
   * @error when the page cannot run yet (no folder chosen). */
  gboolean    (*configure)    (DsPage            *self,
                               DsBenchSpec       *spec,
                               GError           **error);
  /* A run starts: clear and get ready for samples. */
  void        (*begin)        (DsPage            *self,
                               const DsBenchSpec *spec);
  void        (*add_samples)  (DsPage            *self,
                               const DsSample    *samples,
                               guint              n_samples);
  /* A run ended, or a saved one was opened: show all of it (the page does
   * not keep @result).  The partial curve stays when it failed. */
  void        (*show_result)  (DsPage            *self,
                               const DsResult    *result);
  /* An error to show on the page (NULL hides it). */
  void        (*show_error)   (DsPage            *self,
                               const char        *message);

  /* Optional, for a page whose test is not a kind the session runs (the
   * Disk Monitor: DS_BENCH_N_KINDS in the page table): Start and Stop
   * reach the page itself.  start() begins on @device_path (NULL: none
   * picked); the page emits "finished" when it is over, however it ends.
   * A page that has start() must have stop() and is_running() too. */
  gboolean    (*start)        (DsPage            *self,
                               const char        *device_path,
                               GError           **error);
  void        (*stop)         (DsPage            *self);
  gboolean    (*is_running)   (DsPage            *self);
  /* Back to what a new page shows (an opened result was put away and no
   * run is behind it): no figures, no error.  Optional. */
  void        (*clear)        (DsPage            *self);
  /* Optional: a setting a script gives (diskscope --write, --preset NAME),
   * by its option's name without the dashes; @value is NULL for a switch.
   * The page sets its control as the user would.  FALSE with
   * G_OPTION_ERROR_BAD_VALUE for a value the control does not offer, and
   * with G_OPTION_ERROR_UNKNOWN_OPTION (ds_page_no_such_option()) for an
   * option that is not one of the page's settings. */
  gboolean    (*set_option)   (DsPage            *self,
                               const char        *option,
                               const char        *value,
                               GError           **error);
};

void        ds_page_set_device  (DsPage            *self,
                                 const DsDevice    *device);
void        ds_page_set_units   (DsPage            *self,
                                 DsUnits            units);
gboolean    ds_page_configure   (DsPage            *self,
                                 DsBenchSpec       *spec,
                                 GError           **error);
void        ds_page_begin       (DsPage            *self,
                                 const DsBenchSpec *spec);
void        ds_page_add_samples (DsPage            *self,
                                 const DsSample    *samples,
                                 guint              n_samples);
void        ds_page_show_result (DsPage            *self,
                                 const DsResult    *result);
void        ds_page_show_error  (DsPage            *self,
                                 const char        *message);
/* Whether the page runs a test of its own (start() above). */
gboolean    ds_page_can_start   (DsPage            *self);
gboolean    ds_page_start       (DsPage            *self,
                                 const char        *device_path,
                                 GError           **error);
void        ds_page_stop        (DsPage            *self);
gboolean    ds_page_is_running  (DsPage            *self);
void        ds_page_clear       (DsPage            *self);
gboolean    ds_page_set_option  (DsPage            *self,
                                 const char        *option,
                                 const char        *value,
                                 GError           **error);
/* For set_option(): @option is not one of the page's settings. */
gboolean    ds_page_no_such_option (const char     *option,
                                    GError        **error);
/* set_option() of a page whose one setting is its Read / Write switch:
 * --write presses @write_button. */
gboolean    ds_page_set_write_option (const char      *option,
                                      GtkToggleButton *write_button,
                                      GError         **error);

G_END_DECLS

G_BEGIN_DECLS

/* Tables of figures: a GtkGrid (style class "figures-table") whose row 0
 * holds the headings; cells are labels made on demand. */
void        ds_table_set_headings  (GtkGrid           *table,
                                    const char *const *headings);
/* @row counts from 1 (below the headings); @text NULL shows a dash. */
void        ds_table_set_cell      (GtkGrid           *table,
                                    guint              row,
                                    guint              column,
                                    const char        *text);
/* Shows a dash in every cell below the headings. */
void        ds_table_clear         (GtkGrid           *table);
/* Removes every row below the headings (for tables whose length varies). */
void        ds_table_remove_rows   (GtkGrid           *table);
/* Aligns every cell of @column made so far (the heading too): text
 * columns start-aligned, and the one that takes the spare width. */
void        ds_table_align_column  (GtkGrid           *table,
                                    guint              column,
                                    float              xalign,
                                    gboolean           expand);
/* Adds a style class to every cell of @row made so far ("failing",
 * "warning": style.css tints the row). */
void        ds_table_add_row_class (GtkGrid           *table,
                                    guint              row,
                                    const char        *css_class);

G_END_DECLS

G_BEGIN_DECLS

/* Rows of figures added to AdwPreferencesGroups, and taken away again:
 * @rows holds (group, row) pairs. */
/* "Title ........ value": the value selectable, wrapping only when the
 * row is too narrow; @css_class ("warning", "error") styles it. */
void        ds_rows_add_figure  (GPtrArray         *rows,
                                 gpointer           group,
                                 const char        *title,
                                 const char        *value,
                                 const char        *css_class);
void        ds_rows_remove_all  (GPtrArray         *rows);

/* A result's started_at (ISO 8601, UTC) as local time to the second, or
 * the text itself when it is not one. */
char       *ds_format_local_time (const char       *iso8601);
/* The x range of a result on a position axis: the span it measured, else
 * its target's size, else (a run refused before it opened its target,
 * such as "permission denied") the size of the device the page shows,
 * @device_size, if it is the result's @device_path. */
uint64_t    ds_page_result_span         (const DsResult *result,
                                         uint64_t        span_bytes,
                                         const char     *device_path,
                                         uint64_t        device_size);

/* For dispose: unparents what the template put inside @widget. */
void        ds_widget_unparent_children (GtkWidget *widget);

/* Pango markup for @format (translated, plain text, one "%s") with
 * @text in place of its "%s", kept on one line: a wrapping label breaks
 * between the words around it, never inside it ("/dev/" at the end of one
 * line and "loop11" on the next).  For paths and device names. */
char       *ds_markup_unbreakable       (const char *format,
                                         const char *text);

G_END_DECLS
