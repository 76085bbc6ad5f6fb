/* ds-window.c: the main window
 *
 * The header bar holds the device drop-down (kept up to date from kernel
 * uevents), the page switcher and Start/Stop; the pages show the runs.  The
 * window owns the job of the run in progress and the last result of each
 * kind, which the menu saves, copies or replaces.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "ds-bench-block-size.h"
#include "ds-bench-extra.h"
#include "ds-bench-file.h"
#include "ds-bench-random-access.h"
#include "ds-benchmark-page.h"
#include "ds-block-size-page.h"
#include "ds-device-item.h"
#include "ds-error.h"
#include "ds-extra-page.h"
#include "ds-file-page.h"
#include "ds-info-page.h"
#include "ds-job.h"
#include "ds-page.h"
#include "ds-random-access-page.h"
#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-target.h"
#include "ds-window.h"
#include "ds-units.h"

struct _DsWindow
{
  AdwApplicationWindow  parent_instance;

  GSettings            *settings;
  GListStore           *devices;         /* DsDeviceItem */
  DsDeviceMonitor      *monitor;
  guint                 monitor_source;
  gboolean              refreshing;
  gboolean              refresh_pending;  /* devices changed during a run */
  GCancellable         *refresh_cancellable;
  unsigned              accuracy;        /* 0: from the settings */

  DsJob                *job;
  DsPage               *job_page;
  guint                 inhibit_cookie;
  DsResult             *results[DS_BENCH_N_KINDS];
  char                 *last_error;      /* of the last run, NULL if none */

  GtkFileChooserNative *chooser;
  DsBenchSpec          *pending_spec;    /* waiting for the write confirmation */

  /* Template widgets */
  GtkDropDown          *device_dropdown;
  GtkButton            *start_button;
  AdwButtonContent     *start_content;
  AdwToastOverlay      *toast_overlay;
  AdwViewStack         *view_stack;
  GtkProgressBar       *progress_bar;
  DsBenchmarkPage      *benchmark_page;
  DsExtraPage          *extra_page;
  DsRandomAccessPage   *random_access_page;
  DsBlockSizePage      *block_size_page;
  DsFilePage           *file_page;
  DsInfoPage           *info_page;
};

G_DEFINE_FINAL_TYPE (DsWindow, ds_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  RUN_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void ds_window_update_actions (DsWindow *self);
static void ds_window_run (DsWindow *self, const DsBenchSpec *spec);

static DsPage *
page_for_kind (DsWindow    *self,
               DsBenchKind  kind)
{
  switch (kind)
    {
    case DS_BENCH_TRANSFER: return DS_PAGE (self->benchmark_page);
    case DS_BENCH_EXTRA: return DS_PAGE (self->extra_page);
    case DS_BENCH_RANDOM_ACCESS: return DS_PAGE (self->random_access_page);
    case DS_BENCH_BLOCK_SIZE: return DS_PAGE (self->block_size_page);
    case DS_BENCH_FILE: return DS_PAGE (self->file_page);
    case DS_BENCH_WORKLOAD:
    case DS_BENCH_N_KINDS:
    default:
      return NULL;
    }
}

static DsPage *
visible_page (DsWindow *self)
{
  GtkWidget *child = adw_view_stack_get_visible_child (self->view_stack);

  return child != NULL && DS_IS_PAGE (child) ? DS_PAGE (child) : NULL;
}

static const DsResult *
visible_result (DsWindow *self)
{
  DsPage *page = visible_page (self);
  DsBenchKind kind = page ? ds_page_get_kind (page) : DS_BENCH_N_KINDS;

  return kind < DS_BENCH_N_KINDS ? self->results[kind] : NULL;
}

static DsUnits
current_units (DsWindow *self)
{
  return g_settings_get_enum (self->settings, "units") == 1 ? DS_UNITS_MIB : DS_UNITS_MB;
}

static DsDeviceItem *
selected_item (DsWindow *self)
{
  gpointer item = gtk_drop_down_get_selected_item (self->device_dropdown);

  return item != NULL ? DS_DEVICE_ITEM (item) : NULL;
}

const char *
ds_window_get_device_path (DsWindow *self)
{
  DsDeviceItem *item;

  g_return_val_if_fail (DS_IS_WINDOW (self), NULL);

  item = selected_item (self);
  return item ? ds_device_item_get_path (item) : NULL;
}

static void
toast (DsWindow   *self,
       const char *message)
{
  adw_toast_overlay_add_toast (self->toast_overlay, adw_toast_new (message));
}

/* ---- Devices ----------------------------------------------------------- */

/* The drop-down's rows: in the list, the model (shortened at its end when
 * long) then the size and path; on the button, only the path and size, so
 * the header bar keeps room for the view switcher (the whole title is the
 * button's tooltip).  @user_data is non-NULL for the button. */
static void
device_row_setup_cb (GtkSignalListItemFactory *factory,
                     GtkListItem              *list_item,
                     gpointer                  user_data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *model = gtk_label_new (NULL);
  GtkWidget *where = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (model), 0);
  gtk_label_set_ellipsize (GTK_LABEL (model), PANGO_ELLIPSIZE_END);
  gtk_label_set_width_chars (GTK_LABEL (model), 11);
  gtk_label_set_max_width_chars (GTK_LABEL (model), 16);
  gtk_label_set_xalign (GTK_LABEL (where), 0);
  if (user_data == NULL)
    gtk_widget_add_css_class (where, "dim-label");
  gtk_box_append (GTK_BOX (box), model);
  gtk_box_append (GTK_BOX (box), where);
  gtk_widget_set_visible (model, user_data == NULL);
  gtk_list_item_set_child (list_item, box);
}

