/* ds-health-page.c: HD Tune's Health tab
 *
 * Start reads the selected disk's SMART data through smartctl (the
 * session's "health" kind); Open shows a saved `smartctl --json` output
 * the same way.  The verdict comes first, in words and with an icon as
 * well as the theme's status colour, with the reasons under it; the
 * figures, tables and smartctl's own notes follow (ds-health-view.c).
 * When smartctl is missing, the device has no SMART (a loop or zram
 * device) or smartctl printed no JSON, the page says so in a status page.
 *
 * Self-tests: the buttons ask the drive to start one (smartctl -t, on a
 * worker thread: it blocks) and the page reads the health again, through
 * the window's Start, every POLL_S seconds while the drive says a test
 * runs and the page is shown, so the progress and the log come from the
 * drive and the result, the report and the saved file stay in step.
 * Only a result read from a drive in this window offers them (never one
 * opened from a file: its device name may be another machine's).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-bench-health.h"
#include "ds-error.h"
#include "ds-health-page-private.h"
#include "ds-page.h"
#include "ds-session.h"
#include "ds-smartctl.h"

#define POLL_S 20

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsHealthPage, ds_health_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

/* ---- States ------------------------------------------------------------ */

static void
show_status (DsHealthPage *self,
             const char   *icon_name,
             const char   *title,
             const char   *description)
{
  /* The description is markup: smartctl's words and a file's are not. */
  g_autofree char *escaped = g_markup_escape_text (description != NULL ? description : "", -1);

  adw_status_page_set_icon_name (self->error_status, icon_name);
  adw_status_page_set_title (self->error_status, title);
  adw_status_page_set_description (self->error_status, escaped);
  gtk_spinner_stop (self->reading_spinner);
  gtk_stack_set_visible_child_name (self->stack, "error");
  self->has_content = FALSE;
}

/* Why there is no health to show, in a title the user can act on. */
static void
show_failure (DsHealthPage *self,
              const GError *error)
{
  const char *title = _("Could Not Read the Health");
  const char *icon = "dialog-warning-symbolic";

  if (error->domain == DS_ERROR)
    switch (error->code)
      {
      case DS_ERROR_NOT_FOUND:
        if (g_str_has_prefix (error->message, "smartctl is not installed"))
          {
            title = _("smartctl Is Not Installed");
            icon = "system-software-install-symbolic";
          }
        else
          title = _("Device Not Found");
        break;
      case DS_ERROR_UNSUPPORTED:
        title = _("No SMART Data");
        icon = "drive-harddisk-symbolic";
        break;
      case DS_ERROR_PERMISSION:
        title = _("Permission Denied");
        icon = "system-lock-screen-symbolic";
        break;
      case DS_ERROR_CORRUPT:
        title = _("smartctl Gave No Usable Output");
        break;
      case DS_ERROR_CANCELLED:
        title = _("Stopped");
        icon = "process-stop-symbolic";
        break;
      default:
        break;
      }

  show_status (self, icon, title, error->message);
}

static void
show_verdict (DsHealthPage   *self,
              const DsHealth *h,
              const DsResult *result)
{
  static const char *const classes[] = { "success", "warning", "error" };
  const char *icon, *title, *lead;
  const char *css = NULL;
  GString *reasons = g_string_new (NULL);
  g_autofree char *model = NULL;
  g_autofree char *source = NULL;
  g_autofree char *when = ds_format_local_time (result->started_at);

  switch (h->verdict)
    {
    case DS_HEALTH_FAILING:
      icon = "dialog-error-symbolic";
      title = _("Failing");
      lead = _("Back up the data now and plan to replace the drive:");
      css = "error";
      break;
    case DS_HEALTH_WARNING:
      icon = "dialog-warning-symbolic";
      title = _("Warning");
      lead = _("Back up what matters and keep an eye on the drive:");
      css = "warning";
      break;
    case DS_HEALTH_UNDETERMINED:
      /* No colour: neither good nor a warning the drive gave. */
      icon = "dialog-question-symbolic";
      title = _("Unknown");
      lead = _("The SMART data is missing or does not make sense, so the drive’s health "
               "cannot be judged:");
      break;
    case DS_HEALTH_GOOD:
    default:
      icon = "emblem-ok-symbolic";
      title = _("Good");
      lead = _("Nothing in the drive’s SMART data points to a problem.");
      css = "success";
      break;
    }

  for (guint i = 0; i < G_N_ELEMENTS (classes); i++)
    {
      gtk_widget_remove_css_class (GTK_WIDGET (self->verdict_icon), classes[i]);
      gtk_widget_remove_css_class (GTK_WIDGET (self->verdict_label), classes[i]);
    }
  if (css != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (self->verdict_icon), css);
      gtk_widget_add_css_class (GTK_WIDGET (self->verdict_label), css);
    }
  gtk_image_set_from_icon_name (self->verdict_icon, icon);
  gtk_label_set_label (self->verdict_label, title);

  g_string_append (reasons, lead);
  for (guint i = 0; i < h->reasons->len; i++)
    g_string_append_printf (reasons, "\n• %s", (const char *) h->reasons->pdata[i]);
  gtk_label_set_label (self->reasons_label, reasons->str);
  g_string_free (reasons, TRUE);

  model = g_strdup (h->model != NULL ? h->model : h->device != NULL ? h->device : "");
  if (self->live_key != NULL)
    /* Translators: the drive's model, its device, then when it was read */
    source = g_strdup_printf (_("%s on %s, read by smartctl %s at %s"), model,
                              self->live_device, h->smartctl_version ? h->smartctl_version : "",
                              when);
  else
    /* Translators: the drive's model, then smartctl's version */
    source = g_strdup_printf (_("%s, from a saved smartctl %s output: not the drive as it is now"),
                              model, h->smartctl_version ? h->smartctl_version : "");
  gtk_label_set_label (self->source_label, source);
}

