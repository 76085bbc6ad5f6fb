/* ds-info-page.c: what a device is and how it is set up
 *
 * Identity, geometry, queue settings, partitions and mounts, and whether
 * anything uses the device (which is what refuses a write test).
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "ds-device-features.h"
#include "ds-info-page.h"
#include "ds-page.h"
#include "ds-units.h"

struct _DsInfoPage
{
  GtkWidget             parent_instance;

  GPtrArray            *rows;   /* (group, row) pairs to remove */

  /* Template widgets */
  GtkStack             *stack;
  AdwPreferencesGroup  *identity_group;
  AdwPreferencesGroup  *geometry_group;
  AdwPreferencesGroup  *queue_group;
  AdwPreferencesGroup  *features_group;
  AdwPreferencesGroup  *usage_group;
};

static void page_iface_init (DsPageInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (DsInfoPage, ds_info_page, GTK_TYPE_WIDGET,
                               G_IMPLEMENT_INTERFACE (DS_TYPE_PAGE, page_iface_init))

static void
add_row (DsInfoPage          *self,
         AdwPreferencesGroup *group,
         const char          *title,
         const char          *value)
{
  GtkWidget *row;
  GtkWidget *label;

  if (value == NULL || *value == '\0')
    return;

  row = adw_action_row_new ();
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  label = gtk_label_new (value);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* Wraps only when the row is too narrow for the whole value: asked
   * for its full width, a value is not broken after every word. */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_natural_wrap_mode (GTK_LABEL (label), GTK_NATURAL_WRAP_NONE);
  gtk_label_set_justify (GTK_LABEL (label), GTK_JUSTIFY_RIGHT);
  gtk_label_set_xalign (GTK_LABEL (label), 1);
  gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_NONE);
  gtk_widget_add_css_class (label, "dim-label");
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), label);
  adw_preferences_group_add (group, row);

  g_ptr_array_add (self->rows, group);
  g_ptr_array_add (self->rows, row);
}

static void
add_bytes (DsInfoPage          *self,
           AdwPreferencesGroup *group,
           const char          *title,
           uint64_t             bytes)
{
  g_autofree char *size = ds_format_size (bytes);
  g_autofree char *exact = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
  /* Translators: a size, then the exact number of bytes */
  g_autofree char *text = g_strdup_printf (_("%s (%s bytes)"), size, exact);

  add_row (self, group, title, text);
}

static void
clear_rows (DsInfoPage *self)
{
  for (guint i = 0; i + 1 < self->rows->len; i += 2)
    adw_preferences_group_remove (self->rows->pdata[i], self->rows->pdata[i + 1]);
  g_ptr_array_set_size (self->rows, 0);
}

static const char *
yes_no (gboolean value)
{
  return value ? _("Yes") : _("No");
}

static const char *
smart_text (DsSmartSource source)
{
  switch (source)
    {
    case DS_SMART_NONE:
      return _("Not available (virtual device)");
    case DS_SMART_ATA:
      return _("ATA SMART");
    case DS_SMART_NVME:
      return _("NVMe health log");
    case DS_SMART_SCSI:
      return _("SCSI log pages");
    case DS_SMART_USB:
      return _("Only if the USB bridge passes it on");
    case DS_SMART_UNKNOWN:
    default:
      return _("Unknown");
    }
}

/* HD Tune's "Supported features": SMART, TRIM, queue depth (NCQ), FUA,
 * link speed. */
static void
add_features (DsInfoPage     *self,
              const DsDevice *device)
{
  g_autoptr (DsDeviceFeatures) f = ds_device_features_read (device);
  AdwPreferencesGroup *group = self->features_group;
  g_autofree char *discard = NULL;
  g_autofree char *queues = NULL;
  g_autofree char *depth = NULL;

  add_row (self, group, _("SMART"), smart_text (f->smart));
  if (f->discard)
    {
      g_autofree char *granularity = ds_format_size_iec (f->discard_granularity);

      /* Translators: TRIM is supported; %s is a size such as "4 KiB" */
      discard = g_strdup_printf (_("Yes, in steps of %s"), granularity);
    }
  add_row (self, group, _("TRIM / Discard"), discard ? discard : _("No"));
  add_row (self, group, _("Write Zeroes"), yes_no (f->write_zeroes_max_bytes > 0));
  add_row (self, group, _("Forced Unit Access"), yes_no (f->fua));
  if (f->hw_queues > 0)
    /* Translators: block layer queues, e.g. "4 × 256 requests" */
    queues = g_strdup_printf (_("%u × %u requests"), f->hw_queues, f->nr_requests);
  add_row (self, group, _("Queues"), queues);
  if (f->device_queue_depth > 1)
    /* Translators: the drive's own queue depth, with native command queuing on */
    depth = g_strdup_printf (_("%u (NCQ on)"), f->device_queue_depth);
  else if (f->device_queue_depth == 1)
    depth = g_strdup (_("1 (no NCQ)"));
  add_row (self, group, _("Device Queue Depth"), depth);
  add_row (self, group, _("Link Speed"), f->link_speed);
  add_row (self, group, _("Zoned"), f->zoned);
}