static void
device_row_bind_cb (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item,
                    gpointer                  user_data)
{
  DsDeviceItem *item = gtk_list_item_get_item (list_item);
  GtkWidget *box = gtk_list_item_get_child (list_item);
  GtkWidget *model = gtk_widget_get_first_child (box);
  GtkWidget *where = gtk_widget_get_next_sibling (model);
  const DsDevice *device = item ? ds_device_item_get_device (item) : NULL;
  g_autofree char *size = NULL;
  g_autofree char *place = NULL;

  if (device == NULL)
    {
      gtk_label_set_label (GTK_LABEL (model), item ? ds_device_item_get_title (item) : NULL);
      gtk_label_set_label (GTK_LABEL (where), NULL);
      return;
    }

  size = ds_format_size (device->size_bytes);
  if (user_data != NULL)
    place = g_strdup_printf ("%s · %s", device->path, size);
  else
    place = g_strdup_printf ("%s · %s", size, device->path);
  gtk_label_set_label (GTK_LABEL (model), device->model ? device->model : device->name);
  gtk_label_set_label (GTK_LABEL (where), place);
  gtk_widget_set_tooltip_text (box, ds_device_item_get_title (item));
}

static void
device_selected_cb (DsWindow    *self,
                    GParamSpec  *pspec,
                    GtkDropDown *dropdown)
{
  DsDeviceItem *item = selected_item (self);
  const DsDevice *device = item ? ds_device_item_get_device (item) : NULL;
  g_autofree char *tooltip = NULL;
  DsPage *pages[] = {
    DS_PAGE (self->benchmark_page), DS_PAGE (self->extra_page),
    DS_PAGE (self->random_access_page), DS_PAGE (self->block_size_page),
    DS_PAGE (self->file_page), DS_PAGE (self->info_page),
  };

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    ds_page_set_device (pages[i], device);

  /* The whole title, where the button shortens it. */
  if (item != NULL)
    tooltip = g_strdup_printf (_("Device: %s"), ds_device_item_get_title (item));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->device_dropdown),
                               tooltip ? tooltip : _("Device"));

  if (device != NULL && !self->refreshing)
    g_settings_set_string (self->settings, "last-device", device->path);

  ds_window_update_actions (self);
}

static gboolean
find_device (DsWindow   *self,
             const char *path,
             guint      *ret_position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->devices));

  for (guint i = 0; path != NULL && i < n; i++)
    {
      g_autoptr(DsDeviceItem) item = g_list_model_get_item (G_LIST_MODEL (self->devices), i);

      if (g_strcmp0 (ds_device_item_get_path (item), path) == 0)
        {
          *ret_position = i;
          return TRUE;
        }
    }

  return FALSE;
}

