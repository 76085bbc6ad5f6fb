/* ds-cli-device.c: `diskscope-cli list` and `diskscope-cli info`
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>

#include "ds-cli.h"
#include "ds-device-features.h"
#include "ds-device.h"
#include "ds-error.h"
#include "ds-json.h"
#include "ds-units.h"

/* ---- JSON ---- */

static void
add_string (JsonBuilder *builder,
            const char  *key,
            const char  *value)
{
  json_builder_set_member_name (builder, key);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
add_strv (JsonBuilder *builder,
          const char  *key,
          char       **values)
{
  json_builder_set_member_name (builder, key);
  json_builder_begin_array (builder);
  for (size_t i = 0; values != NULL && values[i] != NULL; i++)
    json_builder_add_string_value (builder, values[i]);
  json_builder_end_array (builder);
}

static void
add_int (JsonBuilder *builder,
         const char  *key,
         gint64       value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_int_value (builder, value);
}

static void
add_bool (JsonBuilder *builder,
          const char  *key,
          gboolean     value)
{
  json_builder_set_member_name (builder, key);
  json_builder_add_boolean_value (builder, value);
}

static const char *const smart_names[] = {
  [DS_SMART_UNKNOWN] = "unknown", [DS_SMART_NONE] = "none", [DS_SMART_ATA] = "ata",
  [DS_SMART_NVME] = "nvme", [DS_SMART_SCSI] = "scsi", [DS_SMART_USB] = "usb",
};

static void
features_to_json (JsonBuilder    *builder,
                  const DsDevice *device)
{
  g_autoptr (DsDeviceFeatures) f = ds_device_features_read (device);

  json_builder_set_member_name (builder, "features");
  json_builder_begin_object (builder);
  add_bool (builder, "discard", f->discard);
  add_int (builder, "discard_granularity", (gint64) f->discard_granularity);
  add_int (builder, "discard_max_bytes", (gint64) f->discard_max_bytes);
  add_int (builder, "write_zeroes_max_bytes", (gint64) f->write_zeroes_max_bytes);
  add_bool (builder, "fua", f->fua);
  add_int (builder, "hw_queues", f->hw_queues);
  add_int (builder, "nr_requests", f->nr_requests);
  add_int (builder, "device_queue_depth", f->device_queue_depth);
  add_string (builder, "link_speed", f->link_speed);
  add_string (builder, "zoned", f->zoned);
  add_string (builder, "smart", smart_names[f->smart]);
  json_builder_end_object (builder);
}

static void
device_to_json (JsonBuilder    *builder,
                const DsDevice *device)
{
  g_autofree char *reason = NULL;
  gboolean in_use = ds_device_in_use (device, &reason);

  json_builder_begin_object (builder);
  add_string (builder, "name", device->name);
  add_string (builder, "path", device->path);
  add_string (builder, "parent", device->parent);
  add_string (builder, "type", ds_device_type_to_string (device->type));
  add_int (builder, "major", device->major);
  add_int (builder, "minor", device->minor);
  add_string (builder, "model", device->model);
  add_string (builder, "vendor", device->vendor);
  add_string (builder, "serial", device->serial);
  add_string (builder, "firmware", device->firmware);
  add_string (builder, "transport", device->transport);
  add_int (builder, "size_bytes", (gint64) device->size_bytes);
  add_int (builder, "logical_block_size", device->logical_block_size);
  add_int (builder, "physical_block_size", device->physical_block_size);
  add_bool (builder, "rotational", device->rotational);
  add_bool (builder, "removable", device->removable);
  add_bool (builder, "read_only", device->read_only);
  add_string (builder, "scheduler", device->scheduler);
  add_string (builder, "write_cache", device->write_cache);
  add_int (builder, "max_sectors_kb", device->max_sectors_kb);
  add_string (builder, "backing_file", device->backing_file);
  json_builder_set_member_name (builder, "loop_direct_io");
  if (device->loop_direct_io >= 0)
    json_builder_add_boolean_value (builder, device->loop_direct_io != 0);
  else
    json_builder_add_null_value (builder);
  add_strv (builder, "mountpoints", device->mountpoints);
  add_strv (builder, "holders", device->holders);
  add_strv (builder, "partitions", device->partitions);
  add_string (builder, "signature", device->signature);
  add_string (builder, "signature_label", device->signature_label);
  add_bool (builder, "in_use", in_use);
  add_string (builder, "in_use_reason", reason);
  features_to_json (builder, device);
  json_builder_end_object (builder);
}

static void
print_json (JsonBuilder *builder)
{
  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  g_autofree char *text = ds_json_to_generator_text (root);

  fputs (text, stdout);
}

/* ---- human output ---- */

static char *
flags_string (const DsDevice *device)
{
  g_autoptr (GPtrArray) flags = g_ptr_array_new ();

  if (device->read_only)
    g_ptr_array_add (flags, "ro");
  if (device->rotational)
    g_ptr_array_add (flags, "rot");
  if (device->removable)
    g_ptr_array_add (flags, "removable");
  g_ptr_array_add (flags, NULL);

  return g_strjoinv (",", (char **) flags->pdata);
}

static char *
notes_string (const DsDevice *device)
{
  g_autoptr (GString) notes = g_string_new (NULL);
  g_autofree char *reason = NULL;

  if (ds_device_in_use (device, &reason))
    g_string_append_printf (notes, "in use: %s", reason);
  if (device->backing_file != NULL)
    g_string_append_printf (notes, "%sbacking %s, dio=%d",
                            notes->len ? "; " : "", device->backing_file,
                            device->loop_direct_io);
  if (device->signature != NULL)
    g_string_append_printf (notes, "%s%s%s%s%s", notes->len ? "; " : "",
                            device->signature,
                            device->signature_label ? " “" : "",
                            device->signature_label ? device->signature_label : "",
                            device->signature_label ? "”" : "");

  return g_string_free (g_steal_pointer (&notes), FALSE);
}

#define N_COLUMNS 6

static void
print_row (char *const *cells,
           const int   *widths)
{
  g_autoptr (GString) line = g_string_new (NULL);

  for (int c = 0; c < N_COLUMNS; c++)
    {
      const char *cell = cells[c] ? cells[c] : "";

      g_string_append (line, cell);
      if (c + 1 < N_COLUMNS)
        {
          long pad = widths[c] - (long) g_utf8_strlen (cell, -1) + 2;

          for (long i = 0; i < pad; i++)
            g_string_append_c (line, ' ');
        }
    }
  /* No trailing blanks when the last columns are empty. */
  while (line->len > 0 && line->str[line->len - 1] == ' ')
    g_string_truncate (line, line->len - 1);
  printf ("%s\n", line->str);
}

static void
print_table (GPtrArray *devices)
{
  static const char *const headers[N_COLUMNS] = {
    "NAME", "SIZE", "TYPE", "MODEL", "FLAGS", "NOTES",
  };
  g_autoptr (GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  int widths[N_COLUMNS];
  guint hidden = 0;

  for (int c = 0; c < N_COLUMNS; c++)
    widths[c] = (int) strlen (headers[c]);

  for (guint i = 0; i < devices->len; i++)
    {
      const DsDevice *device = g_ptr_array_index (devices, i);
      char **cells;

      /* Unbound loop devices and unset zram: nothing to measure. */
      if (device->size_bytes == 0)
        {
          hidden++;
          continue;
        }

      cells = g_new0 (char *, N_COLUMNS + 1);
      cells[0] = device->parent ? g_strdup_printf ("  %s", device->path)
                                : g_strdup (device->path);
      cells[1] = ds_format_size (device->size_bytes);
      cells[2] = g_strdup (ds_device_type_to_string (device->type));
      cells[3] = g_strdup (device->model ? device->model : "");
      cells[4] = flags_string (device);
      cells[5] = notes_string (device);
      for (int c = 0; c < N_COLUMNS; c++)
        widths[c] = MAX (widths[c], (int) g_utf8_strlen (cells[c], -1));
      g_ptr_array_add (rows, cells);
    }

  print_row ((char *const *) headers, widths);
  for (guint i = 0; i < rows->len; i++)
    print_row (g_ptr_array_index (rows, i), widths);

  if (rows->len == 0)
    printf (_("(no block devices with a medium)\n"));
  if (hidden > 0)
    printf (ngettext ("\n%u empty device not shown (unbound loop, unset zram, no "
                      "medium); --json lists them.\n",
                      "\n%u empty devices not shown (unbound loop, unset zram, no "
                      "medium); --json lists them.\n", hidden), hidden);
}

int
ds_cli_list (int    argc,
             char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (GPtrArray) devices = NULL;
  g_autoptr (GError) error = NULL;
  gboolean json = FALSE;
  int status = DS_CLI_OK;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON (every device, empty ones too)"), NULL },
    { NULL }
  };

  context = g_option_context_new (N_("— list block devices"));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc > 1)
    {
      return ds_cli_complain (DS_CLI_USAGE, _("list takes no arguments (got “%s”)"), argv[1]);
    }

  devices = ds_device_list (&error);
  if (devices == NULL)
    {
      return ds_cli_fail (error);
    }

  if (json)
    {
      g_autoptr (JsonBuilder) builder = json_builder_new ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "devices");
      json_builder_begin_array (builder);
      for (guint i = 0; i < devices->len; i++)
        device_to_json (builder, g_ptr_array_index (devices, i));
      json_builder_end_array (builder);
      json_builder_end_object (builder);
      print_json (builder);
    }
  else
    print_table (devices);

  return ds_cli_flush_stdout (DS_CLI_OK);
}

