/* ds-window.c: the main window
 *
 * A thin view.  The header bar holds the device drop-down (a DsDeviceList,
 * kept up to date from kernel uevents), the page switcher and Start/Stop;
 * the view stack holds one page per row of the page table (ds-pages.c).
 * What runs, what was measured and what is saved or opened belongs to the
 * window's DsSession: the window starts runs through it and shows what its
 * signals say on the pages.  Actions and shortcuts are in
 * ds-window-actions.c.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-file-page.h"
#include "ds-settings.h"
#include "ds-window-private.h"

G_DEFINE_FINAL_TYPE (DsWindow, ds_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  RUN_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

const DsPageInfo *
_ds_window_get_visible_info (DsWindow *self)
{
  const char *name = adw_view_stack_get_visible_child_name (self->view_stack);

  return ds_pages_lookup (name);
}

DsPage *
_ds_window_get_visible_page (DsWindow *self)
{
  GtkWidget *child = adw_view_stack_get_visible_child (self->view_stack);

  return child != NULL && DS_IS_PAGE (child) ? DS_PAGE (child) : NULL;
}

DsPage *
_ds_window_get_page (DsWindow    *self,
                     DsBenchKind  kind)
{
  const DsPageInfo *info = ds_pages_for_kind (kind);
  GtkWidget *child = info ? adw_view_stack_get_child_by_name (self->view_stack, info->name) : NULL;

  return child != NULL ? DS_PAGE (child) : NULL;
}

void
_ds_window_toast (DsWindow   *self,
                  const char *message)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

void
_ds_window_foreach_page (DsWindow *self,
              void    (*func) (DsWindow *self, DsPage *page, DsBenchKind kind))
{
  guint n_pages;
  const DsPageInfo *pages = ds_pages_get (&n_pages);

  for (guint i = 0; i < n_pages; i++)
    func (self, DS_PAGE (adw_view_stack_get_child_by_name (self->view_stack, pages[i].name)),
          pages[i].kind);
}

DsSession *
ds_window_get_session (DsWindow *self)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), NULL);

  return self->session;
}

/* ---- What the session says ------------------------------------------- */

static void
set_running_ui (DsWindow *self,
                gboolean  running)
{
  GtkWidget *button = GTK_WIDGET (self->start_button);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), running ? "win.stop" : "win.start");
  adw_button_content_set_label (self->start_content, running ? _("_Stop") : _("_Start"));
  adw_button_content_set_icon_name (self->start_content,
                                    running ? "media-playback-stop-symbolic"
                                            : "media-playback-start-symbolic");
  gtk_widget_set_tooltip_text (button, running ? _("Stop the Test (Escape)")
                                               : _("Start the Test (F5)"));
  if (running)
    {
      gtk_widget_remove_css_class (button, "suggested-action");
      gtk_widget_add_css_class (button, "destructive-action");
    }
  else
    {
      gtk_widget_remove_css_class (button, "destructive-action");
      gtk_widget_add_css_class (button, "suggested-action");
    }

  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->device_dropdown), !running);
}

static void
uninhibit (DsWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (self->inhibit_cookie != 0 && app != NULL)
    gtk_application_uninhibit (app, self->inhibit_cookie);
  self->inhibit_cookie = 0;
}

static void
running_changed_cb (DsWindow *self)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
  gboolean running = ds_session_is_running (self->session);

  set_running_ui (self, running);
  /* The drop-down is locked while a test runs: the list catches up after. */
  ds_device_list_set_frozen (self->devices, running);

  uninhibit (self);
  if (running && app != NULL)
    self->inhibit_cookie = gtk_application_inhibit (app, GTK_WINDOW (self),
                                                    GTK_APPLICATION_INHIBIT_SUSPEND,
                                                    _("A disk test is running"));

  _ds_window_update_actions (self);
}

static void
run_started_cb (DsWindow          *self,
                guint              kind,
                const DsBenchSpec *spec)
{
  DsPage *page = _ds_window_get_page (self, kind);

  if (page != NULL)
    ds_page_begin (page, spec);
}

