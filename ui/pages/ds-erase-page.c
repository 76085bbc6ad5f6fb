/* ds-erase-page.c: HD Tune's Erase tab
 *
 * A page of its own, as GNOME Disks' "Format Disk" is a dialog of its
 * own: the method (zeros, random data, discard, secure discard), a verify
 * switch and one destructive button.  The button is the window's Start
 * (win.start), so an erase goes the one way every write goes: the page
 * adds its choices to the spec, the session decides what the write needs
 * (ds_session_check_write(): refused when mounted or in use, else the
 * typed device name in DsWriteConfirmDialog), and only then runs it.
 * Progress shows the phase, its rate and the time left; the result says
 * which method was used, what was written, whether it read back as
 * written and which blocks could not be written.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ds-bench-erase.h"
#include "ds-erase-page.h"
#include "ds-page.h"
#include "ds-session.h"

struct _DsErasePage
{
  GtkWidget            parent_instance;

  GPtrArray           *rows;          /* the result's (group, row) pairs */
  char                *device_path;
  DsUnits              units;
  gint64               started_us;
  const char          *phase;
  DsEraseMethod        shown_method;

  /* Template widgets */
  GtkInfoBar          *error_bar;
  GtkLabel            *error_label;
  AdwPreferencesGroup *method_group;
  GtkCheckButton      *zeros_check;
  GtkCheckButton      *random_check;
  GtkCheckButton      *discard_check;
  GtkCheckButton      *secure_check;
  AdwActionRow        *discard_row;
  AdwActionRow        *secure_row;
  GtkSwitch           *verify_switch;
  GtkButton           *erase_button;
  GtkLabel            *placeholder_label;
  GtkBox              *progress_box;
  GtkLabel            *progress_title;
  GtkProgressBar      *progress_bar;
  GtkLabel            *progress_label;
  AdwPreferencesGroup *result_group;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsErasePage, ds_erase_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

static DsEraseMethod
chosen_method (DsErasePage *self)
{
  if (gtk_check_button_get_active (self->random_check))
    return DS_ERASE_RANDOM;
  if (gtk_check_button_get_active (self->discard_check))
    return DS_ERASE_DISCARD;
  if (gtk_check_button_get_active (self->secure_check))
    return DS_ERASE_SECURE_DISCARD;
  return DS_ERASE_ZEROS;
}

static const char *
method_words (DsEraseMethod method)
{
  switch (method)
    {
    case DS_ERASE_RANDOM:
      return _("Overwritten with random data");
    case DS_ERASE_DISCARD:
      return _("Discarded (BLKDISCARD)");
    case DS_ERASE_SECURE_DISCARD:
      return _("Securely discarded (BLKSECDISCARD)");
    case DS_ERASE_ZEROS:
    default:
      return _("Overwritten with zeros");
    }
}

static void
update_button (DsErasePage *self)
{
  g_autofree char *label = NULL;
  gboolean discard = chosen_method (self) == DS_ERASE_DISCARD ||
                     chosen_method (self) == DS_ERASE_SECURE_DISCARD;

  if (self->device_path != NULL)
    /* Translators: the button that erases a device, named */
    label = g_strdup_printf (discard ? _("_Discard Everything on %s…") : _("_Erase %s…"),
                             self->device_path);
  gtk_button_set_label (self->erase_button, label ? label : _("_Erase…"));
}

static void
method_toggled_cb (DsErasePage *self)
{
  DsEraseMethod method = chosen_method (self);

  /* A device may accept a discard and keep every byte: a discard is read
   * back unless the user turns it off. */
  if (!ds_erase_method_overwrites (method) && method != self->shown_method)
    gtk_switch_set_active (self->verify_switch, TRUE);
  self->shown_method = method;
  update_button (self);
}

/* "1 min 20 s", "45 s" */
static char *
format_time_left (double seconds)
{
  if (seconds >= 3600)
    return g_strdup_printf (_("%d h %d min"), (int) (seconds / 3600), (int) (seconds / 60) % 60);
  if (seconds >= 60)
    return g_strdup_printf (_("%d min %d s"), (int) (seconds / 60), (int) seconds % 60);
  return g_strdup_printf (_("%d s"), (int) seconds);
}

/* ---- DsPage ------------------------------------------------------------ */