/* Applies a fresh device list (DsDevice*), keeping the selection. */
static void
apply_devices (DsWindow  *self,
               GPtrArray *devices)
{
  g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *keep = NULL;
  guint position;

  keep = g_strdup (ds_window_get_device_path (self));
  if (keep == NULL)
    keep = g_settings_get_string (self->settings, "last-device");

  for (guint i = 0; i < devices->len; i++)
    {
      DsDevice *device = devices->pdata[i];

      /* Unbound loop devices and unset zram have nothing to measure. */
      if (device->size_bytes == 0)
        continue;

      devices->pdata[i] = NULL;
      g_ptr_array_add (items, ds_device_item_new (device));
    }

  self->refreshing = TRUE;
  g_list_store_splice (self->devices, 0,
                       g_list_model_get_n_items (G_LIST_MODEL (self->devices)),
                       items->pdata, items->len);
  if (find_device (self, keep, &position))
    gtk_drop_down_set_selected (self->device_dropdown, position);
  self->refreshing = FALSE;

  device_selected_cb (self, NULL, self->device_dropdown);
}

static void
refresh_devices (DsWindow *self)
{
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GError) error = NULL;

  devices = ds_device_list (&error);
  if (devices == NULL)
    {
      g_warning ("Could not list block devices: %s", error->message);
      return;
    }

  apply_devices (self, devices);
}

/* Listing probes every device (libblkid reads them): a busy disk can take
 * a while to answer, so later refreshes run on a worker thread. */
static void
list_devices_worker (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  GError *error = NULL;
  GPtrArray *devices = ds_device_list (&error);

  if (devices == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, devices, (GDestroyNotify) g_ptr_array_unref);
}

static void
list_devices_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GPtrArray) devices = NULL;
  g_autoptr(GError) error = NULL;
  DsWindow *self;

  devices = g_task_propagate_pointer (G_TASK (result), &error);
  if (devices == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Could not list block devices: %s", error->message);
      return;
    }

  self = DS_WINDOW (user_data);
  g_clear_object (&self->refresh_cancellable);
  apply_devices (self, devices);
}

static void
refresh_devices_async (DsWindow *self)
{
  g_autoptr(GTask) task = NULL;

  /* The drop-down is locked while a test runs: catch up afterwards. */
  if (self->job != NULL)
    {
      self->refresh_pending = TRUE;
      return;
    }

  if (self->refresh_cancellable != NULL)
    g_cancellable_cancel (self->refresh_cancellable);
  g_clear_object (&self->refresh_cancellable);
  self->refresh_cancellable = g_cancellable_new ();

  /* The task holds no reference: a cancelled task never calls back. */
  task = g_task_new (NULL, self->refresh_cancellable, list_devices_cb, self);
  g_task_set_source_tag (task, refresh_devices_async);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, list_devices_worker);
}

static gboolean
monitor_ready_cb (int          fd,
                  GIOCondition condition,
                  gpointer     user_data)
{
  DsWindow *self = user_data;

  if (ds_device_monitor_drain (self->monitor))
    refresh_devices_async (self);

  return G_SOURCE_CONTINUE;
}

gboolean
ds_window_select_device (DsWindow    *self,
                         const char  *path,
                         GError     **error)
{
  g_autofree char *resolved = NULL;
  guint position;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  if (!find_device (self, path, &position))
    {
      /* A symlink, or a device the list does not have yet. */
      DsDevice *device = ds_device_lookup (path, error);

      if (device == NULL)
        return FALSE;

      if (!find_device (self, device->path, &position))
        {
          g_autoptr(DsDeviceItem) item = ds_device_item_new (device);

          g_list_store_append (self->devices, item);
          position = g_list_model_get_n_items (G_LIST_MODEL (self->devices)) - 1;
        }
      else
        ds_device_free (device);
    }

  gtk_drop_down_set_selected (self->device_dropdown, position);
  return TRUE;
}

/* ---- Runs -------------------------------------------------------------- */

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
job_samples_cb (DsWindow *self,
                GArray   *samples,
                DsJob    *job)
{
  if (job != self->job || samples->len == 0)
    return;

  ds_page_add_samples (self->job_page,
                       (const DsSample *) (gpointer) samples->data, samples->len);
  gtk_progress_bar_set_fraction (self->progress_bar, ds_job_get_progress (job));
}