static void
samples_cb (DsWindow *self,
            guint     kind,
            GArray   *samples)
{
  DsPage *page = _ds_window_get_page (self, kind);

  if (page != NULL)
    ds_page_add_samples (page, (const DsSample *) (gpointer) samples->data, samples->len);
  gtk_progress_bar_set_fraction (self->progress_bar, ds_session_get_progress (self->session));
}

static void
run_finished_cb (DsWindow       *self,
                 guint           kind,
                 const DsResult *result,
                 gboolean        success)
{
  DsPage *page = _ds_window_get_page (self, kind);

  if (page != NULL && result != NULL)
    ds_page_show_result (page, result);
  else if (page != NULL)
    ds_page_show_error (page, ds_session_get_last_error (self->session));

  /* A finished run speaks for itself (curve and figures); a stop does not
   * always show. */
  if (result != NULL && result->cancelled)
    _ds_window_toast (self, _("Test stopped"));

  _ds_window_update_actions (self);
  g_signal_emit (self, signals[RUN_FINISHED], 0, success);
}

static void
result_saved_cb (DsWindow       *self,
                 DsLibraryEntry *entry)
{
  if (entry == NULL)
    _ds_window_toast (self, ds_session_get_library_error (self->session));
}

static void
result_opened_cb (DsWindow *self,
                  guint     kind)
{
  DsPage *page = _ds_window_get_page (self, kind);

  if (page == NULL)
    {
      g_autofree char *message =
        g_strdup_printf (_("Results of “%s” runs have no page here."), ds_bench_get (kind)->name);

      _ds_window_toast (self, message);
      return;
    }

  adw_view_stack_set_visible_child (self->view_stack, GTK_WIDGET (page));
  ds_page_show_result (page, ds_session_get_result (self->session, kind));
  _ds_window_update_actions (self);
}

static void
set_page_units (DsWindow    *self,
                DsPage      *page,
                DsBenchKind  kind)
{
  const DsResult *result = ds_session_get_result (self->session, kind);

  ds_page_set_units (page, ds_session_get_units (self->session));
  /* Figures already shown are shown again in the new unit. */
  if (result != NULL && kind != ds_session_get_running_kind (self->session))
    ds_page_show_result (page, result);
}

static void
units_changed_cb (DsWindow *self)
{
  _ds_window_foreach_page (self, set_page_units);
}

/* ---- Pages ------------------------------------------------------------- */

static void
visible_page_changed_cb (DsWindow     *self,
                         GParamSpec   *pspec,
                         AdwViewStack *stack)
{
  const char *name = adw_view_stack_get_visible_child_name (stack);

  if (name != NULL && gtk_widget_get_realized (GTK_WIDGET (self)))
    g_settings_set_string (self->settings, "last-page", name);

  _ds_window_update_actions (self);
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
add_pages (DsWindow *self)
{
  guint n_pages;
  const DsPageInfo *pages = ds_pages_get (&n_pages);

  for (guint i = 0; i < n_pages; i++)
    {
      GtkWidget *page = g_object_new (pages[i].get_type (), NULL);
      AdwViewStackPage *stack_page;

      g_assert (DS_IS_PAGE (page));
      stack_page = adw_view_stack_add_titled (self->view_stack, page, pages[i].name,
                                              _(pages[i].title));
      adw_view_stack_page_set_icon_name (stack_page, pages[i].icon_name);
    }

  g_settings_bind (self->settings, "file-size", _ds_window_get_page (self, DS_BENCH_FILE),
                   "file-size", G_SETTINGS_BIND_GET);
}

gboolean
ds_window_save_screenshot (DsWindow    *self,
                           const char  *path,
                           GError     **error)
{
  GtkWidget *content;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  GskRenderer *renderer;
  GdkRGBA background;
  int width, height;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  /* The page (graph, figures, table) as the user sees it: not the header
   * bar, the switcher or the window's frame. */
  content = adw_view_stack_get_visible_child (self->view_stack);
  if (content == NULL)
    content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (self));
  width = gtk_widget_get_width (content);
  height = gtk_widget_get_height (content);
  renderer = gtk_native_get_renderer (GTK_NATIVE (self));

  if (width <= 0 || height <= 0 || renderer == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_INITIALIZED,
                           _("The window is not shown yet."));
      return FALSE;
    }

  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (self)),
                                       "window_bg_color", &background))
    gdk_rgba_parse (&background, "#fafafa");

  /* As the user sees it: the window's background, then the page. */
  paintable = gtk_widget_paintable_new (content);
  snapshot = gtk_snapshot_new ();
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);

  texture = gsk_renderer_render_texture (renderer, node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));

  if (!gdk_texture_save_to_png (texture, path))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   _("Could not write the screenshot to %s."), path);
      return FALSE;
    }

  return TRUE;
}