/* ---- Self-tests -------------------------------------------------------- */

static void
update_self_test (DsHealthPage   *self,
                  const DsHealth *h)
{
  gboolean live = self->live_key != NULL;
  gboolean busy = self->cancellable != NULL;
  g_autofree char *status = NULL;
  g_autofree char *short_label = NULL;
  g_autofree char *long_label = NULL;

  self->test_running = h != NULL && h->self_test_running;

  if (h == NULL)
    status = g_strdup ("");
  else if (h->self_test_running && h->self_test_remaining_percent != DS_HEALTH_UNKNOWN)
    status = g_strdup_printf (_("A self-test is running: %d %% left"),
                              (int) h->self_test_remaining_percent);
  else if (h->self_test_running)
    status = g_strdup (_("A self-test is running"));
  else if (h->self_test_status != NULL)
    status = g_strdup (h->self_test_status);
  else if (live)
    status = g_strdup (_("The drive reports no self-test"));
  else
    status = g_strdup (_("The saved output holds no self-test status"));
  if (h != NULL && !live)
    {
      g_autofree char *with_hint = g_strdup_printf ("%s\n%s", status,
                                                    _("Self-tests need the drive itself: press Start to read it."));

      g_free (status);
      status = g_steal_pointer (&with_hint);
    }
  adw_action_row_set_subtitle (self->self_test_row, status);

  gtk_widget_set_visible (GTK_WIDGET (self->self_test_progress), self->test_running);
  if (self->test_running && h->self_test_remaining_percent != DS_HEALTH_UNKNOWN)
    gtk_progress_bar_set_fraction (self->self_test_progress,
                                   (100 - CLAMP (h->self_test_remaining_percent, 0, 100)) / 100.0);

  if (h != NULL && h->short_test_minutes != DS_HEALTH_UNKNOWN)
    /* Translators: a short self-test and about how many minutes it takes */
    short_label = g_strdup_printf (_("_Short Test (%d min)"), (int) h->short_test_minutes);
  if (h != NULL && h->long_test_minutes != DS_HEALTH_UNKNOWN)
    long_label = g_strdup_printf (_("_Extended Test (%d min)"), (int) h->long_test_minutes);
  gtk_button_set_label (self->short_button, short_label ? short_label : _("_Short Test"));
  gtk_button_set_label (self->long_button, long_label ? long_label : _("_Extended Test"));

  gtk_widget_set_sensitive (GTK_WIDGET (self->short_button), live && !busy && !self->test_running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->long_button), live && !busy && !self->test_running);
  gtk_widget_set_visible (GTK_WIDGET (self->abort_button), live && self->test_running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->abort_button), !busy);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->short_button),
                               live ? NULL : _("Self-tests need the drive: press Start to read it first"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->long_button),
                               live ? NULL : _("Self-tests need the drive: press Start to read it first"));
}

/* Reads the drive of the shown result again through the window's Start
 * (the session's run: the result and the report follow). */
static void
read_again (DsHealthPage *self)
{
  if (self->live_device == NULL || !gtk_widget_get_mapped (GTK_WIDGET (self)))
    return;

  self->read_again = TRUE;
  if (!gtk_widget_activate_action (GTK_WIDGET (self), "win.start", NULL))
    self->read_again = FALSE;
}

/* While a test runs and the page is shown. */
static gboolean
poll_cb (gpointer user_data)
{
  DsHealthPage *self = user_data;

  if (self->test_running)
    read_again (self);

  return G_SOURCE_CONTINUE;
}

