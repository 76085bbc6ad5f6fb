/* ds-erase-text.c: the erase kind's section of the text report
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The report's labels stay English, like the rest of the report.
 */
#include "config.h"

#include "ds-bench-erase.h"
#include "ds-report.h"
#include "ds-result.h"
#include "ds-units.h"

static const char *
method_words (DsEraseMethod method)
{
  switch (method)
    {
    case DS_ERASE_ZEROS: return "overwrite with zeros";
    case DS_ERASE_RANDOM: return "overwrite with pseudo-random data";
    case DS_ERASE_DISCARD: return "discard (BLKDISCARD; a punched hole for a file)";
    case DS_ERASE_SECURE_DISCARD: return "secure discard (BLKSECDISCARD)";
    default: return "?";
    }
}

char *
ds_erase_describe_reached (const DsEraseData *data)
{
  g_autofree char *size = NULL;

  if (data->reached_bytes >= data->size_bytes)
    return NULL;
  if (data->reached_bytes == 0)
    return g_strdup_printf ("nothing; all %" G_GUINT64_FORMAT " bytes are untouched",
                            data->size_bytes);

  /* "109.0 MiB", with a plain space (GLib puts a no-break space there). */
  size = g_format_size_full (data->reached_bytes, G_FORMAT_SIZE_IEC_UNITS);
  {
    g_auto (GStrv) parts = g_strsplit (size, "\u00a0", -1);

    g_free (size);
    size = g_strjoinv (" ", parts);
  }
  return g_strdup_printf ("bytes 0 – %" G_GUINT64_FORMAT " (%s) of %" G_GUINT64_FORMAT
                          "%s; the rest (%" G_GUINT64_FORMAT " bytes from offset %"
                          G_GUINT64_FORMAT ") is untouched",
                          data->reached_bytes - 1, size, data->size_bytes,
                          data->write_errors.ranges->len > 0 ?
                          ", except the blocks listed below that could not be written" : "",
                          data->size_bytes - data->reached_bytes, data->reached_bytes);
}

static char *
verified_words (const DsEraseData *data)
{
  gboolean overwrites = ds_erase_method_overwrites (data->method);

  if (!data->verify)
    return g_strdup (overwrites ? "not asked (--verify reads every byte back)"
                                : "not asked (--no-verify): whether the device "
                                  "dropped the data is not known");
  if (data->bytes_verified == 0 && data->reached_bytes < data->size_bytes)
    return g_strdup ("not reached: the run ended during the erase");
  if (data->bytes_verified < data->size_bytes)
    return g_strdup_printf ("stopped after %" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                            " bytes", data->bytes_verified, data->size_bytes);
  if (data->verified)
    return g_strdup (overwrites ? "yes: every byte read back as written"
                                : "yes: every byte reads back as zero");
  if (overwrites)
    return g_strdup_printf ("NO: %" G_GUINT64_FORMAT " bytes read back otherwise (listed below)",
                            data->mismatches.total_bytes);
  if (data->survived.total_bytes > 0)
    return g_strdup_printf ("NO: %" G_GUINT64_FORMAT " bytes do not read back as zeros, "
                            "and at least %" G_GUINT64_FORMAT " of them still hold the old "
                            "data: the device accepted the discard and kept it (listed below)",
                            data->mismatches.total_bytes, data->survived.total_bytes);
  return g_strdup_printf ("NO: %" G_GUINT64_FORMAT " bytes do not read back as zeros "
                          "(listed below); the device promises nothing after a discard",
                          data->mismatches.total_bytes);
}

void
ds_erase_report (const DsResult *result,
                 DsUnits         units,
                 GString        *out)
{
  const DsEraseData *data = result->data;
  gboolean overwrites = ds_erase_method_overwrites (data->method);
  g_autofree char *rate = ds_format_rate (data->erase_ns ? (double) data->bytes_done * 1e9 /
                                          (double) data->erase_ns : 0, units);
  g_autofree char *done = g_strdup_printf ("%" G_GUINT64_FORMAT " of %" G_GUINT64_FORMAT
                                           " bytes in %.1f s (%s)",
                                           data->bytes_done, data->size_bytes,
                                           (double) data->erase_ns / 1e9, rate);
  g_autofree char *reached = ds_erase_describe_reached (data);
  g_autofree char *verified = verified_words (data);

  ds_report_figure (out, "Method", method_words (data->method));
  ds_report_figure (out, overwrites ? "Written" : "Discarded", done);
  ds_report_figure (out, "Verified", verified);
  if (data->verify && data->verify_ns > 0)
    {
      g_autofree char *vrate = ds_format_rate ((double) data->bytes_verified * 1e9 /
                                               (double) data->verify_ns, units);
      g_autofree char *vline = g_strdup_printf ("%" G_GUINT64_FORMAT " bytes in %.1f s (%s)",
                                                data->bytes_verified,
                                                (double) data->verify_ns / 1e9, vrate);
      ds_report_figure (out, "Read back", vline);
    }
  /* A run that stopped or failed part way: which bytes it changed. */
  if (reached != NULL)
    g_string_append_printf (out, "\n%s before the %s: %s\n",
                            overwrites ? "Overwritten" : "Discarded",
                            result->cancelled ? "stop" : "error", reached);

  if (data->write_errors.ranges->len > 0)
    {
      g_string_append (out, "\nBlocks that could not be written:\n");
      ds_range_list_report (&data->write_errors, 50, out);
    }
  if (data->survived.ranges->len > 0)
    {
      g_string_append (out, "\nBlocks that still hold the old data after the discard:\n");
      ds_range_list_report (&data->survived, 50, out);
    }
  if (data->mismatches.ranges->len > 0)
    {
      g_string_append (out, overwrites ? "\nBlocks that did not verify:\n"
                                       : "\nBlocks that do not read back as zeros:\n");
      ds_range_list_report (&data->mismatches, 50, out);
    }
}