static void
ds_erase_page_set_device (DsPage         *page,
                          const DsDevice *device)
{
  DsErasePage *self = DS_ERASE_PAGE (page);
  gboolean discard = device != NULL && ds_erase_discard_supported (device->path);

  g_free (self->device_path);
  self->device_path = g_strdup (device ? device->path : NULL);

  /* Discard only where the device offers it (the core refuses it
   * otherwise, before writing anything); secure discard can only be
   * asked for. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->discard_row), discard);
  adw_action_row_set_subtitle (self->discard_row, discard || device == NULL ?
                               _("The device is told every block is free (SSDs, thin volumes, zram), then read back: a device may keep the data") :
                               _("This device does not support discard"));
  gtk_widget_set_sensitive (GTK_WIDGET (self->secure_row), discard);
  if (!discard && (gtk_check_button_get_active (self->discard_check) ||
                   gtk_check_button_get_active (self->secure_check)))
    gtk_check_button_set_active (self->zeros_check, TRUE);

  update_button (self);
}

static void
ds_erase_page_set_units (DsPage  *page,
                         DsUnits  units)
{
  DS_ERASE_PAGE (page)->units = units;
}

static gboolean
ds_erase_page_configure (DsPage       *page,
                         DsBenchSpec  *spec,
                         GError      **error)
{
  DsErasePage *self = DS_ERASE_PAGE (page);

  /* ds_bench_spec_init() made it a write: the session asks for the name. */
  ds_erase_options (spec)->method = chosen_method (self);
  ds_erase_options (spec)->verify = gtk_switch_get_active (self->verify_switch);

  return TRUE;
}

static void
ds_erase_page_show_error (DsPage     *page,
                          const char *message)
{
  DsErasePage *self = DS_ERASE_PAGE (page);

  gtk_label_set_label (self->error_label, message ? message : "");
  gtk_info_bar_set_revealed (self->error_bar, message != NULL);
}

/* "Erasing /dev/sdb with zeros, then reading every byte back" */
static char *
describe_run (const DsBenchSpec *spec)
{
  const DsEraseOptions *o = ds_erase_options_const (spec);
  const char *path = spec->target_path ? spec->target_path : "";
  g_autofree char *what = NULL;

  switch (o->method)
    {
    case DS_ERASE_RANDOM:
      what = g_strdup_printf (_("Erasing %s with random data"), path);
      break;
    case DS_ERASE_DISCARD:
      what = g_strdup_printf (_("Discarding every block of %s"), path);
      break;
    case DS_ERASE_SECURE_DISCARD:
      what = g_strdup_printf (_("Securely discarding every block of %s"), path);
      break;
    case DS_ERASE_ZEROS:
    default:
      what = g_strdup_printf (_("Erasing %s with zeros"), path);
      break;
    }
  if (!o->verify)
    return g_steal_pointer (&what);

  /* Translators: what the erase does, then that it verifies */
  return g_strdup_printf (_("%s, then reading every byte back"), what);
}

static void
ds_erase_page_begin (DsPage            *page,
                     const DsBenchSpec *spec)
{
  DsErasePage *self = DS_ERASE_PAGE (page);
  g_autofree char *title = describe_run (spec);

  ds_erase_page_show_error (page, NULL);
  ds_rows_remove_all (self->rows);
  gtk_widget_set_visible (GTK_WIDGET (self->result_group), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->placeholder_label), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->method_group), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_box), TRUE);
  gtk_label_set_label (self->progress_title, title);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
  gtk_label_set_label (self->progress_label, _("Opening the device…"));
  self->started_us = 0;
  self->phase = NULL;
}

static void
ds_erase_page_add_samples (DsPage         *page,
                           const DsSample *samples,
                           guint           n_samples)
{
  DsErasePage *self = DS_ERASE_PAGE (page);
  const DsSample *last = NULL;
  g_autofree char *rate = NULL;
  g_autofree char *left = NULL;
  g_autofree char *text = NULL;
  double elapsed_s;
  const char *doing;

  for (guint i = 0; i < n_samples; i++)
    {
      if (samples[i].kind == DS_SAMPLE_PHASE)
        {
          self->phase = samples[i].name;
          /* The time left counts from the first write, not from the
           * opening and the safety checks before it. */
          if (self->started_us == 0)
            self->started_us = g_get_monotonic_time ();
        }
      else if (samples[i].kind == DS_SAMPLE_PROGRESS)
        last = &samples[i];
    }
  if (last == NULL)
    return;

  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (last->progress, 0, 1));
  if (self->started_us == 0)
    self->started_us = g_get_monotonic_time ();
  elapsed_s = (g_get_monotonic_time () - self->started_us) / 1e6;
  rate = ds_format_rate_l10n (last->value, self->units);
  doing = g_strcmp0 (self->phase, "verify") == 0 ? _("Verifying") :
          g_strcmp0 (self->phase, "discard") == 0 ? _("Discarding") : _("Writing");

  if (last->progress > 0.01)
    {
      left = format_time_left (elapsed_s * (1 - last->progress) / last->progress);
      /* Translators: writing or verifying, percent done, the rate, the time left */
      text = g_strdup_printf (_("%s: %.0f %% done at %s, about %s left"), doing,
                              last->progress * 100, rate, left);
    }
  else
    text = g_strdup_printf (_("%s: %.0f %% done at %s"), doing, last->progress * 100, rate);
  gtk_label_set_label (self->progress_label, text);
}