/* ---- Life cycle -------------------------------------------------------- */

static gboolean
ds_window_close_request (GtkWindow *window)
{
  DsWindow *self = DS_WINDOW (window);
  int width, height;

  /* Stop the run and wait for its thread (it stops within 100 ms). */
  ds_session_stop_and_wait (self->session);

  gtk_window_get_default_size (window, &width, &height);
  if (!gtk_window_is_maximized (window) && width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }

  return GTK_WINDOW_CLASS (ds_window_parent_class)->close_request (window);
}

static void
ds_window_dispose (GObject *object)
{
  DsWindow *self = (DsWindow *) object;

  /* The run's callback holds the session, not the window: nothing it
   * says reaches the window after this. */
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      ds_session_stop_and_wait (self->session);
      g_clear_object (&self->session);
    }
  uninhibit (self);
  _ds_window_actions_dispose (self);

  if (self->devices != NULL)
    g_signal_handlers_disconnect_by_data (self->devices, self);

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_WINDOW);

  g_clear_object (&self->devices);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ds_window_parent_class)->dispose (object);
}

static void
ds_window_finalize (GObject *object)
{
  DsWindow *self = (DsWindow *) object;

  g_clear_pointer (&self->device_path, g_free);

  G_OBJECT_CLASS (ds_window_parent_class)->finalize (object);
}

static void
ds_window_class_init (DsWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = ds_window_dispose;
  object_class->finalize = ds_window_finalize;
  window_class->close_request = ds_window_close_request;

  /**
   * DsWindow::run-finished:
   * @success: the run completed without an error
   *
   * After the page shows the result (or the error).
   */
  signals[RUN_FINISHED] =
    g_signal_new ("run-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DsWindow, device_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, open_spinner);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, start_button);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, start_content);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, progress_bar);
  gtk_widget_class_bind_template_callback (widget_class, visible_page_changed_cb);

  _ds_window_class_actions_init (klass);
}

static void
ds_window_init (DsWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *page = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  /* The application checked for the schema before any window opens. */
  self->settings = ds_settings_new (NULL, &error);
  if (self->settings == NULL)
    g_error ("%s", error->message);
  self->session = ds_session_new (self->settings);
  self->devices = ds_device_list_new ();

  g_signal_connect_object (self->session, "notify::running",
                           G_CALLBACK (running_changed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "run-started",
                           G_CALLBACK (run_started_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "samples",
                           G_CALLBACK (samples_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "run-finished",
                           G_CALLBACK (run_finished_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "result-saved",
                           G_CALLBACK (result_saved_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "result-opened",
                           G_CALLBACK (result_opened_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::units",
                           G_CALLBACK (units_changed_cb), self, G_CONNECT_SWAPPED);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));

  add_pages (self);
  units_changed_cb (self);

  page = g_settings_get_string (self->settings, "last-page");
  ds_window_set_page (self, page);

  _ds_window_devices_init (self);

  set_running_ui (self, FALSE);
  _ds_window_update_actions (self);
}

DsWindow *
ds_window_new (AdwApplication *application)
{
  return g_object_new (DS_TYPE_WINDOW, "application", application, NULL);
}