static void
job_done_cb (GObject      *object,
             GAsyncResult *async_result,
             gpointer      user_data)
{
  g_autoptr(DsWindow) self = user_data;
  DsJob *job = DS_JOB (object);
  g_autoptr(DsResult) result = NULL;
  g_autoptr(GError) error = NULL;
  GApplication *app = g_application_get_default ();
  gboolean success = FALSE;

  result = ds_job_run_finish (job, async_result, &error);

  if (app != NULL)
    g_application_release (app);

  if (job != self->job)
    return;

  g_clear_pointer (&self->last_error, g_free);

  if (self->inhibit_cookie != 0)
    {
      gtk_application_uninhibit (GTK_APPLICATION (app), self->inhibit_cookie);
      self->inhibit_cookie = 0;
    }

  if (result != NULL)
    {
      DsBenchKind kind = result->kind;

      success = result->error == NULL && result->complete;
      self->last_error = ds_page_describe_error (result);
      ds_page_show_result (self->job_page, result);

      /* A finished run speaks for itself (curve and figures); a stop does
       * not always show. */
      if (result->cancelled)
        toast (self, _("Test stopped"));

      if (kind < DS_BENCH_N_KINDS)
        {
          g_clear_pointer (&self->results[kind], ds_result_free);
          self->results[kind] = g_steal_pointer (&result);
        }
    }
  else
    {
      self->last_error = g_strdup (error ? error->message : _("The test failed."));
      ds_page_show_error (self->job_page, self->last_error);
    }

  g_clear_object (&self->job);
  self->job_page = NULL;
  set_running_ui (self, FALSE);
  ds_window_update_actions (self);

  if (self->refresh_pending)
    {
      self->refresh_pending = FALSE;
      refresh_devices_async (self);
    }

  g_signal_emit (self, signals[RUN_FINISHED], 0, success);
}

static void
ds_window_run (DsWindow          *self,
               const DsBenchSpec *spec)
{
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  g_assert (self->job == NULL);

  self->job_page = page_for_kind (self, spec->kind);
  self->job = ds_job_new (spec);
  g_signal_connect_object (self->job, "samples", G_CALLBACK (job_samples_cb), self,
                           G_CONNECT_SWAPPED);

  ds_page_begin (self->job_page, spec);
  set_running_ui (self, TRUE);

  if (app != NULL)
    {
      self->inhibit_cookie = gtk_application_inhibit (app, GTK_WINDOW (self),
                                                      GTK_APPLICATION_INHIBIT_SUSPEND,
                                                      _("A disk test is running"));
      /* Keeps the application (and so this callback) alive until the
       * worker has returned, even when the window closes first. */
      g_application_hold (G_APPLICATION (app));
    }

  ds_job_run_async (self->job, NULL, job_done_cb, g_object_ref (self));
  ds_window_update_actions (self);
}

static void
confirm_entry_changed_cb (GtkEditable      *entry,
                          AdwMessageDialog *dialog)
{
  const char *path = g_object_get_data (G_OBJECT (dialog), "ds-path");

  adw_message_dialog_set_response_enabled (dialog, "destroy",
                                           g_strcmp0 (gtk_editable_get_text (entry), path) == 0);
}

static void
confirm_response_cb (AdwMessageDialog *dialog,
                     const char       *response,
                     DsWindow         *self)
{
  g_autofree DsBenchSpec *spec = g_steal_pointer (&self->pending_spec);
  GtkWidget *entry = adw_message_dialog_get_extra_child (dialog);
  const char *typed = GTK_IS_EDITABLE (entry) ? gtk_editable_get_text (GTK_EDITABLE (entry)) : NULL;

  if (spec == NULL)
    return;

  /* Only what was typed confirms: a "destroy" response reached some other
   * way (a disabled button activated anyhow) does nothing.  The core's gate
   * checks the typed name again. */
  if (g_strcmp0 (response, "destroy") == 0 && self->job == NULL &&
      g_strcmp0 (typed, spec->target_path) == 0)
    {
      g_free (spec->destroy_data);
      spec->destroy_data = g_strdup (typed);
      ds_window_run (self, spec);
    }

  ds_bench_spec_clear (spec);
}