/* "268435456 bytes in 1.1 s (248.1 MB/s)" */
static char *
bytes_in_time (DsErasePage *self,
               uint64_t     bytes,
               uint64_t     ns)
{
  g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
  g_autofree char *rate = ds_format_rate_l10n (ns ? (double) bytes * 1e9 / (double) ns : 0, self->units);

  /* Translators: bytes, seconds, rate */
  return g_strdup_printf (_("%s bytes in %.1f s (%s)"), count, ns / 1e9, rate);
}

static void
add_ranges (DsErasePage       *self,
            const char        *title,
            const DsRangeList *list)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < list->ranges->len && i < 20; i++)
    {
      const DsByteRange *r = &g_array_index (list->ranges, DsByteRange, i);

      g_string_append_printf (text, "%s%" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT,
                              i ? "\n" : "", r->offset_bytes, r->length_bytes);
    }
  if (list->ranges->len > 20 || list->truncated)
    g_string_append (text, "\n…");
  ds_rows_add_figure (self->rows, self->result_group, title, text->str, "error");
  g_string_free (text, TRUE);
}

/* A run that ended part way: exactly which bytes it changed. */
static void
add_reached (DsErasePage    *self,
             const DsResult *result)
{
  const DsEraseData *data = result->data;
  gboolean overwrites = ds_erase_method_overwrites (data->method);
  g_autofree char *size = NULL;
  g_autofree char *text = NULL;
  const char *title;

  if (data->reached_bytes >= data->size_bytes)
    return;
  title = overwrites ? _("Overwritten Before the Stop") : _("Discarded Before the Stop");
  if (!result->cancelled)
    title = overwrites ? _("Overwritten Before the Error") : _("Discarded Before the Error");
  if (data->reached_bytes == 0)
    text = g_strdup (_("Nothing: every byte is untouched"));
  else
    {
      g_autofree char *last = g_strdup_printf ("%" G_GUINT64_FORMAT, data->reached_bytes - 1);
      g_autofree char *all = g_strdup_printf ("%" G_GUINT64_FORMAT, data->size_bytes);

      size = g_format_size_full (data->reached_bytes, G_FORMAT_SIZE_IEC_UNITS);
      /* Translators: the last byte changed, its size, all bytes: "Bytes 0 –
       * 114294783 (109.0 MiB) of 268435456; the rest is untouched" */
      text = g_strdup_printf (_("Bytes 0 – %s (%s) of %s; the rest is untouched"), last, size, all);
    }
  ds_rows_add_figure (self->rows, self->result_group, title, text, "warning");
}

