/* fuzz-fio-import.c: libFuzzer target for the fio JSON importer
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ds_fio_import_data() must turn any bytes into either jobs or a
 * DS_ERROR_CORRUPT error, never a crash.  What it imports must hold
 * together like a loaded result: it renders as a text report, compares
 * with itself, exports as a fio job, saves as JSON, and that JSON loads
 * again.  Seeds: tests/fixtures/fio/; run it with tests/bench/fuzz-loader fio.
 */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "ds-compare.h"
#include "ds-compare-format.h"
#include "ds-error.h"
#include "ds-fio.h"
#include "ds-report.h"
#include "ds-result-json.h"

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) warnings = NULL;
  g_autoptr (GPtrArray) jobs = NULL;

  jobs = ds_fio_import_data ((const char *) data, (gssize) size, "fuzz.json", &warnings, &error);

  if ((jobs == NULL) == (error == NULL))
    abort ();
  if (error != NULL)
    {
      if (!g_error_matches (error, DS_ERROR, DS_ERROR_CORRUPT) || error->message[0] == '\0')
        abort ();
      return 0;
    }
  if (jobs->len == 0)
    abort ();

  for (guint i = 0; i < jobs->len; i++)
    {
      DsFioJob *job = jobs->pdata[i];
      DsResult *pair[2] = { job->result, job->result };
      g_autofree char *report = ds_report_text (job->result, DS_UNITS_MB);
      g_autofree char *fio_job = ds_fio_job_from_result (job->result, NULL, NULL);
      g_autoptr (DsComparison) cmp = ds_comparison_new (pair, NULL, 2, NULL);
      g_autofree char *table = cmp ? ds_comparison_to_text (cmp, DS_UNITS_MB) : NULL;
      g_autoptr (GError) again_error = NULL;
      g_autoptr (DsResult) again = NULL;
      g_autofree char *text = NULL;
      gsize length = 0;

      if (report == NULL || fio_job == NULL || table == NULL)
        abort ();
      text = ds_result_to_data (job->result, &length);
      again = ds_result_load_data (text, (gssize) length, &again_error);
      if (again == NULL)
        {
          fprintf (stderr, "an imported fio job does not load after saving: %s\n",
                   again_error->message);
          abort ();
        }
    }

  return 0;
}