static void
confirm_write (DsWindow    *self,
               DsBenchSpec *spec)
{
  g_autoptr(GError) error = NULL;
  AdwMessageDialog *dialog;
  GtkWidget *entry;

  /* Confirmed by name already: what is left are real reasons to refuse
   * (mounted, holders, read-only). */
  if (!ds_target_check_write (spec->target_path, spec->target_path, &error))
    {
      dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self),
                                                           _("Write Test Refused"),
                                                           error->message));
      adw_message_dialog_add_response (dialog, "close", _("_Close"));
      gtk_window_present (GTK_WINDOW (dialog));
      ds_bench_spec_clear (spec);
      g_free (spec);
      return;
    }

  g_clear_pointer (&self->pending_spec, g_free);
  self->pending_spec = spec;

  dialog = ADW_MESSAGE_DIALOG (adw_message_dialog_new (GTK_WINDOW (self), NULL, NULL));
  adw_message_dialog_format_heading (dialog, _("Destroy All Data on %s?"), spec->target_path);
  adw_message_dialog_format_body (dialog,
                                  _("A write test overwrites the device with test data. "
                                    "Everything stored on %s will be lost, and it cannot be undone.\n\n"
                                    "Type the device path to confirm."),
                                  spec->target_path);
  g_object_set_data_full (G_OBJECT (dialog), "ds-path", g_strdup (spec->target_path), g_free);

  entry = gtk_entry_new ();
  gtk_entry_set_placeholder_text (GTK_ENTRY (entry), spec->target_path);
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  g_signal_connect (entry, "changed", G_CALLBACK (confirm_entry_changed_cb), dialog);
  adw_message_dialog_set_extra_child (dialog, entry);

  adw_message_dialog_add_responses (dialog,
                                    "cancel", _("_Cancel"),
                                    "destroy", _("_Destroy Data and Test"),
                                    NULL);
  adw_message_dialog_set_response_appearance (dialog, "destroy", ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_response_enabled (dialog, "destroy", FALSE);
  adw_message_dialog_set_default_response (dialog, "destroy");
  adw_message_dialog_set_close_response (dialog, "cancel");
  g_signal_connect_object (dialog, "response", G_CALLBACK (confirm_response_cb), self, 0);

  gtk_window_present (GTK_WINDOW (dialog));
}

gboolean
ds_window_start (DsWindow  *self,
                 GError   **error)
{
  DsPage *page;
  DsBenchKind kind;
  DsDeviceItem *item;
  g_autofree DsBenchSpec *spec = NULL;
  unsigned accuracy;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  if (self->job != NULL)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_BUSY, _("A test is already running."));
      return FALSE;
    }

  page = visible_page (self);
  if (page == NULL || !ds_page_can_run (page))
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                           _("This page has no test to run."));
      return FALSE;
    }

  kind = ds_page_get_kind (page);
  item = selected_item (self);
  if (item == NULL && kind != DS_BENCH_FILE)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_INVALID, _("Choose a device first."));
      return FALSE;
    }

  spec = g_new0 (DsBenchSpec, 1);
  ds_bench_spec_init (spec, kind);
  if (item != NULL)
    spec->target_path = g_strdup (ds_device_item_get_path (item));

  accuracy = self->accuracy ? self->accuracy : g_settings_get_uint (self->settings, "accuracy");
  ds_bench_spec_set_accuracy (spec, accuracy);
  if (kind == DS_BENCH_TRANSFER)
    spec->block_size_bytes = g_settings_get_uint64 (self->settings, "block-size");
  spec->file_size_bytes = g_settings_get_uint64 (self->settings, "file-size");

  if (!ds_page_configure (page, spec, error) || !ds_bench_spec_validate (spec, error))
    {
      ds_bench_spec_clear (spec);
      return FALSE;
    }

  if (spec->write)
    {
      confirm_write (self, g_steal_pointer (&spec));
      return TRUE;
    }

  ds_window_run (self, spec);
  ds_bench_spec_clear (spec);

  return TRUE;
}

void
ds_window_stop (DsWindow *self)
{
  g_return_if_fail (DS_IS_WINDOW (self));

  if (self->job != NULL)
    ds_job_cancel (self->job);
}

const char *
ds_window_get_last_error (DsWindow *self)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), NULL);

  return self->last_error;
}

gboolean
ds_window_is_running (DsWindow *self)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  return self->job != NULL;
}

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autoptr(GError) error = NULL;
  DsPage *page = visible_page (self);

  if (!ds_window_start (self, &error))
    {
      if (page != NULL)
        ds_page_show_error (page, error->message);
      else
        toast (self, error->message);
    }
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *param)
{
  ds_window_stop (DS_WINDOW (widget));
}

/* ---- Saving, opening, copying ----------------------------------------- */

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

typedef void (*SaveFunc) (DsWindow   *self,
                          const char *path);

static void
chooser_response_cb (GtkFileChooserNative *chooser,
                     int                   response,
                     DsWindow             *self)
{
  SaveFunc func = g_object_get_data (G_OBJECT (chooser), "ds-func");

  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file ? g_file_get_path (file) : NULL;

      if (path != NULL)
        func (self, path);
    }

  g_clear_object (&self->chooser);
}

