/* ds-caption.c: what a saved picture shows, in words (no widgets)
 *
 * HD Tune's screenshots name the drive in the window's title; ours carry a
 * caption: the device (path, model, capacity, serial and firmware where
 * known), the test and what shaped it (direction, accuracy, block size,
 * capacity tested…), when it ran, and Diskscope's version.  The window
 * draws it under the picture (ds-window-pictures.c) and writes it into
 * the PNG's text chunks (ds-png-text.c).  An opened result is captioned
 * with its own device and date, and the file it came from.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <glib/gi18n.h>

#include "ds-bench.h"
#include "ds-caption.h"
#include "ds-words.h"
#include "ds-units.h"

/* Between the parts of a line. */
#define SEPARATOR " · "

void
ds_caption_free (DsCaption *caption)
{
  if (caption == NULL)
    return;

  g_free (caption->title);
  g_free (caption->device);
  g_free (caption->test);
  g_free (caption->when);
  g_free (caption->software);
  g_free (caption);
}

char *
ds_caption_format_time (const char *iso8601)
{
  g_autoptr(GDateTime) time = iso8601 ? g_date_time_new_from_iso8601 (iso8601, NULL) : NULL;
  g_autoptr(GDateTime) local = time ? g_date_time_to_local (time) : NULL;

  return local ? g_date_time_format (local, "%Y-%m-%d %H:%M %Z") : NULL;
}

/* "2.1 GB (2 GiB)": a disk's size as its label says it, and as the sizes
 * typed into Diskscope are. */
static char *
format_capacity (uint64_t bytes)
{
  g_autofree char *si = ds_format_size (bytes);
  g_autofree char *iec = ds_format_size_iec (bytes);

  return g_strdup_printf ("%s (%s)", si, iec);
}

static char *
device_line (const char     *path,
             const char     *model,
             uint64_t        size_bytes,
             gboolean        is_folder,
             const DsDevice *device)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (parts, is_folder ? g_strdup_printf (_("Folder %s"), path) : g_strdup (path));
  if (model != NULL && model[0] != '\0')
    g_ptr_array_add (parts, g_strdup (model));
  if (size_bytes > 0)
    g_ptr_array_add (parts, format_capacity (size_bytes));
  if (device != NULL && device->serial != NULL)
    g_ptr_array_add (parts, g_strdup_printf (_("Serial %s"), device->serial));
  if (device != NULL && device->firmware != NULL)
    g_ptr_array_add (parts, g_strdup_printf (_("Firmware %s"), device->firmware));
  g_ptr_array_add (parts, NULL);

  return g_strjoinv (SEPARATOR, (char **) parts->pdata);
}

/* What shaped the run, in the order a user sets it. */
static char *
test_line (const char        *test_title,
           const DsBenchSpec *spec,
           const DsResult    *result)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *settings = NULL;
  const DsBenchOps *ops = ds_bench_get (spec->kind);
  /* A kind that runs across the device (or its first N bytes). */
  gboolean across_device = ops != NULL && ops->takes_capacity;

  if (across_device)
    g_ptr_array_add (parts, g_strdup (spec->write ? _("write") : _("read")));

  if (ops != NULL && ops->settings != NULL)
    ops->settings (spec, result, parts);
  else
    {
      if (spec->block_size_bytes > 0)
        ds_words_add_block (parts, spec->block_size_bytes);
      if (spec->queue_depth > 1)
        ds_words_add_queue (parts, spec->queue_depth);
    }

  if (across_device)
    g_ptr_array_add (parts, ds_words_capacity (spec->capacity_bytes));

  if (result == NULL)
    g_ptr_array_add (parts, g_strdup (_("not run yet")));
  else if (result->cancelled)
    g_ptr_array_add (parts, g_strdup (_("stopped before the end")));
  else if (result->error != NULL)
    g_ptr_array_add (parts, g_strdup (_("ended with an error")));
  else if (!result->complete)
    g_ptr_array_add (parts, g_strdup (_("did not finish")));

  if (parts->len == 0)
    return g_strdup (test_title);
  g_ptr_array_add (parts, NULL);
  settings = g_strjoinv (SEPARATOR, (char **) parts->pdata);

  /* Translators: a test's name, then its settings: "Benchmark: read · …" */
  return g_strdup_printf (_("%s: %s"), test_title, settings);
}

