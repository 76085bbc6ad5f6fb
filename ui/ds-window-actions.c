/* ds-window-actions.c: the window's actions and their shortcuts
 *
 * Every action is installed on the window class (win.start, win.stop,
 * win.save-report, win.save-screenshot, win.save-graph, win.save-result,
 * win.open-result, win.copy-report, win.show-page, win.next-page, win.previous-page) with
 * its key binding, and _ds_window_update_actions() is the one place that
 * enables them.  The actions act on the visible page's kind through the
 * window's DsSession.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-error.h"
#include "ds-library-window.h"
#include "ds-window-private.h"

static DsBenchKind
visible_kind (DsWindow *self)
{
  const DsPageInfo *info = _ds_window_get_visible_info (self);

  return info != NULL ? info->kind : DS_BENCH_N_KINDS;
}

static const DsResult *
visible_result (DsWindow *self)
{
  return ds_session_get_result (self->session, visible_kind (self));
}

void
_ds_window_update_actions (DsWindow *self)
{
  DsBenchKind kind = visible_kind (self);
  DsPage *page = _ds_window_get_visible_page (self);
  gboolean running = _ds_window_is_running (self);
  gboolean has_result = visible_result (self) != NULL;
  gboolean can_start = (kind < DS_BENCH_N_KINDS &&
                        (self->device_path != NULL || !ds_session_kind_needs_device (kind))) ||
                       (page != NULL && ds_page_can_start (page));

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.start", !running && can_start);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-report", !running && has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-result", !running && has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-report", !running && has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-result", !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-graph",
                                 _ds_window_get_visible_graph (self) != NULL);

  /* The device is locked while a test runs, and means nothing to a page
   * that makes its own target (the File Benchmark tests a folder). */
  gtk_widget_set_sensitive (GTK_WIDGET (self->device_dropdown),
                            !running && !_ds_window_page_ignores_device (self));
}

/* ---- Start and stop (ds-window-start.c runs them) ---------------------- */

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autoptr(GError) error = NULL;

  if (!ds_window_start (self, &error))
    _ds_window_show_start_error (self, error->message);
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  _ds_window_stop (DS_WINDOW (widget));
}

/* ---- Pages ------------------------------------------------------------- */

/* Alt+1 … Alt+9 go to the pages by their place, as in GNOME's tabbed and
 * view-switcher apps; Ctrl+Page Up / Page Down step through all of them
 * and wrap around. */
static void
show_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  guint n_pages;
  const DsPageInfo *pages = ds_pages_get (&n_pages);
  int number = g_variant_get_int32 (param);

  if (number >= 1 && (guint) number <= n_pages)
    ds_window_set_page (DS_WINDOW (widget), pages[number - 1].name);
}

static void
step_page_action (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  guint n_pages;
  const DsPageInfo *pages = ds_pages_get (&n_pages);
  const DsPageInfo *visible = _ds_window_get_visible_info (self);
  guint index = visible != NULL ? (guint) (visible - pages) : 0;

  if (g_str_equal (action_name, "win.next-page"))
    index = (index + 1) % n_pages;
  else
    index = (index + n_pages - 1) % n_pages;

  ds_window_set_page (self, pages[index].name);
}

/* ---- Saving, opening, copying ----------------------------------------- */

typedef void (*ChosenFunc) (DsWindow   *self,
                            const char *path);

/* Where a file chooser opens: the folder used last for its kind of file
 * (@folder_key), else the user's Pictures (screenshots, graphs) or
 * Documents (reports, results) folder, else home. */
static GFile *
chooser_folder (DsWindow   *self,
                const char *folder_key)
{
  g_autofree char *last = g_settings_get_string (self->settings, folder_key);
  const char *special;

  if (last[0] != '\0' && g_file_test (last, G_FILE_TEST_IS_DIR))
    return g_file_new_for_path (last);

  special = g_get_user_special_dir (g_str_equal (folder_key, "screenshot-folder")
                                    ? G_USER_DIRECTORY_PICTURES : G_USER_DIRECTORY_DOCUMENTS);
  if (special != NULL && g_file_test (special, G_FILE_TEST_IS_DIR))
    return g_file_new_for_path (special);

  return g_file_new_for_path (g_get_home_dir ());
}