static void
choose_file (DsWindow             *self,
             GtkFileChooserAction  action,
             const char           *title,
             const char           *accept,
             const char           *suggested_name,
             const char           *mime_type,
             SaveFunc              func)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  self->chooser = gtk_file_chooser_native_new (title, GTK_WINDOW (self), action, accept, _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_filter_add_mime_type (filter, mime_type);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  if (suggested_name != NULL)
    gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), suggested_name);

  g_object_set_data (G_OBJECT (self->chooser), "ds-func", func);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* "diskscope-benchmark-loop0.txt" */
static char *
suggested_name (DsWindow   *self,
                const char *extension)
{
  const DsResult *result = visible_result (self);
  DsPage *page = visible_page (self);
  const DsBenchOps *ops = page ? ds_bench_get (ds_page_get_kind (page)) : NULL;
  const char *device = result && result->target.path ? result->target.path
                                                     : ds_window_get_device_path (self);
  g_autofree char *base = device ? g_path_get_basename (device) : g_strdup ("disk");

  return g_strdup_printf ("diskscope-%s-%s.%s", ops ? ops->name : "info", base, extension);
}

gboolean
ds_window_save_report (DsWindow    *self,
                       const char  *path,
                       GError     **error)
{
  const DsResult *result;
  g_autofree char *text = NULL;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  result = visible_result (self);
  if (result == NULL)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_INVALID, _("This page has no result yet."));
      return FALSE;
    }

  text = ds_report_text (result, current_units (self));
  return g_file_set_contents (path, text, -1, error);
}

gboolean
ds_window_save_result (DsWindow    *self,
                       const char  *path,
                       GError     **error)
{
  const DsResult *result;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  result = visible_result (self);
  if (result == NULL)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_INVALID, _("This page has no result yet."));
      return FALSE;
    }

  return ds_result_save (result, path, error);
}

gboolean
ds_window_open_result (DsWindow    *self,
                       const char  *path,
                       GError     **error)
{
  DsResult *result;
  DsPage *page;

  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  if (self->job != NULL)
    {
      g_set_error_literal (error, DS_ERROR, DS_ERROR_BUSY, _("A test is running."));
      return FALSE;
    }

  result = ds_result_load (path, error);
  if (result == NULL)
    return FALSE;

  page = page_for_kind (self, result->kind);
  if (page == NULL)
    {
      g_set_error (error, DS_ERROR, DS_ERROR_UNSUPPORTED,
                   _("Results of “%s” runs have no page here."),
                   ds_bench_get (result->kind)->name);
      ds_result_free (result);
      return FALSE;
    }

  adw_view_stack_set_visible_child (self->view_stack, GTK_WIDGET (page));
  ds_page_show_result (page, result);

  g_clear_pointer (&self->results[result->kind], ds_result_free);
  self->results[result->kind] = result;
  ds_window_update_actions (self);

  return TRUE;
}

const DsResult *
ds_window_get_result (DsWindow *self)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), NULL);

  return visible_result (self);
}

static void
save_report (DsWindow   *self,
             const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!ds_window_save_report (self, path, &error))
    toast (self, error->message);
  else
    toast (self, _("Report saved"));
}

static void
save_result (DsWindow   *self,
             const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!ds_window_save_result (self, path, &error))
    toast (self, error->message);
  else
    toast (self, _("Result saved"));
}

static void
save_screenshot (DsWindow   *self,
                 const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!ds_window_save_screenshot (self, path, &error))
    toast (self, error->message);
  else
    toast (self, _("Screenshot saved"));
}

static void
open_result (DsWindow   *self,
             const char *path)
{
  g_autoptr(GError) error = NULL;

  if (!ds_window_open_result (self, path, &error))
    toast (self, error->message);
}

static void
save_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autofree char *name = suggested_name (self, "txt");

  choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, _("Save Report"), _("_Save"),
               name, "text/plain", save_report);
}

static void
save_result_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autofree char *name = suggested_name (self, "json");

  choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, _("Save Result"), _("_Save"),
               name, "application/json", save_result);
}

static void
save_screenshot_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  g_autofree char *name = suggested_name (self, "png");

  choose_file (self, GTK_FILE_CHOOSER_ACTION_SAVE, _("Save Screenshot"), _("_Save"),
               name, "image/png", save_screenshot);
}

