/* ds-warnings.c: when a result is likely fooled.  Each rule names what
 * fooled the figures and what to do; the facts come from the run
 * (ds-run-watch.c), so the rules are tested on facts alone.
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <inttypes.h>

#include <glib/gi18n-lib.h>

#include "ds-error.h"
#include "ds-json.h"
#include "ds-text.h"
#include "ds-units.h"
#include "ds-warnings.h"

DsWarning *
ds_warning_new (const char *code,
                const char *message)
{
  DsWarning *w = g_new0 (DsWarning, 1);

  w->code = g_strdup (code);
  w->message = g_strdup (message);

  return w;
}

void
ds_warning_free (DsWarning *warning)
{
  if (warning == NULL)
    return;
  g_free (warning->code);
  g_free (warning->message);
  g_free (warning);
}

void
ds_warnings_add (GPtrArray  *out,
                 const char *code,
                 char       *message)
{
  g_ptr_array_add (out, ds_warning_new (code, message));
  g_free (message);
}

static char *
join_rows (GPtrArray *rows)
{
  g_autoptr (GString) s = g_string_new (NULL);

  for (guint i = 0; rows != NULL && i < rows->len; i++)
    {
      if (i > 0)
        g_string_append (s, "; ");
      g_string_append (s, rows->pdata[i]);
    }

  return g_strdup (s->str);
}

GPtrArray *
ds_warnings_judge (const DsWarnFacts *f)
{
  GPtrArray *out = g_ptr_array_new_with_free_func ((GDestroyNotify) ds_warning_free);

  if (f->loop_no_dio != NULL)
    ds_warnings_add (out, "loop_no_direct_io",
         g_strdup_printf (_("Reads were served from the loop device's backing file "
                            "page cache (direct I/O off on %s): these figures are not "
                            "the disk's. Set it up with “losetup --direct-io=on”."),
                          f->loop_no_dio));

  if (f->cache_layer != NULL)
    ds_warnings_add (out, "cache_layer",
         g_strdup_printf (_("A cache sits below this device (%s): repeated I/O may be "
                            "served by the cache, not by the disk behind it."),
                          f->cache_layer));

  if (f->other_judged && f->other_bytes >= DS_WARN_OTHER_IO_MIN_BYTES &&
      (double) f->other_bytes > DS_WARN_OTHER_IO_FRACTION * (double) f->ours_bytes)
    {
      g_autofree char *other = ds_format_size (f->other_bytes);
      g_autofree char *ours = ds_format_size (f->ours_bytes);

      ds_warnings_add (out, "other_io",
           g_strdup_printf (_("Something else used the device during the run: "
                              "/proc/diskstats counted %s that were not this run's "
                              "(the run moved %s). The figures share the disk "
                              "with that I/O."), other, ours));
    }

  if (f->zero_found > 0)
    {
      g_autofree char *rows = join_rows (f->zero_rows);

      ds_warnings_add (out, "zero_reads",
           g_strdup_printf (_("%" PRIu64 " of %" PRIu64 " sampled "
                              "reads returned only zeros (%s): never-written space on a "
                              "sparse file, a thin-provisioned LUN or a TRIMmed SSD is "
                              "returned without touching the media, so those figures "
                              "may be far too fast. Write the region first."),
                            f->zero_found, f->zero_sampled, rows));
    }

  if (f->cache_bytes > 0 && f->region_bytes > 0 && f->region_bytes <= f->cache_bytes)
    {
      g_autofree char *region = ds_format_size (f->region_bytes);
      g_autofree char *cache = ds_format_size (f->cache_bytes);

      ds_warnings_add (out, "region_below_cache",
           g_strdup_printf (_("The test region (%s) fits in the cache (%s): the "
                              "figures may be the cache's, not the media's."),
                            region, cache));
    }

  if (f->file_buffered && f->ram_bytes > 0 && f->region_bytes > 0 &&
      f->region_bytes < f->ram_bytes)
    {
      g_autofree char *region = ds_format_size (f->region_bytes);
      g_autofree char *ram = ds_format_size (f->ram_bytes);

      ds_warnings_add (out, "file_below_ram",
           g_strdup_printf (_("The test file (%s) is smaller than the memory (%s) and "
                              "was read through the page cache: the figures may be "
                              "the memory's. Use a file larger than the memory, or "
                              "direct I/O."), region, ram));
    }

  if (f->rotational && f->random_read_mean_s > 0 &&
      f->random_read_mean_s < DS_WARN_HDD_MIN_RANDOM_S)
    {
      g_autofree char *lat = ds_format_ms_l10n (f->random_read_mean_s);

      ds_warnings_add (out, "faster_than_media",
           g_strdup_printf (_("Random reads took %s on average on a rotating disk, "
                              "faster than its heads can seek: they were served from "
                              "a cache."), lat));
    }

  if (f->random_read_mean_s > 0 && f->random_write_mean_s > 0 &&
      f->random_write_mean_s * DS_WARN_WRITE_BACK_RATIO < f->random_read_mean_s)
    {
      g_autofree char *wr = ds_format_ms_l10n (f->random_write_mean_s);
      g_autofree char *rd = ds_format_ms_l10n (f->random_read_mean_s);

      ds_warnings_add (out, "write_back_cache",
           g_strdup_printf (_("Random writes took %s on average against %s for reads: "
                              "a write-back cache absorbed them, and the media's own "
                              "write rate shows only once it is full."), wr, rd));
    }

  return out;
}

void
ds_warnings_to_json (const GPtrArray *warnings,
                     JsonObject      *root)
{
  JsonArray *a = json_array_new ();

  for (guint i = 0; warnings != NULL && i < warnings->len; i++)
    {
      const DsWarning *w = warnings->pdata[i];
      JsonObject *o = json_object_new ();

      json_object_set_string_member (o, "code", w->code);
      json_object_set_string_member (o, "message", w->message);
      json_array_add_object_element (a, o);
    }
  json_object_set_array_member (root, "warnings", a);
}

gboolean
ds_warnings_from_json (JsonObject  *root,
                       GPtrArray   *warnings,
                       GError     **error)
{
  JsonArray *a;

  /* Results saved before warnings existed have none. */
  if (!json_object_has_member (root, "warnings"))
    return TRUE;

  a = ds_json_get_array (root, "result", "warnings", error);
  if (a == NULL)
    return FALSE;

  for (guint i = 0; i < json_array_get_length (a); i++)
    {
      JsonNode *n = json_array_get_element (a, i);
      JsonObject *o = JSON_NODE_HOLDS_OBJECT (n) ? json_node_get_object (n) : NULL;
      const char *code = NULL, *message = NULL;

      if (o != NULL)
        {
          code = ds_json_get_string (o, "warning", "code", FALSE, NULL);
          message = ds_json_get_string (o, "warning", "message", FALSE, NULL);
        }
      if (code == NULL || message == NULL)
        {
          g_set_error (error, DS_ERROR, DS_ERROR_CORRUPT,
                       _("result.warnings[%u] is not an object with a code and a message"), i);
          return FALSE;
        }
      g_ptr_array_add (warnings, ds_warning_new (code, message));
    }

  return TRUE;
}

void
ds_warnings_report (const GPtrArray *warnings,
                    GString         *out)
{
  if (warnings == NULL || warnings->len == 0)
    return;

  g_string_append (out, "Warnings (these figures are likely fooled):\n");
  for (guint i = 0; i < warnings->len; i++)
    {
      const DsWarning *w = warnings->pdata[i];
      g_autofree char *message = ds_text_sanitize (w->message);
      g_autofree char *code = ds_text_sanitize (w->code);

      g_string_append_printf (out, "  ! %s [%s]\n", message, code);
    }
  g_string_append_c (out, '\n');
}
