/* ds-window.c: the main window
 *
 * A thin view.  The header bar holds the device drop-down (a DsDeviceList,
 * kept up to date from kernel uevents), the page list and Start/Stop;
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

#include "ds-caption.h"
#include "ds-file-page.h"
#include "ds-save.h"
#include "ds-run-progress.h"
#include "ds-settings.h"
#include "ds-tab-stop.h"
#include "ds-warnings-bar.h"
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
  return _ds_window_peek_page (self, adw_view_stack_get_visible_child_name (self->view_stack));
}

DsPage *
_ds_window_get_page (DsWindow    *self,
                     DsBenchKind  kind)
{
  const DsPageInfo *info = ds_pages_for_kind (kind);

  return info != NULL ? _ds_window_ensure_page (self, info->name) : NULL;
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
    {
      /* Pages never shown are made with what the window knows then. */
      DsPage *page = _ds_window_peek_page (self, pages[i].name);

      if (page != NULL)
        func (self, page, pages[i].kind);
    }
}

static void
page_stop (DsWindow    *self,
           DsPage      *page,
           DsBenchKind  kind)
{
  ds_page_stop (page);
}

static void
page_running (DsWindow    *self,
              DsPage      *page,
              DsBenchKind  kind)
{
  if (ds_page_is_running (page))
    self->pages_running++;
}

gboolean
_ds_window_is_running (DsWindow *self)
{
  if (ds_session_is_running (self->session))
    return TRUE;

  self->pages_running = 0;
  _ds_window_foreach_page (self, page_running);
  return self->pages_running > 0;
}

void
_ds_window_stop (DsWindow *self)
{
  ds_session_stop (self->session);
  _ds_window_foreach_page (self, page_stop);
}

DsSession *
ds_window_get_session (DsWindow *self)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), NULL);

  return self->session;
}

/* ---- Opened results ---------------------------------------------------- */

/* "/dev/loop10 (QEMU HARDDISK, 2.1 GB)": the device a result measured. */
static char *
describe_target (const DsResult *result)
{
  const DsTargetInfo *target = &result->target;
  g_autofree char *path = g_strdup (target->path ? target->path : "?");
  g_autofree char *size = target->size_bytes > 0 ? ds_format_size (target->size_bytes) : NULL;

  if (target->model != NULL && size != NULL)
    return g_strdup_printf ("%s (%s, %s)", path, target->model, size);
  if (size != NULL)
    return g_strdup_printf ("%s (%s)", path, size);
  return g_steal_pointer (&path);
}

/* When the visible page shows a result opened from a file, a banner says
 * whose it is (its own device and date, not the device selected above)
 * and which file, with a way back; the window's title names the file. */
void
_ds_window_update_opened (DsWindow *self)
{
  const DsPageInfo *info = _ds_window_get_visible_info (self);
  DsBenchKind kind = info != NULL ? info->kind : DS_BENCH_N_KINDS;
  const char *file = ds_session_get_result_file (self->session, kind);
  const DsResult *result = ds_session_get_result (self->session, kind);
  g_autofree char *name = NULL;
  g_autofree char *device = NULL;
  g_autofree char *when = NULL;
  g_autofree char *text = NULL;
  g_autofree char *title = NULL;

  /* The visible page's result says when it is likely fooled; a run in
   * progress has no warnings yet. */
  ds_warnings_bar_set_result (self->warnings_bar,
                              kind == ds_session_get_running_kind (self->session) ? NULL : result);

  if (file == NULL || result == NULL)
    {
      gtk_info_bar_set_revealed (self->opened_bar, FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _("Diskscope"));
      adw_window_title_set_subtitle (self->window_title, NULL);
      return;
    }

  name = g_path_get_basename (file);
  device = describe_target (result);
  when = ds_caption_format_time (result->started_at);
  /* Translators: "Saved result: /dev/loop10 (QEMU HARDDISK, 2.1 GB),
   * 2026-11-30 10:41 CET — loop10.json" */
  text = g_strdup_printf (_("Saved result: %s, %s — %s"), device, when ? when : _("date unknown"), name);
  gtk_label_set_label (self->opened_label, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->opened_label), file);
  gtk_info_bar_set_revealed (self->opened_bar, TRUE);

  /* Translators: the window's title while a saved result is shown */
  title = g_strdup_printf (_("%s — Diskscope"), name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  adw_window_title_set_subtitle (self->window_title, name);
}

static void
opened_bar_response_cb (DsWindow   *self,
                        int         response,
                        GtkInfoBar *bar)
{
  const DsPageInfo *info = _ds_window_get_visible_info (self);

  if (info != NULL)
    ds_session_close_result (self->session, info->kind);
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

  /* Always in the window, clear when no test runs: shown and hidden it
   * would change the nodes under the overlay, and GTK would repaint the
   * whole page at every Start (ds-run-progress.c). */
  ds_run_progress_set_fraction (self->run_progress, 0);
  gtk_accessible_update_state (GTK_ACCESSIBLE (self->run_progress),
                               GTK_ACCESSIBLE_STATE_HIDDEN, !running, -1);
  if (!running)
    gtk_widget_set_visible (GTK_WIDGET (self->waiting_label), FALSE);
}