static void
open_result_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  choose_file (DS_WINDOW (widget), GTK_FILE_CHOOSER_ACTION_OPEN, _("Open Result"), _("_Open"),
               NULL, "application/json", open_result);
}

static void
copy_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *param)
{
  DsWindow *self = DS_WINDOW (widget);
  const DsResult *result = visible_result (self);
  g_autofree char *text = NULL;

  if (result == NULL)
    return;

  text = ds_report_text (result, current_units (self));
  gdk_clipboard_set_text (gtk_widget_get_clipboard (widget), text);
  toast (self, _("Report copied"));
}

static void
ds_window_update_actions (DsWindow *self)
{
  DsPage *page = visible_page (self);
  gboolean running = self->job != NULL;
  gboolean has_result = visible_result (self) != NULL;
  gboolean can_start = FALSE;

  if (page != NULL && ds_page_can_run (page))
    can_start = selected_item (self) != NULL || ds_page_get_kind (page) == DS_BENCH_FILE;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.start", !running && can_start);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-report", !running && has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-result", !running && has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-report", !running && has_result);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.open-result", !running);
}

static void
visible_page_changed_cb (DsWindow     *self,
                         GParamSpec   *pspec,
                         AdwViewStack *stack)
{
  const char *name = adw_view_stack_get_visible_child_name (stack);

  if (name != NULL && gtk_widget_get_realized (GTK_WIDGET (self)))
    g_settings_set_string (self->settings, "last-page", name);

  ds_window_update_actions (self);
}

gboolean
ds_window_set_page (DsWindow   *self,
                    const char *name)
{
  g_return_val_if_fail (DS_IS_WINDOW (self), FALSE);

  if (adw_view_stack_get_child_by_name (self->view_stack, name) == NULL)
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

  ds_file_page_set_folder (self->file_page, path);
  ds_window_update_actions (self);
  return TRUE;
}

void
ds_window_set_accuracy (DsWindow *self,
                        unsigned  accuracy)
{
  g_return_if_fail (DS_IS_WINDOW (self));

  self->accuracy = accuracy;
}

static void
units_changed_cb (DsWindow   *self,
                  const char *key,
                  GSettings  *settings)
{
  DsUnits units = current_units (self);
  DsPage *pages[] = {
    DS_PAGE (self->benchmark_page), DS_PAGE (self->extra_page),
    DS_PAGE (self->random_access_page), DS_PAGE (self->block_size_page),
    DS_PAGE (self->file_page),
  };

  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      DsBenchKind kind = ds_page_get_kind (pages[i]);

      ds_page_set_units (pages[i], units);
      /* Figures already shown are redrawn in the new unit. */
      if (self->results[kind] != NULL && pages[i] != self->job_page)
        ds_page_show_result (pages[i], self->results[kind]);
    }
}

/* ---- Life cycle -------------------------------------------------------- */

static gboolean
ds_window_close_request (GtkWindow *window)
{
  DsWindow *self = DS_WINDOW (window);
  int width, height;

  /* Stop the run and wait for its thread (it stops within 100 ms). */
  if (self->job != NULL)
    ds_job_cancel_and_wait (self->job);

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

  if (self->job != NULL)
    {
      ds_job_cancel_and_wait (self->job);
      g_clear_object (&self->job);
    }

  if (self->inhibit_cookie != 0)
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

      if (app != NULL)
        gtk_application_uninhibit (app, self->inhibit_cookie);
      self->inhibit_cookie = 0;
    }

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  if (self->refresh_cancellable != NULL)
    g_cancellable_cancel (self->refresh_cancellable);
  g_clear_object (&self->refresh_cancellable);
  g_clear_handle_id (&self->monitor_source, g_source_remove);
  g_clear_pointer (&self->monitor, ds_device_monitor_free);

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_WINDOW);

  g_clear_object (&self->devices);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (ds_window_parent_class)->dispose (object);
}

