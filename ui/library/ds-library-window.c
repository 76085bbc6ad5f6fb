/* ds-library-window.c: the results library, as a window
 *
 * Every run is saved in the library (ds_session_get_library()); this
 * window lists it as a table by label, device, size, kind, date, test and
 * tags, newest first or in the order of a clicked column, narrowed by the
 * search.  The selected results can be opened in the main window,
 * renamed and tagged, exported, compared (two or more of one kind:
 * ds-compare-window.c) or deleted.  A delete is undoable as GNOME apps do
 * it: the rows disappear at once and a toast offers Undo; the files go
 * only when the toast does (or the window closes).
 *
 * The library itself only changes on this thread; loading results for a
 * comparison or an export reads files on a worker (ds-library-tasks.c).
 * The table's columns are in ds-library-columns.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>
#include <sys/stat.h>

#include "ds-compare-window.h"
#include "ds-library-window-private.h"

G_DEFINE_FINAL_TYPE (DsLibraryWindow, ds_library_window, ADW_TYPE_WINDOW)

enum {
  OPEN_RESULT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* ---- Selection and actions ---------------------------------------------- */

GPtrArray *
_ds_library_window_selected (DsLibraryWindow *self)
{
  GPtrArray *entries = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GtkBitset) set = gtk_selection_model_get_selection (GTK_SELECTION_MODEL (self->selection));
  GtkBitsetIter iter;
  guint position;

  if (gtk_bitset_iter_init_first (&iter, set, &position))
    do
      g_ptr_array_add (entries, g_list_model_get_item (G_LIST_MODEL (self->selection), position));
    while (gtk_bitset_iter_next (&iter, &position));

  return entries;
}

/* The one selected entry when exactly one readable result is selected. */
DsLibraryEntry *
_ds_library_window_selected_one (DsLibraryWindow *self)
{
  g_autoptr(GPtrArray) entries = _ds_library_window_selected (self);

  if (entries->len != 1 || !ds_library_entry_is_readable (entries->pdata[0]))
    return NULL;
  return g_object_ref (entries->pdata[0]);
}

/* Two or more readable results of one kind. */
static gboolean
can_compare (GPtrArray *entries)
{
  if (entries->len < 2 || entries->len > DS_COMPARE_MAX_COLUMNS)
    return FALSE;

  for (guint i = 0; i < entries->len; i++)
    if (!ds_library_entry_is_readable (entries->pdata[i]) ||
        ds_library_entry_get_kind (entries->pdata[i]) != ds_library_entry_get_kind (entries->pdata[0]))
      return FALSE;

  return TRUE;
}

void
_ds_library_window_update_actions (DsLibraryWindow *self)
{
  g_autoptr(GPtrArray) entries = _ds_library_window_selected (self);
  gboolean one = entries->len == 1 && ds_library_entry_is_readable (entries->pdata[0]);
  guint n_items = g_list_model_get_n_items (G_LIST_MODEL (self->selection));
  g_autofree char *count = NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "library.open", one);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "library.edit", one);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "library.history",
                                 one || (entries->len == 0 && self->device_ids != NULL));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "library.export", one);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "library.delete", entries->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "library.compare",
                                 can_compare (entries) && self->compare_cancellable == NULL);

  if (entries->len > 0)
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u of %u selected",
                                          "%u of %u selected", n_items),
                             entries->len, n_items);
  else
    count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u result", "%u results", n_items),
                             n_items);
  gtk_label_set_text (self->count_label, count);

  if (n_items > 0)
    gtk_stack_set_visible_child_name (self->stack, "list");
  else
    {
      gboolean searching = *gtk_editable_get_text (GTK_EDITABLE (self->search_entry)) != '\0';

      adw_status_page_set_title (self->empty_page,
                                 searching ? _("No Results Found") : _("No Saved Results"));
      adw_status_page_set_description (self->empty_page,
                                       searching ? _("Try another label, device, tag or note.")
                                                 : _("Every test you run is kept here, to open "
                                                     "again and to compare."));
      gtk_stack_set_visible_child_name (self->stack, "empty");
    }
}

void
_ds_library_window_toast (DsLibraryWindow *self,
                          const char      *message)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  DsLibraryWindow *self = DS_LIBRARY_WINDOW (widget);
  g_autoptr(DsLibraryEntry) entry = _ds_library_window_selected_one (self);

  if (entry != NULL)
    g_signal_emit (self, signals[OPEN_RESULT], 0, ds_library_entry_get_path (entry));
}

static void
row_activated_cb (DsLibraryWindow *self,
                  guint            position)
{
  gtk_selection_model_select_item (GTK_SELECTION_MODEL (self->selection), position, TRUE);
  gtk_widget_activate_action (GTK_WIDGET (self), "library.open", NULL);
}

static void
compare_action (GtkWidget  *widget,
                const char *action_name,
                GVariant   *param)
{
  DsLibraryWindow *self = DS_LIBRARY_WINDOW (widget);
  g_autoptr(GPtrArray) entries = _ds_library_window_selected (self);

  if (!can_compare (entries))
    return;

  _ds_library_window_compare (self, entries);
}

