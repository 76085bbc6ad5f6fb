/* ds-window-pages.c: the window's pages: the list beside them, the one
 * shown, the page a script or the last session asks for
 *
 * A page's widgets are made when it is first shown or first needed (a
 * result opened on it, a run of its kind): until then the view stack holds
 * an empty AdwBin under the page's name, title and icon, so the switcher
 * and the list show every page while only those visited cost memory.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include "ds-caption.h"
#include "ds-file-page.h"
#include "ds-save.h"
#include "ds-settings.h"
#include "ds-tab-stop.h"
#include "ds-warnings-bar.h"
#include "ds-window-private.h"

void
_ds_window_visible_page_changed_cb (DsWindow     *self,
                                    GParamSpec   *pspec,
                                    AdwViewStack *stack)
{
  const char *name = adw_view_stack_get_visible_child_name (stack);

  /* Not while the window is being built: the stack shows its first page
   * until the last session's page is chosen. */
  if (name != NULL && self->pages_added)
    _ds_window_ensure_page (self, name);
  if (name != NULL && gtk_widget_get_realized (GTK_WIDGET (self)))
    g_settings_set_string (self->settings, "last-page", name);

  /* The list follows the page, whoever changed it (keys, actions, the
   * command line). */
  for (GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->page_list, 0); row != NULL;
       row = GTK_LIST_BOX_ROW (gtk_widget_get_next_sibling (GTK_WIDGET (row))))
    if (g_strcmp0 (gtk_widget_get_name (GTK_WIDGET (row)), name) == 0 &&
        gtk_list_box_get_selected_row (self->page_list) != row)
      gtk_list_box_select_row (self->page_list, row);

  _ds_window_update_opened (self);
  _ds_window_update_actions (self);
}

void
_ds_window_page_row_selected_cb (DsWindow      *self,
                                 GtkListBoxRow *row,
                                 GtkListBox    *list)
{
  if (row != NULL)
    adw_view_stack_set_visible_child_name (self->view_stack,
                                           gtk_widget_get_name (GTK_WIDGET (row)));
}

gboolean
ds_window_set_page (DsWindow   *self,
                    const char *name)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  if (name == NULL || adw_view_stack_get_child_by_name (self->view_stack, name) == NULL)
    return FALSE;

  adw_view_stack_set_visible_child_name (self->view_stack, name);
  return TRUE;
}

gboolean
ds_window_set_folder (DsWindow    *self,
                      const char  *path,
                      GError     **error)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("%s is not a folder."), path);
      return FALSE;
    }

  ds_file_page_set_folder (DS_FILE_PAGE (_ds_window_get_page (self, DS_BENCH_FILE)), path);
  _ds_window_update_actions (self);
  return TRUE;
}

static void
add_page_row (DsWindow         *self,
              const DsPageInfo *info)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *label = gtk_label_new (_(info->title));

  gtk_widget_set_name (row, info->name);
  gtk_box_append (GTK_BOX (box), gtk_image_new_from_icon_name (info->icon_name));
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_box_append (GTK_BOX (box), label);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  gtk_list_box_append (self->page_list, row);
}

/* The page named @name, made now if it was not yet: with what the window
 * knows (units, device, the session's result of its kind). */
DsPage *
_ds_window_ensure_page (DsWindow   *self,
                        const char *name)
{
  const DsPageInfo *info = ds_pages_lookup (name);
  GtkWidget *bin = name ? adw_view_stack_get_child_by_name (self->view_stack, name) : NULL;
  GtkWidget *page;

  if (info == NULL || bin == NULL)
    return NULL;
  page = adw_bin_get_child (ADW_BIN (bin));
  if (page != NULL)
    return DS_PAGE (page);

  page = g_object_new (info->get_type (), NULL);
  g_assert (DS_IS_PAGE (page));
  g_signal_connect_object (page, "finished", G_CALLBACK (_ds_window_page_finished_cb), self,
                           G_CONNECT_SWAPPED);
  adw_bin_set_child (ADW_BIN (bin), page);
  /* The page of a kind that makes a test file shows the preference's
   * size (the session puts it in the spec). */
  if (ds_bench_get (info->kind) != NULL && ds_bench_get (info->kind)->file_size != NULL)
    g_settings_bind (self->settings, "file-size", page, "file-size", G_SETTINGS_BIND_GET);
  _ds_window_page_made (self, DS_PAGE (page), info->kind);
  return DS_PAGE (page);
}

/* The page named @name if it was made, or NULL. */
DsPage *
_ds_window_peek_page (DsWindow   *self,
                      const char *name)
{
  GtkWidget *bin = name ? adw_view_stack_get_child_by_name (self->view_stack, name) : NULL;
  GtkWidget *page = bin ? adw_bin_get_child (ADW_BIN (bin)) : NULL;

  return page != NULL ? DS_PAGE (page) : NULL;
}

GtkWidget *
ds_window_get_page_widget (DsWindow   *self,
                           const char *name)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), NULL);

  return (GtkWidget *) _ds_window_ensure_page (self, name);
}

void
_ds_window_add_pages (DsWindow *self)
{
  guint n_pages;
  const DsPageInfo *pages = ds_pages_get (&n_pages);

  for (guint i = 0; i < n_pages; i++)
    {
      AdwViewStackPage *stack_page = adw_view_stack_add_titled (self->view_stack, adw_bin_new (),
                                                                pages[i].name, _(pages[i].title));

      adw_view_stack_page_set_icon_name (stack_page, pages[i].icon_name);
      add_page_row (self, &pages[i]);
    }
  self->pages_added = TRUE;
}
