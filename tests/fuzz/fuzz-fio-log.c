/* fuzz-fio-log.c: fuzz target for fio's logs (import-fio --logs)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The input is up to three logs joined by byte 0x01: PREFIX_bw.1.log,
 * PREFIX_iops.1.log and PREFIX_lat.1.log (a part left out: no such file).
 * ds_fio_logs_read() must give a series or a DS_ERROR_CORRUPT error, never
 * a crash; the series is in time order, finite, within
 * DS_LIMIT_SERIES_POINTS, of an interval the loader reads; attached to the
 * job of tests/fixtures/fio-logs/raw.json (read once), the result reports
 * safely and saves as JSON that loads again.  Seeds: tests/fuzz/corpus-fio-log
 * (the fixtures' logs joined so); run it with FUZZ_TARGET=fio-log
 * tests/bench/fuzz-loader.
 */
#include "config.h"

#include <math.h>

#include <glib/gstdio.h>

#include "ds-fio.h"
#include "ds-limits.h"
#include "ds-report.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

static char *scratch;
static char *job_json;

static const char *const kinds[] = { "bw", "iops", "lat" };

static void
remove_scratch (void)
{
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *name = g_strdup_printf ("x_%s.1.log", kinds[k]);
      g_autofree char *path = g_build_filename (scratch, name, NULL);

      g_unlink (path);
    }
  g_rmdir (scratch);
}

static void
set_up (void)
{
  g_autofree char *path = NULL;

  if (scratch != NULL)
    return;
  scratch = g_dir_make_tmp ("ds-fuzz-log-XXXXXX", NULL);
  if (scratch == NULL)
    abort ();
  atexit (remove_scratch);
  path = g_build_filename (DS_FUZZ_FIXTURES_DIR, "fio-logs", "raw.json", NULL);
  if (!g_file_get_contents (path, &job_json, NULL, NULL))
    abort ();
}

static void
check_series (const GArray       *series,
              const DsFioLogInfo *info)
{
  double last = 0;

  if (series->len > DS_LIMIT_SERIES_POINTS || !(info->interval_s > 0) || info->interval_s > 3600 ||
      info->merged < 1)
    {
      fprintf (stderr, "%u points of %g s (merged %u)\n", series->len, info->interval_s, info->merged);
      abort ();
    }
  for (guint i = 0; i < series->len; i++)
    {
      const DsFioLogPoint *p = &g_array_index (series, DsFioLogPoint, i);
      const double v[] = { p->read.bytes_per_s, p->read.iops, p->read.p50_s, p->read.p99_s,
                           p->write.bytes_per_s, p->write.iops, p->write.p50_s, p->write.p99_s };

      if (!(p->t_s > last) || !isfinite (p->t_s))
        {
          fprintf (stderr, "point %u at %g s, after %g s\n", i, p->t_s, last);
          abort ();
        }
      for (guint k = 0; k < G_N_ELEMENTS (v); k++)
        if (!isfinite (v[k]) || v[k] < 0)
          {
            fprintf (stderr, "point %u: figure %u is %g\n", i, k, v[k]);
            abort ();
          }
      last = p->t_s;
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const int codes[] = { DS_ERROR_CORRUPT, DS_ERROR_NOT_FOUND, -1 };
  g_autofree char *prefix = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (GArray) series = NULL;
  const uint8_t *part = data;
  const uint8_t *end = data + size;
  DsFioLogInfo info = { 0 };

  set_up ();
  prefix = g_build_filename (scratch, "x", NULL);
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *name = g_strdup_printf ("x_%s.1.log", kinds[k]);
      g_autofree char *path = g_build_filename (scratch, name, NULL);
      const uint8_t *next = part < end ? memchr (part, 1, (size_t) (end - part)) : NULL;
      size_t n = (size_t) ((next != NULL ? next : end) - part);

      g_unlink (path);
      if (part < end && n > 0 && !g_file_set_contents (path, (const char *) part, (gssize) n, NULL))
        abort ();
      part = next != NULL ? next + 1 : end;
    }

  series = ds_fio_logs_read (prefix, NULL, 1, &info, &error);
  if ((series == NULL) == (error == NULL))
    abort ();
  if (series == NULL)
    {
      ds_fuzz_check_error ("ds_fio_logs_read", error, codes);
      return 0;
    }
  check_series (series, &info);

  /* As import-fio --logs: onto fio's result of the run, saved, loaded. */
  {
    g_autoptr (GPtrArray) jobs = ds_fio_import_data (job_json, -1, "raw.json", NULL, NULL);
    g_autoptr (GPtrArray) warnings = g_ptr_array_new_with_free_func (g_free);
    g_autoptr (GError) attach_error = NULL;
    g_autofree char *report = NULL;
    DsResult *r;

    if (jobs == NULL)
      abort ();
    if (ds_fio_logs_attach (jobs, prefix, warnings, &attach_error) < 0)
      {
        ds_fuzz_check_error ("ds_fio_logs_attach", attach_error, codes);
        return 0;
      }
    for (guint w = 0; w < warnings->len; w++)
      ds_fuzz_check_inert ("a warning", warnings->pdata[w]);
    r = ((DsFioJob *) jobs->pdata[0])->result;
    report = ds_report_text (r, DS_UNITS_MB);
    ds_fuzz_check_inert ("the report", report);
    ds_fuzz_check_round_trip ("a result with fio's logs", r);
  }

  return 0;
}