/* ---- Delete, with undo -------------------------------------------------- */

static gboolean
filter_func (gpointer item,
             gpointer user_data)
{
  DsLibraryWindow *self = user_data;
  DsLibraryEntry *entry = item;
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->search_entry));

  if (g_hash_table_contains (self->deleting, ds_library_entry_get_id (entry)) ||
      !_ds_library_window_device_shows (self, entry))
    return FALSE;

  return *text == '\0' || ds_library_entry_matches (entry, text);
}

static void
commit_delete (DsLibraryWindow *self,
               const char      *id)
{
  g_autoptr(GError) error = NULL;

  if (!g_hash_table_remove (self->deleting, id))
    return;   /* undone, or done already */

  if (!ds_library_remove (self->library, id, &error))
    _ds_library_window_toast (self, error->message);
}

static void
toast_dismissed_cb (AdwToast        *toast,
                    DsLibraryWindow *self)
{
  char **ids = g_object_get_data (G_OBJECT (toast), "ids");

  for (guint i = 0; ids[i] != NULL; i++)
    commit_delete (self, ids[i]);
}

/* The toast's Undo: @param lists the ids its delete hid. */
static void
undo_delete_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DsLibraryWindow *self = DS_LIBRARY_WINDOW (widget);
  g_autofree const char **ids = g_variant_get_strv (param, NULL);

  for (guint i = 0; ids[i] != NULL; i++)
    g_hash_table_remove (self->deleting, ids[i]);
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_LESS_STRICT);
}

static void
delete_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *param)
{
  DsLibraryWindow *self = DS_LIBRARY_WINDOW (widget);
  g_autoptr(GPtrArray) entries = _ds_library_window_selected (self);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *title = NULL;
  AdwToast *toast;
  char **ids;

  if (entries->len == 0)
    return;

  for (guint i = 0; i < entries->len; i++)
    {
      const char *id = ds_library_entry_get_id (entries->pdata[i]);

      g_strv_builder_add (builder, id);
      g_hash_table_add (self->deleting, g_strdup (id));
    }
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_MORE_STRICT);

  if (entries->len == 1)
    title = g_strdup_printf (_("“%s” deleted"), ds_library_entry_get_label (entries->pdata[0]));
  else
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u result deleted",
                                          "%u results deleted", entries->len),
                             entries->len);

  toast = adw_toast_new (title);
  adw_toast_set_button_label (toast, _("_Undo"));
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  ids = g_strv_builder_end (builder);
  adw_toast_set_action_name (toast, "library.undo-delete");
  adw_toast_set_action_target_value (toast, g_variant_new_strv ((const char *const *) ids, -1));
  g_object_set_data_full (G_OBJECT (toast), "ids", ids, (GDestroyNotify) g_strfreev);
  g_signal_connect_object (toast, "dismissed", G_CALLBACK (toast_dismissed_cb), self, 0);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

void
ds_library_window_flush_deletes (DsLibraryWindow *self)
{
  g_autofree char **ids = NULL;

  g_return_if_fail (DS_IS_LIBRARY_WINDOW (self));

  ids = (char **) g_hash_table_get_keys_as_array (self->deleting, NULL);
  for (guint i = 0; ids[i] != NULL; i++)
    {
      g_autofree char *id = g_strdup (ids[i]);

      commit_delete (self, id);
    }
}

/* ---- Search and loading ------------------------------------------------- */

static void
search_changed_cb (DsLibraryWindow *self,
                   GtkSearchEntry  *entry)
{
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

void
ds_library_window_search (DsLibraryWindow *self,
                          const char      *text)
{
  g_return_if_fail (DS_IS_LIBRARY_WINDOW (self));

  gtk_editable_set_text (GTK_EDITABLE (self->search_entry), text);
  /* The entry waits a moment before "search-changed": filter now. */
  gtk_filter_changed (GTK_FILTER (self->filter), GTK_FILTER_CHANGE_DIFFERENT);
}

GtkSelectionModel *
ds_library_window_get_selection (DsLibraryWindow *self)
{
  g_return_val_if_fail (DS_IS_LIBRARY_WINDOW (self), NULL);

  return GTK_SELECTION_MODEL (self->selection);
}

static void
reload_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  DsLibraryWindow *self;

  if (!ds_library_reload_finish (DS_LIBRARY (object), result, &error) &&
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  self = DS_LIBRARY_WINDOW (user_data);
  self->reloading = FALSE;
  gtk_spinner_stop (self->spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), FALSE);
  if (error != NULL)
    _ds_library_window_toast (self, error->message);
}

static void
focus_search_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  gtk_widget_grab_focus (GTK_WIDGET (DS_LIBRARY_WINDOW (widget)->search_entry));
}

/* The folder's modification time (ns), 0 when it cannot be read: a file
 * added, removed or renamed there changes it. */
