/* ds-units.c: parsing and formatting sizes, durations and rates
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ds-clock.h"
#include "ds-error.h"
#include "ds-units.h"

/* Splits "64K" into 64 and "K"; the number may have a fraction ("0.5K"). */
static gboolean
split_number (const char  *text,
              double      *ret_number,
              const char **ret_suffix)
{
  g_autofree char *number = NULL;
  const char *end;
  char *parsed_end = NULL;
  double v;

  if (text == NULL)
    return FALSE;
  while (g_ascii_isspace (*text))
    text++;

  /* Plain decimal only (strtod would also take hex, "inf", exponents). */
  end = text;
  while (g_ascii_isdigit (*end) || *end == '.')
    end++;
  if (end == text)
    return FALSE;
  number = g_strndup (text, (gsize) (end - text));

  errno = 0;
  v = g_ascii_strtod (number, &parsed_end);
  if (errno != 0 || *parsed_end != '\0' || !isfinite (v) || v < 0)
    return FALSE;

  *ret_number = v;
  *ret_suffix = end;
  return TRUE;
}

gboolean
ds_units_from_string (const char  *text,
                      DsUnits     *ret_units,
                      GError     **error)
{
  if (text == NULL || g_ascii_strcasecmp (text, "MB") == 0 || g_ascii_strcasecmp (text, "MB/s") == 0)
    *ret_units = DS_UNITS_MB;
  else if (g_ascii_strcasecmp (text, "MiB") == 0 || g_ascii_strcasecmp (text, "MiB/s") == 0)
    *ret_units = DS_UNITS_MIB;
  else
    {
      g_set_error (error, DS_ERROR, DS_ERROR_INVALID, _("--units is MB or MiB, not “%s”"), text);
      return FALSE;
    }

  return TRUE;
}

gboolean
ds_parse_size (const char  *text,
               uint64_t    *ret_bytes,
               GError     **error)
{
  static const struct { const char *suffix; unsigned shift; } units[] = {
    { "", 0 }, { "B", 0 },
    { "K", 10 }, { "KB", 10 }, { "KIB", 10 },
    { "M", 20 }, { "MB", 20 }, { "MIB", 20 },
    { "G", 30 }, { "GB", 30 }, { "GIB", 30 },
    { "T", 40 }, { "TB", 40 }, { "TIB", 40 },
  };
  const char *suffix;
  double number;
  g_autofree char *upper = NULL;

  if (!split_number (text, &number, &suffix))
    goto invalid;

  upper = g_ascii_strup (suffix, -1);
  g_strstrip (upper);
  for (size_t i = 0; i < G_N_ELEMENTS (units); i++)
    {
      double bytes;

      if (strcmp (upper, units[i].suffix) != 0)
        continue;

      bytes = ldexp (number, (int) units[i].shift);
      if (bytes >= 18446744073709551616.0 || bytes != floor (bytes))
        goto invalid;

      *ret_bytes = (uint64_t) bytes;
      return TRUE;
    }

invalid:
  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("“%s” is not a size: use a number of bytes with an optional "
               "K, M, G or T (powers of 1024), like 512, 4K, 64K, 1M, 1G"),
               text ? text : "");
  return FALSE;
}

gboolean
ds_parse_duration (const char  *text,
                   uint64_t    *ret_ns,
                   GError     **error)
{
  static const struct { const char *suffix; double ns; } units[] = {
    { "", 1e9 }, { "s", 1e9 }, { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 },
    { "m", 60e9 }, { "min", 60e9 }, { "h", 3600e9 },
  };
  const char *suffix;
  double number;
  g_autofree char *lower = NULL;

  if (!split_number (text, &number, &suffix))
    goto invalid;

  lower = g_ascii_strdown (suffix, -1);
  g_strstrip (lower);
  for (size_t i = 0; i < G_N_ELEMENTS (units); i++)
    {
      double ns;

      if (strcmp (lower, units[i].suffix) != 0)
        continue;

      ns = number * units[i].ns;
      if (ns >= 9.2e18)
        goto invalid;

      *ret_ns = (uint64_t) llround (ns);
      return TRUE;
    }

invalid:
  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("“%s” is not a duration: use a number with ms, s, m or h, "
               "like 500ms, 5s, 1m"),
               text ? text : "");
  return FALSE;
}

const char *
ds_units_description (DsUnits units)
{
  if (units == DS_UNITS_MIB)
    return "Rates: MiB/s, 1 MiB = 2^20 bytes (what HD Tune calls MB)";

  return "Rates: MB/s, 1 MB = 10^6 bytes (HD Tune's MB is 2^20: --units MiB)";
}

gboolean
ds_parse_random_align (const char  *text,
                       uint64_t    *ret_bytes,
                       GError     **error)
{
  if (text != NULL && g_ascii_strcasecmp (text, "block") == 0)
    {
      *ret_bytes = 0;
      return TRUE;
    }

  return ds_parse_size (text, ret_bytes, error);
}

