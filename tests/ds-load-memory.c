/* ds-load-memory.c: memory over many loads of distinct results (driven by
 * tests/bench/load-memory; prints figures, passes or fails nothing)
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Each of N distinct results (ds_test_distinct_result()) is saved, loaded,
 * reported, saved and loaded again: what the fuzz target, the app and the
 * results library do with files.  Every tenth of the way it prints RSS and
 * malloc's live heap.  Before the fix of issue 17 (a save kept its whole
 * JSON tree) this grew by 7 to 220 kB a result.
 */
#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ds-report.h"
#include "ds-result-json.h"
#include "ds-test-results.h"

static uint64_t
rss_kb (void)
{
  g_autofree char *status = NULL;
  const char *p;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL) ||
      (p = strstr (status, "VmRSS:")) == NULL)
    return 0;
  return g_ascii_strtoull (p + 6, NULL, 10);
}

int
main (int    argc,
      char **argv)
{
  guint n = argc > 1 ? (guint) g_ascii_strtoull (argv[1], NULL, 10) : 100000;
  gint64 start = g_get_monotonic_time ();

  if (n < 10)
    n = 10;
  printf ("%10s %12s %14s %10s\n", "loads", "RSS kB", "live heap kB", "seconds");
  for (guint i = 0; i < n; i++)
    {
      g_autoptr (DsResult) r = ds_test_distinct_result (i);
      g_autofree char *text = ds_result_to_data (r, NULL);
      g_autoptr (GError) error = NULL;
      g_autoptr (DsResult) loaded = ds_result_load_data (text, -1, &error);
      g_autofree char *report = NULL;
      g_autofree char *again = NULL;
      g_autoptr (DsResult) back = NULL;

      if (loaded == NULL)
        {
          fprintf (stderr, "load-memory: result %u does not load: %s\n", i, error->message);
          return 1;
        }
      report = ds_report_text (loaded, DS_UNITS_MB);
      again = ds_result_to_data (loaded, NULL);
      back = ds_result_load_data (again, -1, &error);
      if (back == NULL)
        {
          fprintf (stderr, "load-memory: result %u does not load again: %s\n", i, error->message);
          return 1;
        }

      if ((i + 1) % (n / 10) == 0)
        {
          malloc_trim (0);
          printf ("%10u %12" G_GUINT64_FORMAT " %14zu %10.1f\n", i + 1, rss_kb (),
                  mallinfo2 ().uordblks / 1024, (g_get_monotonic_time () - start) / 1e6);
          fflush (stdout);
        }
    }

  return 0;
}