static gint64
dir_mtime_ns (DsLibraryWindow *self)
{
  struct stat st;

  if (stat (ds_library_get_dir (self->library), &st) < 0)
    return 0;
  return (gint64) st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

static void
reload (DsLibraryWindow *self)
{
  if (self->reloading)
    return;

  self->reloading = TRUE;
  self->dir_mtime_ns = dir_mtime_ns (self);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), TRUE);
  gtk_spinner_start (self->spinner);
  ds_library_reload_async (self->library, self->cancellable, reload_done_cb, self);
}

/* Back in the window: when the folder changed (the CLI, another window or
 * a colleague on a shared folder added or removed results), read it
 * again. */
static void
active_changed_cb (DsLibraryWindow *self)
{
  if (gtk_window_is_active (GTK_WINDOW (self)) && dir_mtime_ns (self) != self->dir_mtime_ns)
    reload (self);
}

static void
model_changed_cb (DsLibraryWindow *self)
{
  _ds_library_window_update_actions (self);
}

/* ---- Life cycle --------------------------------------------------------- */

static void
ds_library_window_dispose (GObject *object)
{
  DsLibraryWindow *self = (DsLibraryWindow *) object;

  if (self->deleting != NULL)
    ds_library_window_flush_deletes (self);
  g_cancellable_cancel (self->cancellable);
  if (self->compare_cancellable != NULL)
    g_cancellable_cancel (self->compare_cancellable);
  _ds_library_window_tasks_dispose (self);
  _ds_library_window_devices_dispose (self);
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_LIBRARY_WINDOW);

  g_clear_object (&self->selection);
  g_clear_object (&self->filter);
  g_clear_object (&self->session);
  g_clear_object (&self->library);

  G_OBJECT_CLASS (ds_library_window_parent_class)->dispose (object);
}

static void
ds_library_window_finalize (GObject *object)
{
  DsLibraryWindow *self = (DsLibraryWindow *) object;

  g_clear_pointer (&self->deleting, g_hash_table_unref);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (ds_library_window_parent_class)->finalize (object);
}

static void
ds_library_window_class_init (DsLibraryWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_library_window_dispose;
  object_class->finalize = ds_library_window_finalize;

  /**
   * DsLibraryWindow::open-result:
   * @path: the result file to show in the main window
   */
  signals[OPEN_RESULT] =
    g_signal_new ("open-result", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/diskscope/Diskscope/ui/ds-library-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DsLibraryWindow, search_entry);
  gtk_widget_class_bind_template_child (widget_class, DsLibraryWindow, device_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsLibraryWindow, spinner);
  gtk_widget_class_bind_template_child (widget_class, DsLibraryWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DsLibraryWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, DsLibraryWindow, column_view);
  gtk_widget_class_bind_template_child (widget_class, DsLibraryWindow, empty_page);
  gtk_widget_class_bind_template_child (widget_class, DsLibraryWindow, count_label);
  gtk_widget_class_bind_template_callback (widget_class, search_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);

  _ds_library_window_class_history_init (klass);
  gtk_widget_class_install_action (widget_class, "library.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "library.compare", NULL, compare_action);
  gtk_widget_class_install_action (widget_class, "library.delete", NULL, delete_action);
  gtk_widget_class_install_action (widget_class, "library.undo-delete", "as", undo_delete_action);
  gtk_widget_class_install_action (widget_class, "library.search", NULL, focus_search_action);
  _ds_library_window_class_tasks_init (klass);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Delete, 0, "library.delete", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "library.search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
ds_library_window_init (DsLibraryWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  /* Typing anywhere in the window searches. */
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));

  self->deleting = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->cancellable = g_cancellable_new ();
  _ds_library_window_add_columns (self);
}

DsLibraryWindow *
ds_library_window_new (GtkWindow *parent,
                       DsSession *session)
{
  DsLibraryWindow *self;
  GtkSortListModel *sorted;
  GtkFilterListModel *filtered;

  g_return_val_if_fail (DS_IS_SESSION (session), NULL);

  self = g_object_new (DS_TYPE_LIBRARY_WINDOW, "transient-for", parent, NULL);
  self->session = g_object_ref (session);
  self->library = g_object_ref (ds_session_get_library (session));

  self->filter = gtk_custom_filter_new (filter_func, self, NULL);
  filtered = gtk_filter_list_model_new (g_object_ref (G_LIST_MODEL (self->library)),
                                        g_object_ref (GTK_FILTER (self->filter)));
  sorted = gtk_sort_list_model_new (G_LIST_MODEL (filtered),
                                    g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  self->selection = gtk_multi_selection_new (G_LIST_MODEL (sorted));
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  g_signal_connect_swapped (self->selection, "items-changed", G_CALLBACK (model_changed_cb), self);
  g_signal_connect_swapped (self->selection, "selection-changed", G_CALLBACK (model_changed_cb), self);

  _ds_library_window_devices_init (self);
  reload (self);
  g_signal_connect (self, "notify::is-active", G_CALLBACK (active_changed_cb), NULL);
  _ds_library_window_update_actions (self);

  return self;
}