static void
ds_info_page_set_device (DsPage         *page,
                         const DsDevice *device)
{
  DsInfoPage *self = DS_INFO_PAGE (page);
  g_autofree char *in_use = NULL;
  g_autofree char *block = NULL;
  g_autofree char *max_kb = NULL;

  clear_rows (self);

  if (device == NULL)
    {
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  gtk_stack_set_visible_child_name (self->stack, "content");

  add_row (self, self->identity_group, _("Path"), device->path);
  add_row (self, self->identity_group, _("Type"), ds_device_type_to_string (device->type));
  add_row (self, self->identity_group, _("Model"), device->model);
  add_row (self, self->identity_group, _("Vendor"), device->vendor);
  add_row (self, self->identity_group, _("Serial Number"), device->serial);
  add_row (self, self->identity_group, _("Firmware"), device->firmware);
  add_row (self, self->identity_group, _("Transport"), device->transport);
  add_row (self, self->identity_group, _("Backing File"), device->backing_file);
  if (device->loop_direct_io >= 0)
    add_row (self, self->identity_group, _("Direct I/O"), yes_no (device->loop_direct_io));

  add_bytes (self, self->geometry_group, _("Capacity"), device->size_bytes);
  block = g_strdup_printf (_("%u / %u bytes"), device->logical_block_size,
                           device->physical_block_size);
  add_row (self, self->geometry_group, _("Logical / Physical Block"), block);

  add_row (self, self->queue_group, _("Rotational"), yes_no (device->rotational));
  add_row (self, self->queue_group, _("Removable"), yes_no (device->removable));
  add_row (self, self->queue_group, _("Read-Only"), yes_no (device->read_only));
  add_row (self, self->queue_group, _("Scheduler"), device->scheduler);
  add_row (self, self->queue_group, _("Write Cache"), device->write_cache);
  if (device->max_sectors_kb > 0)
    {
      max_kb = g_strdup_printf (_("%u KB"), device->max_sectors_kb);
      add_row (self, self->queue_group, _("Largest Request"), max_kb);
    }

  add_features (self, device);

  if (ds_device_in_use (device, &in_use))
    add_row (self, self->usage_group, _("In Use"), in_use);
  else
    add_row (self, self->usage_group, _("In Use"), _("No"));

  if (device->mountpoints != NULL && device->mountpoints[0] != NULL)
    {
      g_autofree char *text = g_strjoinv ("\n", device->mountpoints);

      add_row (self, self->usage_group, _("Mounted At"), text);
    }
  if (device->partitions != NULL && device->partitions[0] != NULL)
    {
      g_autofree char *text = g_strjoinv (", ", device->partitions);

      add_row (self, self->usage_group, _("Partitions"), text);
    }
  if (device->holders != NULL && device->holders[0] != NULL)
    {
      g_autofree char *text = g_strjoinv (", ", device->holders);

      add_row (self, self->usage_group, _("Held By"), text);
    }
  if (device->signature != NULL)
    {
      g_autofree char *text = device->signature_label
        ? g_strdup_printf ("%s “%s”", device->signature, device->signature_label)
        : g_strdup (device->signature);

      add_row (self, self->usage_group, _("Contents"), text);
    }
}

static void
page_iface_init (DsPageInterface *iface)
{
  iface->set_device = ds_info_page_set_device;
}

static void
ds_info_page_dispose (GObject *object)
{
  DsInfoPage *self = (DsInfoPage *) object;

  gtk_widget_dispose_template (GTK_WIDGET (self), DS_TYPE_INFO_PAGE);
  ds_widget_unparent_children (GTK_WIDGET (self));
  g_clear_pointer (&self->rows, g_ptr_array_unref);

  G_OBJECT_CLASS (ds_info_page_parent_class)->dispose (object);
}

static void
ds_info_page_class_init (DsInfoPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = ds_info_page_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, RESOURCE_BASE "ui/ds-info-page.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, DsInfoPage, stack);
  gtk_widget_class_bind_template_child (widget_class, DsInfoPage, identity_group);
  gtk_widget_class_bind_template_child (widget_class, DsInfoPage, geometry_group);
  gtk_widget_class_bind_template_child (widget_class, DsInfoPage, queue_group);
  gtk_widget_class_bind_template_child (widget_class, DsInfoPage, features_group);
  gtk_widget_class_bind_template_child (widget_class, DsInfoPage, usage_group);
}

static void
ds_info_page_init (DsInfoPage *self)
{
  self->rows = g_ptr_array_new ();

  gtk_widget_init_template (GTK_WIDGET (self));
}