/* ---- info ---- */

static const char *
or_dash (const char *value)
{
  return value != NULL ? value : "–";
}

static const char *
yes_no (gboolean value)
{
  return value ? "yes" : "no";
}

static char *
join_or_dash (char **values)
{
  if (values == NULL || values[0] == NULL)
    return g_strdup ("–");

  return g_strjoinv (", ", values);
}

static void
field (const char *label,
       const char *value)
{
  printf ("  %-16s %s\n", label, value);
}

/* Why the signature is unknown, when the device cannot be opened; NULL if
 * it can. */
static char *
probe_access_problem (const DsDevice *device)
{
  g_autoptr (GError) error = NULL;
  int fd;

  if (device->size_bytes == 0)
    return NULL;
  fd = open (device->path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd >= 0)
    {
      close (fd);
      return NULL;
    }
  ds_set_error_from_errno (&error, errno, device->path);

  return g_strdup (error->message);
}

/* What the device can do: HD Tune's "Supported features". */
static void
print_features (const DsDevice *device)
{
  g_autoptr (DsDeviceFeatures) f = ds_device_features_read (device);
  g_autofree char *discard = NULL;
  g_autofree char *zeroes = NULL;
  g_autofree char *queues = NULL;
  g_autofree char *depth = NULL;

  if (f->discard)
    {
      g_autofree char *granularity = ds_format_size_iec (f->discard_granularity);
      g_autofree char *most = ds_format_size_iec (f->discard_max_bytes);

      discard = g_strdup_printf ("yes (granularity %s, up to %s a command)", granularity, most);
    }
  if (f->write_zeroes_max_bytes > 0)
    {
      g_autofree char *most = ds_format_size_iec (f->write_zeroes_max_bytes);

      zeroes = g_strdup_printf ("yes (up to %s a command)", most);
    }
  if (f->hw_queues > 0)
    queues = g_strdup_printf ("%u hardware queue%s, %u requests each", f->hw_queues,
                              f->hw_queues == 1 ? "" : "s", f->nr_requests);
  if (f->device_queue_depth > 0)
    depth = g_strdup_printf ("%u%s", f->device_queue_depth,
                             f->device_queue_depth > 1 ? " (NCQ/TCQ on)" : " (no NCQ)");

  printf (_("\nFeatures\n"));
  field ("SMART:", ds_smart_source_to_string (f->smart));
  field ("TRIM/discard:", discard ? discard : "no");
  field ("Write zeroes:", zeroes ? zeroes : "no");
  field ("FUA:", yes_no (f->fua));
  field ("Queues:", or_dash (queues));
  field ("Device queue:", or_dash (depth));
  field ("Link speed:", or_dash (f->link_speed));
  if (f->zoned != NULL)
    field ("Zoned:", f->zoned);
}