gboolean
ds_parse_seed (const char  *text,
               uint64_t    *ret_seed,
               GError     **error)
{
  guint64 u;
  gint64 s;

  if (text != NULL && text[0] != '-' &&
      g_ascii_string_to_unsigned (text, 10, 0, G_MAXUINT64, &u, NULL))
    {
      *ret_seed = u;
      return TRUE;
    }
  if (text != NULL && text[0] == '-' &&
      g_ascii_string_to_signed (text, 10, G_MININT64, -1, &s, NULL))
    {
      *ret_seed = (uint64_t) s;
      return TRUE;
    }

  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("--seed “%s” is not a number from 0 to %" PRIu64
               " (or a negative one from %" PRId64 ")"),
               text ? text : "", G_MAXUINT64, G_MININT64);
  return FALSE;
}

/* The units' names: the graph axes' msgids (ui/graph/ds-graph-axes.c), so that a
 * value and the axis beside it say the unit alike in every language. */
static const char *const rate_names[] = { [DS_UNITS_MB] = N_("MB/s"), [DS_UNITS_MIB] = N_("MiB/s") };
static const char ms_name[] = N_("ms");

static char *
format_rate (double      bytes_per_s,
             DsUnits     units,
             const char *name)
{
  double unit = units == DS_UNITS_MIB ? 1048576.0 : 1e6;
  double v = bytes_per_s / unit;

  /* Not measured: no number at all, not a 0 that reads as a dead disk. */
  if (!isfinite (v) || v < 0)
    return g_strdup ("–");
  if (v >= 10.0)
    return g_strdup_printf ("%.1f %s", v, name);

  return g_strdup_printf ("%.3f %s", v, name);
}

static char *
format_ms (double      seconds,
           const char *name)
{
  double ms = seconds * 1e3;

  if (!isfinite (ms) || ms < 0)
    return g_strdup ("–");
  if (ms < 10.0)
    return g_strdup_printf ("%.3f %s", ms, name);
  if (ms < 100.0)
    return g_strdup_printf ("%.2f %s", ms, name);

  return g_strdup_printf ("%.1f %s", ms, name);
}

char *
ds_format_rate (double  bytes_per_s,
                DsUnits units)
{
  return format_rate (bytes_per_s, units, rate_names[units == DS_UNITS_MIB ? DS_UNITS_MIB : DS_UNITS_MB]);
}

char *
ds_format_ms (double seconds)
{
  return format_ms (seconds, ms_name);
}

char *
ds_format_rate_l10n (double  bytes_per_s,
                     DsUnits units)
{
  return format_rate (bytes_per_s, units,
                      _(rate_names[units == DS_UNITS_MIB ? DS_UNITS_MIB : DS_UNITS_MB]));
}

char *
ds_format_ms_l10n (double seconds)
{
  return format_ms (seconds, _(ms_name));
}

char *
ds_format_block (uint64_t bytes)
{
  if (bytes < 1024)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " bytes", bytes);
  if (bytes < 1024 * 1024)
    return g_strdup_printf ("%g KiB", (double) bytes / 1024.0);

  return g_strdup_printf ("%g MiB", (double) bytes / 1048576.0);
}

char *
ds_format_size (uint64_t bytes)
{
  static const char *const names[] = { "bytes", "kB", "MB", "GB", "TB", "PB" };
  double v = (double) bytes;
  unsigned i = 0;

  while (v >= 1000.0 && i + 1 < G_N_ELEMENTS (names))
    {
      v /= 1000.0;
      i++;
    }

  if (i == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " bytes", bytes);
  if (v >= 100.0)
    return g_strdup_printf ("%.0f %s", v, names[i]);

  return g_strdup_printf ("%.1f %s", v, names[i]);
}

gboolean
ds_parse_range (const char  *text,
                uint64_t    *ret_offset_bytes,
                uint64_t    *ret_span_bytes,
                GError     **error)
{
  g_autofree char *copy = g_strdup (text);
  char *dash = strchr (copy, '-');
  uint64_t a = 0, b = 0;

  if (dash == NULL || dash == copy)
    goto bad;
  *dash = '\0';
  if (!ds_parse_size (g_strstrip (copy), &a, NULL))
    goto bad;
  g_strstrip (dash + 1);
  if (dash[1] != '\0' && (!ds_parse_size (dash + 1, &b, NULL) || b <= a))
    goto bad;

  *ret_offset_bytes = a;
  *ret_span_bytes = dash[1] != '\0' ? b - a : 0;
  return TRUE;

bad:
  g_set_error (error, DS_ERROR, DS_ERROR_INVALID,
               _("“%s” is not a range: use START-END (END after START) or START- (to the "
               "end), in bytes or with K, M, G, T: e.g. 0-10G"), text);
  return FALSE;
}

char *
ds_format_size_iec (uint64_t bytes)
{
  static const char *const names[] = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
  uint64_t unit = 1;
  unsigned i = 0;

  while (i + 1 < G_N_ELEMENTS (names) && bytes / unit >= 1024)
    {
      unit *= 1024;
      i++;
    }

  if (i == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " bytes", bytes);
  if (bytes % unit == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT " %s", bytes / unit, names[i]);

  return g_strdup_printf ("%.1f %s", (double) bytes / (double) unit, names[i]);
}

char *
ds_format_size_both (uint64_t bytes)
{
  g_autofree char *iec = ds_format_size_iec (bytes);
  g_autofree char *si = ds_format_size (bytes);

  if (bytes < 1000)
    return g_steal_pointer (&iec);

  return g_strdup_printf ("%s (%s)", iec, si);
}