static void
chooser_response_cb (GtkFileChooserNative *chooser,
                     int                   response,
                     DsWindow             *self)
{
  ChosenFunc func = g_object_get_data (G_OBJECT (chooser), "ds-func");
  const char *folder_key = g_object_get_data (G_OBJECT (chooser), "ds-folder-key");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        {
          g_autofree char *folder = g_path_get_dirname (path);

          /* The next dialog of this kind opens here. */
          g_settings_set_string (self->settings, folder_key, folder);
          func (self, path);
        }
    }

  g_clear_object (&self->chooser);
}

/* @folder_key: the setting that remembers the folder ("screenshot-folder"
 * or "document-folder"; a static string). */
static void
choose_file (DsWindow             *self,
             GtkFileChooserAction  action,
             const char           *title,
             const char           *accept,
             const char           *suggested_name,
             const char           *mime_type,
             const char           *folder_key,
             ChosenFunc            func)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autoptr(GFile) folder = chooser_folder (self, folder_key);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  self->chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept, _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser), folder, NULL);
  if (suggested_name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), suggested_name);

  g_object_set_data (G_OBJECT (self->chooser), "ds-func", func);
  g_object_set_data (G_OBJECT (self->chooser), "ds-folder-key", (gpointer) folder_key);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* "diskscope-benchmark-loop0" + @suffix (".txt", "-graph.png") */
static char *
suggested_name (DsWindow   *self,
                const char *suffix)
{
  const DsResult *result = visible_result (self);
  const DsBenchOps *ops = ds_bench_get (visible_kind (self));
  const char *device = result && result->target.path ? result->target.path : self->device_path;
  g_autofree char *base = device ? g_path_get_basename (device) : g_strdup ("disk");

  return g_strdup_printf ("diskscope-%s-%s%s", ops ? ops->name : "info", base, suffix);
}

static void
save_report (DsWindow   *self,
             const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!ds_session_save_report (self->session, visible_kind (self), path, &error))
    _ds_window_toast (self, error->message);
  else
    _ds_window_toast (self, _("Report saved"));
}

static void
save_result (DsWindow   *self,
             const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!ds_session_save_result (self->session, visible_kind (self), path, &error))
    _ds_window_toast (self, error->message);
  else
    _ds_window_toast (self, _("Result saved"));
}

static void
save_screenshot (DsWindow   *self,
                 const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!ds_window_save_screenshot (self, path, &error))
    _ds_window_toast (self, error->message);
  else
    _ds_window_toast (self, _("Screenshot saved"));
}

static void
save_graph (DsWindow   *self,
            const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!ds_window_save_graph (self, path, &error))
    _ds_window_toast (self, error->message);
  else
    _ds_window_toast (self, _("Graph saved"));
}

static void
open_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(DsWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  /* The session has shown it already ("result-opened"). */
  ds_session_open_result_finish (DS_SESSION (object), result, &error);

  /* A newer open took over, with its own spinner. */
  if (g_task_get_cancellable (G_TASK (result)) != self->open_cancellable)
    return;

  gtk_spinner_stop (self->open_spinner);
  gtk_widget_set_visible (GTK_WIDGET (self->open_spinner), FALSE);
  g_clear_object (&self->open_cancellable);
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    _ds_window_toast (self, error->message);
}

/* Loads @path off the main thread, with a spinner in the header bar; a
 * newer open replaces this one. */
void
_ds_window_open_result (DsWindow   *self,
                        const char *path)
{
  if (self->open_cancellable != NULL)
    g_cancellable_cancel (self->open_cancellable);
  g_clear_object (&self->open_cancellable);
  self->open_cancellable = g_cancellable_new ();

  gtk_widget_set_visible (GTK_WIDGET (self->open_spinner), TRUE);
  gtk_spinner_start (self->open_spinner);
  ds_session_open_result_async (self->session, path, self->open_cancellable,
                                open_done_cb, g_object_ref (self));
}

