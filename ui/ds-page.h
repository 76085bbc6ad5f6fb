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
  /* Back to what a new page shows (an opened result was put away and no
   * run is behind it): no figures, no error.  Optional. */
  void        (*clear)        (DsPage            *self);
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
void        ds_page_clear       (DsPage            *self);

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

G_END_DECLS

G_BEGIN_DECLS

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