static void
update_poll (DsHealthPage *self)
{
  gboolean want = self->live_key != NULL && self->test_running;

  if (want && self->poll_id == 0)
    self->poll_id = g_timeout_add_seconds (POLL_S, poll_cb, self);
  else if (!want)
    g_clear_handle_id (&self->poll_id, g_source_remove);
}

typedef enum {
  COMMAND_SHORT,
  COMMAND_LONG,
  COMMAND_ABORT,
} Command;

static void
command_worker (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  const char *device = task_data;
  Command command = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (task), "ds-command"));
  GError *error = NULL;
  gboolean ok;

  if (command == COMMAND_ABORT)
    ok = ds_smartctl_abort_self_test (device, &error);
  else
    ok = ds_smartctl_start_self_test (device, command == COMMAND_LONG ? DS_SELF_TEST_LONG
                                                                      : DS_SELF_TEST_SHORT, &error);
  if (ok)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
command_done_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GError) error = NULL;
  GWeakRef *ref = user_data;
  g_autoptr(DsHealthPage) self = g_weak_ref_get (ref);

  g_weak_ref_clear (ref);
  g_free (ref);

  g_task_propagate_boolean (G_TASK (result), &error);
  if (self == NULL || g_task_get_cancellable (G_TASK (result)) != self->cancellable)
    return;

  g_clear_object (&self->cancellable);
  if (error != NULL)
    {
      adw_action_row_set_subtitle (self->self_test_row, error->message);
      gtk_widget_set_sensitive (GTK_WIDGET (self->short_button), !self->test_running);
      gtk_widget_set_sensitive (GTK_WIDGET (self->long_button), !self->test_running);
      gtk_widget_set_sensitive (GTK_WIDGET (self->abort_button), TRUE);
      return;
    }

  /* The drive took it: read its state now, and on while it runs. */
  adw_action_row_set_subtitle (self->self_test_row, _("The drive accepted the command…"));
  read_again (self);
}

static void
run_command (DsHealthPage *self,
             Command       command)
{
  g_autoptr(GTask) task = NULL;
  GWeakRef *ref = g_new0 (GWeakRef, 1);

  if (self->live_device == NULL || self->cancellable != NULL)
    return;

  g_weak_ref_init (ref, self);
  self->cancellable = g_cancellable_new ();
  /* No source object: the worker holds nothing of the page's. */
  task = g_task_new (NULL, self->cancellable, command_done_cb, ref);
  g_task_set_source_tag (task, run_command);
  g_task_set_name (task, "[diskscope] smartctl self-test");
  g_task_set_check_cancellable (task, FALSE);
  g_task_set_task_data (task, g_strdup (self->live_device), g_free);
  g_object_set_data (G_OBJECT (task), "ds-command", GINT_TO_POINTER (command));
  g_task_run_in_thread (task, command_worker);

  gtk_widget_set_sensitive (GTK_WIDGET (self->short_button), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->long_button), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->abort_button), FALSE);
  adw_action_row_set_subtitle (self->self_test_row, command == COMMAND_ABORT ?
                               _("Asking the drive to stop the test…") :
                               _("Asking the drive to start the test…"));
}

static void
short_clicked_cb (DsHealthPage *self)
{
  run_command (self, COMMAND_SHORT);
}

static void
long_clicked_cb (DsHealthPage *self)
{
  run_command (self, COMMAND_LONG);
}

static void
abort_clicked_cb (DsHealthPage *self)
{
  run_command (self, COMMAND_ABORT);
}

/* ---- DsPage ------------------------------------------------------------ */

static void
ds_health_page_set_device (DsPage         *page,
                           const DsDevice *device)
{
  DsHealthPage *self = DS_HEALTH_PAGE (page);

  g_free (self->device_path);
  self->device_path = g_strdup (device ? device->path : NULL);
}

/* Start reads the selected device; a read for a self-test's progress
 * reads the drive the page shows. */
static gboolean
ds_health_page_configure (DsPage       *page,
                          DsBenchSpec  *spec,
                          GError      **error)
{
  DsHealthPage *self = DS_HEALTH_PAGE (page);

  if (self->read_again && self->live_device != NULL)
    {
      g_free (spec->target_path);
      spec->target_path = g_strdup (self->live_device);
    }
  self->read_again = FALSE;

  return TRUE;
}