static void
print_info (const DsDevice *device,
            const char     *access_problem)
{
  g_autofree char *description = ds_device_describe (device);
  g_autofree char *size = ds_format_size (device->size_bytes);
  g_autofree char *size_text = g_strdup_printf ("%" G_GUINT64_FORMAT " bytes (%s)",
                                                device->size_bytes, size);
  g_autofree char *logical = g_strdup_printf ("%u bytes", device->logical_block_size);
  g_autofree char *physical = g_strdup_printf ("%u bytes", device->physical_block_size);
  g_autofree char *numbers = g_strdup_printf ("%u:%u", device->major, device->minor);
  g_autofree char *max_request = NULL;
  g_autofree char *mounts = join_or_dash (device->mountpoints);
  g_autofree char *holders = join_or_dash (device->holders);
  g_autofree char *partitions = join_or_dash (device->partitions);
  g_autofree char *signature = NULL;
  g_autofree char *reason = NULL;
  gboolean in_use = ds_device_in_use (device, &reason);

  if (device->max_sectors_kb > 0)
    max_request = g_strdup_printf ("%u KiB", device->max_sectors_kb);

  if (device->signature != NULL && device->signature_label != NULL)
    signature = g_strdup_printf ("%s (label “%s”)", device->signature, device->signature_label);
  else if (device->signature != NULL)
    signature = g_strdup (device->signature);
  else if (access_problem != NULL)
    signature = g_strdup_printf ("unknown: %s", access_problem);
  else
    signature = g_strdup ("none");

  printf ("%s\n\n", description);

  printf (_("Identity\n"));
  field ("Path:", device->path);
  field ("Name:", device->name);
  field ("Type:", ds_device_type_to_string (device->type));
  if (device->parent != NULL)
    field ("Parent:", device->parent);
  field ("Device number:", numbers);
  field ("Model:", or_dash (device->model));
  field ("Vendor:", or_dash (device->vendor));
  field ("Serial:", or_dash (device->serial));
  field ("Firmware:", or_dash (device->firmware));
  field ("Transport:", or_dash (device->transport));
  if (device->type == DS_DEVICE_LOOP)
    {
      field ("Backing file:", device->backing_file ? device->backing_file : "– (unbound)");
      field ("Direct I/O:", device->loop_direct_io < 0 ? "–" :
                            device->loop_direct_io ? "on (dio=1)" : "off (dio=0)");
    }

  printf (_("\nGeometry\n"));
  field ("Size:", size_text);
  field ("Logical block:", logical);
  field ("Physical block:", physical);

  printf (_("\nQueue\n"));
  field ("Rotational:", yes_no (device->rotational));
  field ("Removable:", yes_no (device->removable));
  field ("Read-only:", yes_no (device->read_only));
  field ("Scheduler:", or_dash (device->scheduler));
  field ("Write cache:", or_dash (device->write_cache));
  field ("Max request:", or_dash (max_request));

  print_features (device);

  printf (_("\nIn use\n"));
  field ("In use:", in_use ? reason : "no");
  field ("Mounted at:", mounts);
  field ("Holders:", holders);
  field ("Partitions:", partitions);
  field ("Signature:", signature);
}