static void
ds_erase_page_show_result (DsPage         *page,
                           const DsResult *result)
{
  DsErasePage *self = DS_ERASE_PAGE (page);
  const DsEraseData *data = result->data;
  g_autofree char *error = ds_session_describe_error (result);
  g_autofree char *done = NULL;
  g_autofree char *when = NULL;
  g_autofree char *where = NULL;
  const char *outcome;

  g_return_if_fail (result->kind == DS_BENCH_ERASE);

  ds_erase_page_show_error (page, error);
  ds_rows_remove_all (self->rows);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_box), FALSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->method_group), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->result_group), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->placeholder_label), FALSE);

  if (result->complete && result->error == NULL)
    outcome = data->verify ? _("Erased and verified: every byte read back as written") : _("Erased");
  else if (result->cancelled)
    outcome = _("Stopped: the device is partly erased");
  else
    outcome = _("Not erased completely: the old data may survive in places");
  adw_preferences_group_set_title (self->result_group, outcome);
  when = ds_format_local_time (result->started_at);
  /* Translators: the device, then when the erase started */
  where = g_strdup_printf (_("%s, started %s"), result->target.path ? result->target.path : "", when);
  adw_preferences_group_set_description (self->result_group, where);

  if (data == NULL)
    return;

  ds_rows_add_figure (self->rows, self->result_group, _("Method"), method_words (data->method), NULL);
  done = bytes_in_time (self, data->bytes_done, data->erase_ns);
  if (data->bytes_done < data->size_bytes)
    {
      g_autofree char *size_text = g_strdup_printf ("%" G_GUINT64_FORMAT, data->size_bytes);
      /* Translators: what was done (bytes in time), then the bytes to do */
      g_autofree char *of = g_strdup_printf (_("%s, of %s"), done, size_text);

      g_free (done);
      done = g_steal_pointer (&of);
    }
  ds_rows_add_figure (self->rows, self->result_group,
                      data->method == DS_ERASE_DISCARD || data->method == DS_ERASE_SECURE_DISCARD ?
                      _("Discarded") : _("Written"), done, NULL);
  add_reached (self, result);
  if (data->verify)
    {
      g_autofree char *read = bytes_in_time (self, data->bytes_verified, data->verify_ns);
      g_autofree char *kept = NULL;
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, data->survived.total_bytes);
      const char *verdict = data->verified ? _("Yes") : _("No");

      if (data->bytes_verified < data->size_bytes)
        verdict = _("Not to the end");
      else if (data->survived.total_bytes > 0)
        /* Translators: the bytes a discard left as they were */
        verdict = kept = g_strdup_printf (_("No: at least %s bytes still hold the old data "
                                            "(the device accepted the discard and kept them)"),
                                          count);
      ds_rows_add_figure (self->rows, self->result_group, _("Verified"), verdict,
                          data->verified ? "success" : "error");
      ds_rows_add_figure (self->rows, self->result_group, _("Read Back"), read, NULL);
    }
  else
    ds_rows_add_figure (self->rows, self->result_group, _("Verified"), _("Not asked for"), NULL);

  if (data->write_errors.ranges->len > 0)
    add_ranges (self, _("Could Not Be Written"), &data->write_errors);
  if (data->survived.ranges->len > 0)
    add_ranges (self, _("Still Hold the Old Data"), &data->survived);
  if (data->mismatches.ranges->len > 0)
    add_ranges (self, _("Read Back Otherwise"), &data->mismatches);
  for (guint i = 0; result->notes != NULL && i < result->notes->len; i++)
    ds_rows_add_figure (self->rows, self->result_group, result->notes->pdata[i], NULL, NULL);
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_device = ds_erase_page_set_device;
  iface->set_units = ds_erase_page_set_units;
  iface->configure = ds_erase_page_configure;
  iface->begin = ds_erase_page_begin;
  iface->add_samples = ds_erase_page_add_samples;
  iface->show_result = ds_erase_page_show_result;
  iface->show_error = ds_erase_page_show_error;
}

/* ---- Life cycle -------------------------------------------------------- */

static void
error_bar_response_cb (DsErasePage *self,
                       int          response,
                       GtkInfoBar  *bar)
{
  gtk_info_bar_set_revealed (bar, FALSE);
}

static void
ds_erase_page_dispose (GObject *object)
{
  DsErasePage *self = (DsErasePage *) object;

  if (self->rows != NULL)
    ds_rows_remove_all (self->rows);
  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_ERASE_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));

  G_OBJECT_CLASS (ds_erase_page_parent_class)->dispose (object);
}

static void
ds_erase_page_finalize (GObject *object)
{
  DsErasePage *self = (DsErasePage *) object;

  g_clear_pointer (&self->rows, g_ptr_array_unref);
  g_clear_pointer (&self->device_path, g_free);

  G_OBJECT_CLASS (ds_erase_page_parent_class)->finalize (object);
}

static void
ds_erase_page_class_init (DsErasePageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_erase_page_dispose;
  object_class->finalize = ds_erase_page_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-erase-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, error_bar);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, error_label);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, method_group);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, zeros_check);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, random_check);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, discard_check);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, secure_check);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, discard_row);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, secure_row);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, verify_switch);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, erase_button);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, placeholder_label);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, progress_box);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, progress_title);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, progress_label);
  gtk_widget_class_bind_template_child (widget_class, DsErasePage, result_group);
  gtk_widget_class_bind_template_callback (widget_class, error_bar_response_cb);
  gtk_widget_class_bind_template_callback (widget_class, method_toggled_cb);
}

static void
ds_erase_page_init (DsErasePage *self)
{
  self->rows = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
  ds_erase_page_set_device (DS_PAGE (self), NULL);
}