/* The run waits for something outside it, @message says what: udisks2
 * asks polkit to let it open the device (a password prompt may be up, or
 * missing in a session without an agent), or the device is busy; NULL:
 * the wait is over. */
static void
waiting_cb (DsWindow   *self,
            const char *message)
{
  if (message != NULL)
    {
      gtk_label_set_label (self->waiting_label, message);
      g_debug ("status: %s", message);
    }
  else
    g_debug ("status: the wait is over");
  gtk_widget_set_visible (GTK_WIDGET (self->waiting_label), message != NULL);
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
  gboolean running = _ds_window_is_running (self);

  set_running_ui (self, running);
  _ds_window_update_opened (self);
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
  ds_run_progress_set_fraction (self->run_progress, ds_session_get_progress (self->session));
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
  _ds_window_update_opened (self);

  _ds_window_update_actions (self);
  g_signal_emit (self, signals[RUN_FINISHED], 0, success);
}

void
_ds_window_page_started (DsWindow *self)
{
  running_changed_cb (self);
}

/* A test a page ran itself (the monitor) is over. */
void
_ds_window_page_finished_cb (DsWindow *self,
                             gboolean  success,
                             DsPage   *page)
{
  running_changed_cb (self);
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

  adw_view_stack_set_visible_child_name (self->view_stack, ds_pages_for_kind (kind)->name);
  ds_page_show_result (page, ds_session_get_result (self->session, kind));
  _ds_window_update_opened (self);
  _ds_window_update_actions (self);
}

/* The opened result was put away: the page shows the run behind it, or
 * nothing. */
static void
result_closed_cb (DsWindow *self,
                  guint     kind)
{
  /* A page never made has nothing to put away: made later, it shows
   * the session's result then. */
  const DsPageInfo *info = ds_pages_for_kind (kind);
  DsPage *page = info != NULL ? _ds_window_peek_page (self, info->name) : NULL;
  const DsResult *result = ds_session_get_result (self->session, kind);

  if (page != NULL && result != NULL)
    ds_page_show_result (page, result);
  else if (page != NULL)
    ds_page_clear (page);

  _ds_window_update_opened (self);
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

void
_ds_window_page_made (DsWindow    *self,
                      DsPage      *page,
                      DsBenchKind  kind)
{
  set_page_units (self, page, kind);
  _ds_window_set_page_device (self, page, kind);
}

/* ---- Life cycle -------------------------------------------------------- */

static gboolean
ds_window_close_request (GtkWindow *window)
{
  DsWindow *self = DS_WINDOW (window);
  int width, height;

  /* Stop the run and wait for its thread (it stops within 100 ms); a
   * page's own test (the monitor) joins its thread when it goes. */
  ds_session_stop_and_wait (self->session);
  _ds_window_foreach_page (self, page_stop);

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
  g_type_ensure (DS_TYPE_RUN_PROGRESS);
  g_type_ensure (DS_TYPE_TAB_STOP);
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
  gtk_widget_class_bind_template_child (widget_class, DsWindow, run_progress);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, waiting_label);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, opened_bar);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, opened_label);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, page_list);
  gtk_widget_class_bind_template_callback_full (widget_class, "page_row_selected_cb",
                                                G_CALLBACK (_ds_window_page_row_selected_cb));
  gtk_widget_class_bind_template_callback_full (widget_class, "visible_page_changed_cb",
                                                G_CALLBACK (_ds_window_visible_page_changed_cb));
  gtk_widget_class_bind_template_callback (widget_class, opened_bar_response_cb);

  _ds_window_class_actions_init (klass);
}

static void
ds_window_init (DsWindow *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *page = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));
  self->warnings_bar = ds_warnings_bar_new ();
  gtk_widget_insert_after (self->warnings_bar, gtk_widget_get_parent (GTK_WIDGET (self->opened_bar)),
                           GTK_WIDGET (self->opened_bar));

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
  g_signal_connect_object (self->session, "waiting",
                           G_CALLBACK (waiting_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "run-finished",
                           G_CALLBACK (run_finished_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "result-saved",
                           G_CALLBACK (result_saved_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "result-opened",
                           G_CALLBACK (result_opened_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "result-closed",
                           G_CALLBACK (result_closed_cb), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->session, "notify::units",
                           G_CALLBACK (units_changed_cb), self, G_CONNECT_SWAPPED);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));

  _ds_window_add_pages (self);
  units_changed_cb (self);

  /* The last session's page, or the first: the one page made now (made
   * here too when it is the stack's first, which it shows already). */
  page = g_settings_get_string (self->settings, "last-page");
  ds_window_set_page (self, page);
  _ds_window_ensure_page (self, adw_view_stack_get_visible_child_name (self->view_stack));

  _ds_window_devices_init (self);

  set_running_ui (self, FALSE);
  _ds_window_update_actions (self);
}

DsWindow *
ds_window_new (AdwApplication *application)
{
  return g_object_new (DS_TYPE_WINDOW, "application", application, NULL);
}