int
ds_cli_info (int    argc,
             char **argv)
{
  g_autoptr (GOptionContext) context = NULL;
  g_autoptr (DsDevice) device = NULL;
  g_autoptr (GError) error = NULL;
  g_autofree char *access_problem = NULL;
  gboolean json = FALSE;
  int status = DS_CLI_OK;
  const GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &json, N_("Print JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (N_("TARGET — show one block device"));
  g_option_context_add_main_entries (context, entries, NULL);
  if (!ds_cli_parse_options (context, &argc, &argv, &status))
    return status;
  if (argc != 2)
    {
      return ds_cli_complain (DS_CLI_USAGE, _("info needs exactly one TARGET, "
                              "a block device such as /dev/sda"));
    }

  device = ds_device_lookup (argv[1], &error);
  if (device == NULL)
    {
      return ds_cli_fail (error);
    }
  access_problem = probe_access_problem (device);

  if (json)
    {
      g_autoptr (JsonBuilder) builder = json_builder_new ();

      device_to_json (builder, device);
      print_json (builder);
    }
  else
    print_info (device, access_problem);

  if (access_problem != NULL)
    fprintf (stderr, _("diskscope-cli: note: %s\n"), access_problem);

  return ds_cli_flush_stdout (DS_CLI_OK);
}