DsCaption *
ds_caption_new (const char        *test_title,
                const DsResult    *result,
                const char        *file,
                const DsBenchSpec *spec,
                const DsDevice    *device)
{
  DsCaption *caption;
  const char *path, *model;
  g_autofree char *software = NULL;

  g_return_val_if_fail (test_title != NULL, NULL);

  caption = g_new0 (DsCaption, 1);

  if (result != NULL)
    {
      /* Serial and firmware are the device's, not the result's: only when
       * it is the same device (path, size and model). */
      if (device != NULL &&
          (g_strcmp0 (device->path, result->target.path) != 0 ||
           device->size_bytes != result->target.size_bytes ||
           g_strcmp0 (device->model, result->target.model) != 0))
        device = NULL;

      path = result->target.path ? result->target.path : "?";
      model = result->target.model;
      caption->device = device_line (path, model, result->target.size_bytes,
                                     ds_bench_kind_has_folder (result->kind), device);
      caption->test = test_line (test_title, &result->spec, result);
      caption->when = ds_caption_format_time (result->started_at);
    }
  else
    {
      gboolean folder = spec != NULL && ds_bench_kind_has_folder (spec->kind);

      path = spec != NULL && spec->target_path ? spec->target_path : device ? device->path : NULL;
      model = device != NULL && !folder ? device->model : NULL;
      if (path != NULL)
        caption->device = device_line (path, model, device && !folder ? device->size_bytes : 0,
                                       folder, folder ? NULL : device);
      else
        caption->device = g_strdup (folder ? _("No folder chosen") : _("No device selected"));
      /* A page with no test of its own (Info) is named alone. */
      caption->test = spec != NULL ? test_line (test_title, spec, NULL) : g_strdup (test_title);
    }

  if (caption->when == NULL)
    {
      g_autoptr(GDateTime) now = g_date_time_new_now_local ();

      caption->when = g_date_time_format (now, "%Y-%m-%d %H:%M %Z");
    }

  if (result != NULL && result->tool_version != NULL &&
      g_strcmp0 (result->tool_version, PACKAGE_VERSION) != 0)
    /* Translators: the version shown, then the one that measured */
    software = g_strdup_printf (_("Diskscope %s (measured with %s)"), PACKAGE_VERSION,
                                result->tool_version);
  else
    software = g_strdup_printf (_("Diskscope %s"), PACKAGE_VERSION);

  if (file != NULL)
    {
      g_autofree char *name = g_path_get_basename (file);

      /* Translators: "Diskscope 0.1.0 · saved result loop10.json" */
      caption->software = g_strdup_printf (_("%s · saved result %s"), software, name);
    }
  else
    caption->software = g_steal_pointer (&software);

  if (path != NULL && model != NULL && model[0] != '\0')
    /* Translators: "Benchmark of /dev/sda (Samsung SSD 870)" */
    caption->title = g_strdup_printf (_("%s of %s (%s)"), test_title, path, model);
  else if (path != NULL)
    caption->title = g_strdup_printf (_("%s of %s"), test_title, path);
  else
    caption->title = g_strdup (test_title);

  return caption;
}

char *
ds_caption_to_text (const DsCaption *caption)
{
  g_return_val_if_fail (caption != NULL, NULL);

  return g_strjoin ("\n", caption->device, caption->test, caption->when, caption->software, NULL);
}

/* RFC 1123 ("Sat, 30 Nov 2026 10:41:00 +0100"), in English whatever the
 * locale, as PNG's Creation Time suggests. */
static char *
format_rfc1123 (GDateTime *time)
{
  static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
  static const char *const months[] = {
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  };
  g_autofree char *rest = g_date_time_format (time, "%Y %H:%M:%S %z");

  return g_strdup_printf ("%s, %02d %s %s", days[g_date_time_get_day_of_week (time) - 1],
                          g_date_time_get_day_of_month (time),
                          months[g_date_time_get_month (time) - 1], rest);
}

char **
ds_caption_png_text (const DsCaption *caption,
                     GDateTime       *created)
{
  GStrvBuilder *builder;
  g_autofree char *description = NULL;
  g_autofree char *creation = NULL;
  g_autofree char *software = g_strdup_printf ("Diskscope %s", PACKAGE_VERSION);
  char **text;

  g_return_val_if_fail (caption != NULL, NULL);
  g_return_val_if_fail (created != NULL, NULL);

  description = ds_caption_to_text (caption);
  creation = format_rfc1123 (created);
  builder = g_strv_builder_new ();
  g_strv_builder_add_many (builder,
                           "Title", caption->title,
                           "Description", description,
                           "Creation Time", creation,
                           "Software", software,
                           NULL);
  text = g_strv_builder_end (builder);
  g_strv_builder_unref (builder);

  return text;
}