static void
ds_window_finalize (GObject *object)
{
  DsWindow *self = (DsWindow *) object;

  for (guint i = 0; i < DS_BENCH_N_KINDS; i++)
    g_clear_pointer (&self->results[i], ds_result_free);
  g_clear_pointer (&self->last_error, g_free);

  if (self->pending_spec != NULL)
    {
      ds_bench_spec_clear (self->pending_spec);
      g_clear_pointer (&self->pending_spec, g_free);
    }

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
   */
  signals[RUN_FINISHED] =
    g_signal_new ("run-finished",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  g_type_ensure (DS_TYPE_BENCHMARK_PAGE);
  g_type_ensure (DS_TYPE_EXTRA_PAGE);
  g_type_ensure (DS_TYPE_RANDOM_ACCESS_PAGE);
  g_type_ensure (DS_TYPE_BLOCK_SIZE_PAGE);
  g_type_ensure (DS_TYPE_FILE_PAGE);
  g_type_ensure (DS_TYPE_INFO_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-window.ui");
  gtk_widget_class_bind_template_child (widget_class, DsWindow, device_dropdown);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, start_button);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, start_content);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, view_stack);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, benchmark_page);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, extra_page);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, random_access_page);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, block_size_page);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, file_page);
  gtk_widget_class_bind_template_child (widget_class, DsWindow, info_page);
  gtk_widget_class_bind_template_callback (widget_class, visible_page_changed_cb);

  gtk_widget_class_install_action (widget_class, "win.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "win.save-report", NULL, save_report_action);
  gtk_widget_class_install_action (widget_class, "win.save-screenshot", NULL, save_screenshot_action);
  gtk_widget_class_install_action (widget_class, "win.save-result", NULL, save_result_action);
  gtk_widget_class_install_action (widget_class, "win.open-result", NULL, open_result_action);
  gtk_widget_class_install_action (widget_class, "win.copy-report", NULL, copy_report_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F5, 0, "win.start", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.stop", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save-report", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.save-screenshot", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_S, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "win.save-screenshot", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open-result", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "win.copy-report", NULL);
}

static void
ds_window_init (DsWindow *self)
{
  g_autoptr(GtkExpression) expression = NULL;
  g_autoptr(GtkListItemFactory) factory = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *page = NULL;

  gtk_widget_init_template (GTK_WIDGET (self));

  self->settings = g_settings_new (APPLICATION_ID);
  self->devices = g_list_store_new (DS_TYPE_DEVICE_ITEM);

  expression = gtk_property_expression_new (DS_TYPE_DEVICE_ITEM, NULL, "title");
  gtk_drop_down_set_expression (self->device_dropdown, expression);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (device_row_setup_cb), GINT_TO_POINTER (1));
  g_signal_connect (factory, "bind", G_CALLBACK (device_row_bind_cb), GINT_TO_POINTER (1));
  gtk_drop_down_set_factory (self->device_dropdown, factory);
  g_object_unref (factory);
  factory = gtk_signal_list_item_factory_new ();
  g_signal_connect (factory, "setup", G_CALLBACK (device_row_setup_cb), NULL);
  g_signal_connect (factory, "bind", G_CALLBACK (device_row_bind_cb), NULL);
  gtk_drop_down_set_list_factory (self->device_dropdown, factory);
  gtk_drop_down_set_model (self->device_dropdown, G_LIST_MODEL (self->devices));
  g_signal_connect_object (self->device_dropdown, "notify::selected-item",
                           G_CALLBACK (device_selected_cb), self, G_CONNECT_SWAPPED);

  gtk_window_set_default_size (GTK_WINDOW (self),
                               g_settings_get_int (self->settings, "window-width"),
                               g_settings_get_int (self->settings, "window-height"));
  g_settings_bind (self->settings, "file-size", self->file_page, "file-size",
                   G_SETTINGS_BIND_GET);
  g_signal_connect_object (self->settings, "changed::units",
                           G_CALLBACK (units_changed_cb), self, G_CONNECT_SWAPPED);
  units_changed_cb (self, "units", self->settings);

  page = g_settings_get_string (self->settings, "last-page");
  ds_window_set_page (self, page);

  /* Devices come and go (losetup, USB): follow the kernel's uevents. */
  self->monitor = ds_device_monitor_new (&error);
  if (self->monitor != NULL)
    self->monitor_source = g_unix_fd_add (ds_device_monitor_get_fd (self->monitor),
                                          G_IO_IN, monitor_ready_cb, self);
  else
    g_debug ("No device monitor: %s", error->message);

  refresh_devices (self);
  set_running_ui (self, FALSE);
  ds_window_update_actions (self);
}

DsWindow *
ds_window_new (AdwApplication *application)
{
  return g_object_new (DS_TYPE_WINDOW, "application", application, NULL);
}