static void
save_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autofree char *name = suggested_name (self, ".txt");

  choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, _("Save Report"), _("_Save"),
               name, "text/plain", "document-folder", save_report);
}

static void
save_result_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autofree char *name = suggested_name (self, ".json");

  choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, _("Save Result"), _("_Save"),
               name, "application/json", "document-folder", save_result);
}

static void
save_screenshot_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autofree char *name = suggested_name (self, ".png");

  choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, _("Save Screenshot"), _("_Save"),
               name, "image/png", "screenshot-folder", save_screenshot);
}

static void
save_graph_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autofree char *name = suggested_name (self, "-graph.png");

  choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, _("Save Graph"), _("_Save"),
               name, "image/png", "screenshot-folder", save_graph);
}

static void
open_result_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  choose_file (DS_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN, _("Open Result"), _("_Open"),
               NULL, "application/json", "document-folder", _ds_window_open_result);
}

static void
copy_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autofree char *text = ds_session_get_report (self->session, visible_kind (self), NULL);

  if (text == NULL)
    return;

  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  _ds_window_toast (self, _("Report copied"));
}

static void
library_open_result_cb (DsWindow   *self,
                        const char *path)
{
  gtk_window_present (GTK_WINDOW (self));
  /* As Open Result: not while a test runs (its page is in use). */
  if (ds_session_is_running (self->session))
    _ds_window_toast (self, _("Stop the test to open a saved result."));
  else
    _ds_window_open_result (self, path);
}

/* The results library: one window per main window, raised when open. */
static void
show_library_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);

  if (self->library_window == NULL)
    {
      self->library_window = GTK_WINDOW (ds_library_window_new (GTK_WINDOW (self), self->session));
      g_object_add_weak_pointer (G_OBJECT (self->library_window), (gpointer *) &self->library_window);
      g_signal_connect_object (self->library_window, "open-result",
                               G_CALLBACK (library_open_result_cb), self, G_CONNECT_SWAPPED);
    }
  gtk_window_present (self->library_window);
}

void
_ds_window_actions_dispose (DsWindow *self)
{
  if (self->library_window != NULL)
    {
      g_object_remove_weak_pointer (G_OBJECT (self->library_window), (gpointer *) &self->library_window);
      gtk_window_destroy (self->library_window);
      self->library_window = NULL;
    }

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  if (self->open_cancellable != NULL)
    g_cancellable_cancel (self->open_cancellable);
  g_clear_object (&self->open_cancellable);
}

void
_ds_window_class_actions_init (DsWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "win.save-report", NULL, save_report_action);
  gtk_widget_class_install_action (widget_class, "win.save-screenshot", NULL, save_screenshot_action);
  gtk_widget_class_install_action (widget_class, "win.save-graph", NULL, save_graph_action);
  gtk_widget_class_install_action (widget_class, "win.save-result", NULL, save_result_action);
  gtk_widget_class_install_action (widget_class, "win.open-result", NULL, open_result_action);
  gtk_widget_class_install_action (widget_class, "win.copy-report", NULL, copy_report_action);
  gtk_widget_class_install_action (widget_class, "win.show-page", "i", show_page_action);
  gtk_widget_class_install_action (widget_class, "win.next-page", NULL, step_page_action);
  gtk_widget_class_install_action (widget_class, "win.previous-page", NULL, step_page_action);
  gtk_widget_class_install_action (widget_class, "win.show-library", NULL, show_library_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.start", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save-report", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-screenshot", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_S, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-screenshot", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-graph", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_E, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.save-graph", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-result", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "win.copy-report", NULL);

  for (int number = 1; number <= 9; number++)
    gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0 + number, GDK_ALT_MASK,
                                         "win.show-page", "i", number);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Down, GDK_CONTROL_MASK,
                                       "win.next-page", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Page_Up, GDK_CONTROL_MASK,
                                       "win.previous-page", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_l, GDK_CONTROL_MASK, "win.show-library", NULL);
}