static void
ds_health_page_begin (DsPage            *page,
                      const DsBenchSpec *spec)
{
  DsHealthPage *self = DS_HEALTH_PAGE (page);

  g_free (self->run_path);
  self->run_path = g_strdup (spec->target_path);

  /* Read again (a self-test's progress): the figures stay meanwhile. */
  if (self->has_content && g_strcmp0 (self->live_device, spec->target_path) == 0)
    {
      gtk_label_set_label (self->source_label, _("Reading the drive again…"));
      return;
    }

  gtk_spinner_start (self->reading_spinner);
  gtk_stack_set_visible_child_name (self->stack, "reading");
}

static char *
result_key (const DsResult *result)
{
  return g_strdup_printf ("%s %s", result->started_at ? result->started_at : "",
                          result->spec.target_path ? result->spec.target_path : "");
}

static void
ds_health_page_show_result (DsPage         *page,
                            const DsResult *result)
{
  DsHealthPage *self = DS_HEALTH_PAGE (page);
  const DsHealthData *data = result->data;
  g_autofree char *key = result_key (result);

  g_return_if_fail (result->kind == DS_BENCH_HEALTH);

  /* Read from a drive here (a run began on it), or the same result shown
   * again (new units): self-tests allowed.  Opened from a file: not. */
  if (self->run_path != NULL && g_strcmp0 (self->run_path, result->spec.target_path) == 0)
    {
      g_free (self->live_key);
      self->live_key = g_steal_pointer (&key);
      g_free (self->live_device);
      self->live_device = g_strdup (result->spec.target_path);
    }
  else if (g_strcmp0 (self->live_key, key) != 0)
    {
      g_clear_pointer (&self->live_key, g_free);
      g_clear_pointer (&self->live_device, g_free);
    }
  g_clear_pointer (&self->run_path, g_free);

  if (data == NULL || data->health == NULL)
    {
      g_autoptr(GError) stopped = NULL;

      self->test_running = FALSE;
      update_poll (self);
      if (result->error != NULL)
        show_failure (self, result->error);
      else
        {
          stopped = g_error_new_literal (DS_ERROR, DS_ERROR_CANCELLED,
                                         _("The health was not read."));
          show_failure (self, stopped);
        }
      return;
    }

  show_verdict (self, data->health, result);
  _ds_health_page_fill (self, data->health, result);
  update_self_test (self, data->health);
  update_poll (self);

  gtk_spinner_stop (self->reading_spinner);
  gtk_stack_set_visible_child_name (self->stack, "content");
  self->has_content = TRUE;
}

static void
ds_health_page_show_error (DsPage     *page,
                           const char *message)
{
  DsHealthPage *self = DS_HEALTH_PAGE (page);

  g_clear_pointer (&self->run_path, g_free);
  if (message == NULL)
    return;

  /* A run that could not start keeps what the page showed. */
  if (self->has_content)
    {
      gtk_label_set_label (self->source_label, message);
      return;
    }

  show_status (self, "dialog-warning-symbolic", _("Could Not Read the Health"), message);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_device = ds_health_page_set_device;
  iface->configure = ds_health_page_configure;
  iface->begin = ds_health_page_begin;
  iface->show_result = ds_health_page_show_result;
  iface->show_error = ds_health_page_show_error;
}

/* ---- Life cycle -------------------------------------------------------- */

static void
ds_health_page_dispose (GObject *object)
{
  DsHealthPage *self = (DsHealthPage *) object;

  g_clear_handle_id (&self->poll_id, g_source_remove);
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  if (self->rows != NULL)
    _ds_health_page_clear (self);

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_HEALTH_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));

  G_OBJECT_CLASS (ds_health_page_parent_class)->dispose (object);
}

static void
ds_health_page_finalize (GObject *object)
{
  DsHealthPage *self = (DsHealthPage *) object;

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->device_path, g_free);
  g_clear_pointer (&self->run_path, g_free);
  g_clear_pointer (&self->live_key, g_free);
  g_clear_pointer (&self->live_device, g_free);

  G_OBJECT_CLASS (ds_health_page_parent_class)->finalize (object);
}

static void
ds_health_page_class_init (DsHealthPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_health_page_dispose;
  object_class->finalize = ds_health_page_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-health-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, stack);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, error_status);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, reading_spinner);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, verdict_box);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, verdict_icon);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, verdict_label);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, reasons_label);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, source_label);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, condition_group);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, drive_group);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, self_test_group);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, self_test_row);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, self_test_progress);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, short_button);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, long_button);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, abort_button);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, attributes_box);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, attributes_table);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, nvme_group);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, scsi_group);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, log_box);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, log_table);
  gtk_widget_class_bind_template_child (widget_class, DsHealthPage, notes_group);
  gtk_widget_class_bind_template_callback (widget_class, short_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, long_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, abort_clicked_cb);
}

static void
ds_health_page_init (DsHealthPage *self)
{
  self->rows = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  update_self_test (self, NULL);
}
